// Package buildinfo is what the running qoslint binary knows about its own
// build (runtime/debug.ReadBuildInfo): `qoslint version` prints it and the
// capture manifest records its version, from this one place.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Info describes the running binary.
type Info struct {
	Version   string `json:"version"`
	Revision  string `json:"revision"`
	Time      string `json:"time"`
	Modified  bool   `json:"modified"`
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"`
}

// Devel and Unknown stand in for what a build does not record: go run and
// go test have no module version, a build outside a VCS checkout (or with
// -buildvcs=false) no revision or time.
const (
	Devel   = "(devel)"
	Unknown = "unknown"
)

// Read is the running binary's build information.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	return fromBuildInfo(bi, ok)
}

// fromBuildInfo reads the vcs.* settings the go command stamps
// (https://pkg.go.dev/runtime/debug#BuildSetting).
func fromBuildInfo(bi *debug.BuildInfo, ok bool) Info {
	in := Info{Version: Devel, Revision: Unknown, Time: Unknown, GoVersion: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if !ok || bi == nil {
		return in
	}
	if bi.Main.Version != "" {
		in.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		in.GoVersion = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// Version is the running qoslint's main module version, Devel when the
// binary does not know it.
func Version() string { return Read().Version }
