package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
)

// A device whose folder is missing is not modelled, so no check ran on
// it: every check is skipped there as not collected, none passes.
func TestUnreadDeviceSkipsEveryCheck(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../../examples/clean-pod")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "devices", "gpu04")); err != nil {
		t.Fatal(err)
	}
	r, err := BuildReport(dir, judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range r.Statuses {
		if s.Device != "gpu04" {
			continue
		}
		n++
		if s.Skip() != checks.SkipNotCollected || s.Reason() == "" {
			t.Errorf("%s on the unread gpu04: %q %q, want not collected", s.Check(), s.Skip(), s.Reason())
		}
	}
	if n != len(checks.All()) {
		t.Errorf("%d statuses of gpu04, want one per check (%d)", n, len(checks.All()))
	}
}
