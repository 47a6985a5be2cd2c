package app

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
)

// audit --counters --interval takes two samples; the simulator serves the
// same counter files both times, so nothing grew between them, and the
// evidence checks that judged the deltas say so in the notes rather than
// pass as if the fabric had been seen carrying traffic.
func TestAuditIntervalIdleNote(t *testing.T) {
	tmp := t.TempDir()
	invPath := filepath.Join(tmp, "sim-inventory.yaml")
	f, err := startSim("../../../examples/clean-pod", "127.0.0.1", 0, testPassword, simFiles{inventory: invPath, topology: true, gnmi: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	opt := liveOpts(invPath)
	opt.Counters, opt.Interval = true, 50*time.Millisecond
	var out, errOut bytes.Buffer
	code := Audit(context.Background(), &out, &errOut, AuditOptions{LiveOptions: opt, Format: "json", FailOn: judge.Error})
	if code != ExitOK && code != ExitFindings {
		t.Fatalf("audit exit %d\n%s%s", code, out.String(), errOut.String())
	}
	var rep struct {
		Notes   []string
		Devices []struct {
			Name   string
			Checks []struct{ Check, Status, Note string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	const idle = "no traffic counter grew on "
	noted := map[string]bool{}
	for _, n := range rep.Notes {
		if strings.Contains(n, idle) && strings.Contains(n, "between the two counter samples ") && strings.Contains(n, "the check had no traffic to judge") {
			noted[strings.SplitN(n, ":", 2)[0]] = true
		}
	}
	for _, d := range rep.Devices {
		for _, c := range d.Checks {
			if c.Check == "evidence-pause-priority" || c.Check == "evidence-lossless-drops" {
				if c.Status != "ran" || !strings.Contains(c.Note, idle) {
					t.Errorf("%s %s: %s, note %q; want ran with the idle note", d.Name, c.Check, c.Status, c.Note)
				}
				if !noted[d.Name] {
					t.Errorf("the notes do not say %s's evidence checks saw no traffic:\n%s", d.Name, strings.Join(rep.Notes, "\n"))
				}
			}
		}
	}
	if len(noted) == 0 {
		t.Errorf("no idle note:\n%s", strings.Join(rep.Notes, "\n"))
	}
}
