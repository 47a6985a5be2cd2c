package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/capture"
	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/layout"
)

// A live audit of a mixed fabric (clean-pod's Cumulus switches and hosts,
// and the SONiC switch sonic01, collectors/sim/testdata/sonic-mixed) gives
// what lint of the same files gives, findings and input errors alike,
// whether sonic01's configuration comes from sonic-cfggen or from the
// fallback (whose re-printed config_db.json, with bgpraw, lint reads
// alike); collect + lint gives it again, with the SONiC files byte for
// byte as served (the fallback's config_db.json as show prints it). The
// same for examples/sonic-pod, every switch SONiC. The comparison holds
// whatever the model makes of SONiC.
func TestAuditEqualsLintSONiC(t *testing.T) {
	for _, tc := range []struct {
		name, fabric string
		faults       map[string]sim.Fault
	}{
		{"cfggen", "../../../collectors/sim/testdata/sonic-mixed", nil},
		{"fallback", "../../../collectors/sim/testdata/sonic-mixed", map[string]sim.Fault{"sonic01": {Fail: "sonic-cfggen"}}},
		// Every switch SONiC: the shipped example.
		{"sonic-pod", "../../../examples/sonic-pod", map[string]sim.Fault{"leaf02": {Fail: "sonic-cfggen"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fixture.Dir(t, tc.fabric)
			sonics := []string{"sonic01"}
			if tc.name == "sonic-pod" {
				sonics = []string{"leaf01", "leaf02", "spine01", "spine02"}
			}
			var lintOut, auditOut, errOut bytes.Buffer
			lintCode := Lint(&lintOut, &errOut, src, LintOptions{Format: "json", FailOn: judge.Error, Fix: true})
			inv, _ := simulate(t, src, tc.faults)
			auditCode := Audit(context.Background(), &auditOut, &errOut, AuditOptions{LiveOptions: liveOpts(inv), Format: "json", FailOn: judge.Error, Fix: true})
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
			// Their fixes too: audit writes a SONiC switch's patch against
			// the configuration it collected, lint against the file.
			lp, ap := plans(t, lintOut.Bytes()), plans(t, auditOut.Bytes())
			if lp != ap || (tc.name != "sonic-pod") != strings.Contains(lp, `"patch"`) {
				t.Errorf("audit's plans differ from lint's, or a patch is missing:\nlint  %s\naudit %s", lp, ap)
			}
			// The mixed fabric's published config_db.json breaks the
			// policy (its DSCP map, MTU, cable lengths); sonic-pod is clean.
			if reported := slices.ContainsFunc(a.Findings, func(f jsonFinding) bool { return f.Device == "sonic01" }); reported != (tc.name != "sonic-pod") {
				t.Errorf("findings about sonic01: %v: %s", reported, aj)
			}
			if tc.name == "sonic-pod" && (len(a.Findings) != 0 || len(a.InputErrors) != 0) {
				t.Errorf("sonic-pod audits with findings or input errors: %s", aj)
			}

			out := filepath.Join(t.TempDir(), "capture")
			if code := Collect(context.Background(), &errOut, liveOpts(inv), out); code != ExitOK {
				t.Fatalf("collect exit %d: %s", code, errOut.String())
			}
			for _, sonic := range sonics {
				_, fallback := tc.faults[sonic]
				checkSONiCFiles(t, src, out, sonic, fallback)
			}
			// The manifest names the command each config_db.json came
			// from: the fallback where sonic-cfggen was made to fail.
			m, err := capture.Read(os.DirFS(out))
			if err != nil || m == nil {
				t.Fatalf("capture manifest: %v", err)
			}
			for _, d := range m.Devices {
				if !slices.Contains(sonics, d.Name) {
					continue
				}
				want := devcmd.SONiCConfigDB
				if _, failed := tc.faults[d.Name]; failed {
					want = devcmd.SONiCRunningConfig
				}
				cfg := path.Join(layout.DevicesDir, d.Name, layout.ConfigDBFile)
				if i := slices.IndexFunc(d.Files, func(e capture.Entry) bool { return e.Path == cfg }); i < 0 || d.Files[i].Command != want || d.Status != capture.StatusComplete {
					t.Errorf("manifest %s: %s %+v, want %s from %q", d.Name, d.Status, d.Files, cfg, want)
				}
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

// checkSONiCFiles wants a SONiC switch's files in the capture out byte for
// byte as the fabric src serves them, and no NVUE file. A config_db.json
// from the fallback is show's re-print, with bgpraw.
func checkSONiCFiles(t *testing.T, src, out, sonic string, fallback bool) {
	t.Helper()
	for _, f := range []string{layout.ConfigDBFile, layout.PlatformSummaryFile, layout.LLDPFile} {
		rel := filepath.Join(layout.DevicesDir, sonic, f)
		want, werr := os.ReadFile(filepath.Join(src, rel))
		got, err := os.ReadFile(filepath.Join(out, rel))
		switch {
		case fallback && f == layout.ConfigDBFile:
			if err != nil || !bytes.HasSuffix(got, []byte("\n    \"bgpraw\": \"\"\n}\n")) {
				t.Errorf("%s from the fallback: %v, not show runningconfiguration all's output", rel, err)
			}
		case werr != nil && f != layout.ConfigDBFile:
			if err == nil {
				t.Errorf("%s collected, but the source has none", rel)
			}
		case err != nil || len(want) == 0 || !bytes.Equal(got, want):
			t.Errorf("collected %s differs from the source (%v)", rel, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, layout.DevicesDir, sonic, layout.NVUEYAMLFile)); err == nil {
		t.Errorf("%s has an NVUE file in the capture", sonic)
	}
}

// plans are a JSON report's fix plans, as JSON.
func plans(t *testing.T, report []byte) string {
	t.Helper()
	var r struct {
		Plans json.RawMessage `json:"plans"`
	}
	if err := json.Unmarshal(report, &r); err != nil {
		t.Fatal(err)
	}
	return string(r.Plans)
}

// NVIDIA's SN5600 SKU for lossy RoCE (Mellanox-SN5600-C256S1's qos.json.j2
// and buffers_dynamic.json.j2 rendered, collectors/sonic/sonicmodel/
// testdata) is what the cumulus-lossy-multi-tc preset describes: DSCP 5 and
// 6 to TC 3 with ECN, no PFC, CNPs in TC 5. lint finds nothing wrong with
// it; under the lossless default preset it finds its DSCP map and PFC.
func TestNVIDIALossySKULints(t *testing.T) {
	data, err := os.ReadFile("../../../collectors/sonic/sonicmodel/testdata/sn5600-c256s1-t0.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		preset string
		want   []string
	}{
		{"cumulus-lossy-multi-tc", nil},
		{"cumulus-default", []string{"switch-dscp-map", "switch-pfc"}},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "devices", "leaf01"), 0o755); err != nil {
			t.Fatal(err)
		}
		inv := "fabric: lossy-sonic\npolicy:\n  preset: " + tc.preset + "\nswitches:\n  - {name: leaf01, role: leaf, os: sonic}\n"
		if err := os.WriteFile(filepath.Join(dir, "inventory.yaml"), []byte(inv), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "devices", "leaf01", "config_db.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, s := range serious(t, dir) {
			got[strings.Fields(s)[0]] = true
		}
		for _, w := range tc.want {
			if !got[w] {
				t.Errorf("%s: no %s finding in %v", tc.preset, w, got)
			}
			delete(got, w)
		}
		if len(tc.want) == 0 && len(got) > 0 {
			t.Errorf("%s: %v", tc.preset, serious(t, dir))
		}
	}
}

// NVIDIA's stock lossless SKUs (ACS-SN5600 as a leaf router; O128; the
// SN2700 and SN4600C ToR SKUs: collectors/sonic/sonicmodel/testdata,
// rendered from sonic-buildimage's templates) judged by a policy of RoCE on
// DSCP 3, which their maps send to the lossless TC 3: what lint says is
// the policy's difference with SONiC's scheme and nothing else. PFC is on
// 4 too, the CNP's TC 6 is DWRR, and a rendering has no PFC_WD rows (pfcwd
// start_default writes them when the switch loads its configuration,
// sonic-net/sonic-utilities config/main.py load_minigraph): three warnings,
// no error.
func TestNVIDIALosslessSKUsLint(t *testing.T) {
	for _, f := range []string{"sn5600-acs-t1", "sn5600-o128-t0", "sn2700-acs-t0", "sn4600c-c64-t0"} {
		data, err := os.ReadFile("../../../collectors/sonic/sonicmodel/testdata/" + f + ".json")
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "devices", "sw01"), 0o755); err != nil {
			t.Fatal(err)
		}
		inv := "fabric: stock\npolicy:\n  preset: cumulus-default\n  roce:\n    dscp: [3]\nswitches:\n  - {name: sw01, role: leaf, os: sonic}\n"
		if err := os.WriteFile(filepath.Join(dir, "inventory.yaml"), []byte(inv), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "devices", "sw01", "config_db.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := BuildReport(dir, judge.Error)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, fd := range r.Findings {
			if fd.Severity >= judge.Warning {
				got = append(got, fd.Severity.String()+" "+fd.Check)
			}
		}
		slices.Sort(got)
		if want := []string{"warning pfc-watchdog", "warning switch-cnp", "warning switch-pfc"}; !slices.Equal(got, want) || len(r.Errors) > 0 {
			t.Errorf("%s: %q, input errors %v; want %q", f, got, r.Errors, want)
		}
	}
}
