package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// TestAuditCountersEqualsLint: audit --counters of the clean pod (SSH and
// gNMI over TLS) and lint of collect --counters give the same findings,
// and the capture holds every NIC's ethtool -S and every switch's gNMI
// counters, and every RDMA port's hw_counters. On the broken pod the gNMI
// counters add evidence findings.
func TestAuditCountersEqualsLint(t *testing.T) {
	for _, name := range []string{"clean-pod", "broken-pod"} {
		t.Run(name, func(t *testing.T) { auditCountersEqualsLint(t, "../../../examples/"+name) })
	}
}

func auditCountersEqualsLint(t *testing.T, src string) {
	tmp := t.TempDir()
	invPath := filepath.Join(tmp, "sim-inventory.yaml")
	f, err := startSim(src, "127.0.0.1", 0, testPassword, simFiles{inventory: invPath, topology: true, gnmi: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	opt := liveOpts(invPath)
	opt.Counters = true

	var auditOut, errOut bytes.Buffer
	code := Audit(context.Background(), &auditOut, &errOut, AuditOptions{LiveOptions: opt, Format: "json", FailOn: judge.Error})
	if code != ExitOK && code != ExitFindings {
		t.Fatalf("audit exit %d\n%s%s", code, auditOut.String(), errOut.String())
	}
	a := decode(t, auditOut.Bytes())
	evidence := false
	for _, fd := range a.Findings {
		evidence = evidence || strings.HasPrefix(fd.Check, "evidence-")
	}
	if want := strings.HasSuffix(src, "broken-pod"); evidence != want {
		t.Errorf("evidence findings: %t, want %t\n%s", evidence, want, auditOut.String())
	}

	out := filepath.Join(tmp, "capture")
	if code := Collect(context.Background(), &errOut, opt, out); code != ExitOK && code != ExitIncomplete {
		t.Fatalf("collect exit %d: %s", code, errOut.String())
	}
	for _, d := range f.Devices() {
		pattern := filepath.Join(out, "devices", d.Name, layout.GNMIFile)
		want := 1
		if d.Kind == layout.KindHost {
			pattern = filepath.Join(out, "devices", d.Name, "ethtool-S-*.txt")
			qos, _ := filepath.Glob(filepath.Join(src, "devices", d.Name, "mlnx_qos-*.txt"))
			want = len(qos)
		}
		if got, _ := filepath.Glob(pattern); len(got) != want || want == 0 {
			t.Errorf("%s: %d files %s, want %d", d.Name, len(got), pattern, want)
		}
		if d.Kind == layout.KindHost {
			// Every RDMA port's hw_counters, mirrored below sysfs/.
			hw, _ := filepath.Glob(filepath.Join(out, "devices", d.Name, "sysfs/class/infiniband/*/ports/*/hw_counters/*"))
			if len(hw) != want*len(hostfiles.HWCounterNames) {
				t.Errorf("%s: %d hw_counters files, want %d", d.Name, len(hw), want*len(hostfiles.HWCounterNames))
			}
		}
	}
	var again bytes.Buffer
	Lint(&again, &errOut, out, LintOptions{Format: "json", FailOn: judge.Error})
	aj, _ := json.Marshal(a.Findings)
	cj, _ := json.Marshal(decode(t, again.Bytes()).Findings)
	if string(cj) != string(aj) {
		t.Errorf("lint of the capture differs from the audit:\nlint  %s\naudit %s", cj, aj)
	}
	if _, err := os.Stat(filepath.Join(tmp, sim.GNMICAFile)); err != nil {
		t.Errorf("the CA the inventory names was not written: %v", err)
	}
	if strings.Contains(errOut.String()+auditOut.String(), testPassword) {
		t.Error("the password leaked into the output")
	}
}
