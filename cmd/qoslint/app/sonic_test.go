package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/layout"
)

// A live audit of a mixed fabric (clean-pod's Cumulus switches and hosts,
// and the SONiC switch sonic01, collectors/sim/testdata/sonic-mixed) gives
// what lint of the same files gives, findings and input errors alike,
// whether sonic01's configuration comes from sonic-cfggen or from the
// fallback; collect + lint gives it again, with sonic01's files byte for
// byte. The comparison holds whatever the model makes of SONiC today.
func TestAuditEqualsLintSONiC(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults map[string]sim.Fault
	}{
		{"cfggen", nil},
		{"fallback", map[string]sim.Fault{"sonic01": {Fail: "sonic-cfggen"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fixture.Dir(t, "../../../collectors/sim/testdata/sonic-mixed")
			var lintOut, auditOut, errOut bytes.Buffer
			lintCode := Lint(&lintOut, &errOut, src, LintOptions{Format: "json", FailOn: judge.Error})
			inv, _ := simulate(t, src, tc.faults)
			auditCode := Audit(context.Background(), &auditOut, &errOut, AuditOptions{LiveOptions: liveOpts(inv), Format: "json", FailOn: judge.Error})
			l, a := decode(t, lintOut.Bytes()), decode(t, auditOut.Bytes())
			// An input error is lint's ExitInput and audit's
			// ExitIncomplete (emit's inputCode); otherwise the codes agree.
			wantAudit := lintCode
			if len(l.InputErrors) > 0 && lintCode == ExitInput {
				wantAudit = ExitIncomplete
			}
			if auditCode != wantAudit {
				t.Errorf("audit exit %d, lint exit %d with %d input errors\n%s", auditCode, lintCode, len(l.InputErrors), errOut.String())
			}
			l.Findings = slices.DeleteFunc(l.Findings, func(f jsonFinding) bool { return strings.HasPrefix(f.Check, "wire-") })
			lj, _ := json.Marshal(l)
			aj, _ := json.Marshal(a)
			if string(lj) != string(aj) {
				t.Errorf("audit differs from lint:\nlint  %s\naudit %s", lj, aj)
			}
			if !slices.ContainsFunc(a.Findings, func(f jsonFinding) bool { return f.Device == "sonic01" }) &&
				!slices.ContainsFunc(a.InputErrors, func(e struct{ Device, Message string }) bool { return e.Device == "sonic01" }) {
				t.Errorf("nothing reported about sonic01: %s", aj)
			}

			out := filepath.Join(t.TempDir(), "capture")
			if code := Collect(context.Background(), &errOut, liveOpts(inv), out); code != ExitOK {
				t.Fatalf("collect exit %d: %s", code, errOut.String())
			}
			for _, f := range []string{layout.ConfigDBFile, layout.PlatformSummaryFile} {
				rel := filepath.Join(layout.DevicesDir, "sonic01", f)
				want, _ := os.ReadFile(filepath.Join(src, rel))
				got, err := os.ReadFile(filepath.Join(out, rel))
				if err != nil || len(want) == 0 || !bytes.Equal(got, want) {
					t.Errorf("collected %s differs from the source (%v)", rel, err)
				}
			}
			if _, err := os.Stat(filepath.Join(out, layout.DevicesDir, "sonic01", layout.NVUEYAMLFile)); err == nil {
				t.Error("sonic01 has an NVUE file in the capture")
			}
			var again bytes.Buffer
			Lint(&again, &errOut, out, LintOptions{Format: "json", FailOn: judge.Error})
			cj, _ := json.Marshal(decode(t, again.Bytes()))
			if string(cj) != string(lj) {
				t.Errorf("lint of the capture differs:\n%s\n%s", cj, lj)
			}
			if strings.Contains(errOut.String()+auditOut.String(), testPassword) {
				t.Error("the password leaked into the output")
			}
		})
	}
}
