package buildinfo

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	plat := runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want Info
	}{
		{"no build info", nil, false, Info{Devel, Unknown, Unknown, false, runtime.Version(), plat}},
		{"go run: no version, no vcs", &debug.BuildInfo{GoVersion: "go1.26.0"}, true,
			Info{Devel, Unknown, Unknown, false, "go1.26.0", plat}},
		{"a release built from a checkout", &debug.BuildInfo{GoVersion: "go1.26.8",
			Main: debug.Module{Path: "github.com/qoslint/qoslint", Version: "v1.2.3"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "e9127a3"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
				{Key: "vcs.modified", Value: "true"}, {Key: "GOOS", Value: "linux"}}}, true,
			Info{"v1.2.3", "e9127a3", "2026-01-02T03:04:05Z", true, "go1.26.8", plat}},
	} {
		if got := fromBuildInfo(tc.bi, tc.ok); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if Version() != Read().Version || Read().Version == "" {
		t.Errorf("Version() %q, Read() %+v", Version(), Read())
	}
}
