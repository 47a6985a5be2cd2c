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
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/sim"
)

// A distinctive password: no output may ever contain it.
const testPassword = "Sekr1t-pw-9f3a"

// simulate serves dir and writes its inventory; it returns the inventory
// path and the running fabric.
func simulate(t *testing.T, dir string, faults map[string]sim.Fault) (string, *sim.Fabric) {
	t.Helper()
	f, err := sim.Start(dir, sim.Options{User: "cumulus", Password: testPassword, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "sim.known_hosts"), f.KnownHosts(), 0o644); err != nil {
		t.Fatal(err)
	}
	var inv bytes.Buffer
	if err := f.WriteInventory(&inv, "sim.known_hosts", SimPasswordEnv); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(tmp, "inventory.yaml")
	if err := os.WriteFile(path, inv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// The cabling plan goes beside the inventory, where audit reads it.
	if err := copyIntent(dir, tmp); err != nil {
		t.Fatal(err)
	}
	return path, f
}

func liveOpts(inv string) LiveOptions {
	return LiveOptions{
		Inventory: inv, Workers: 4, CommandTimeout: 10 * time.Second, DeviceTimeout: 60 * time.Second,
		Getenv: func(k string) string {
			if k == SimPasswordEnv {
				return testPassword
			}
			return ""
		},
	}
}

type jsonFinding struct {
	Check, Severity, Device, Interface, Message string
	Fix                                         []string
}

type jsonFindings struct {
	Findings    []jsonFinding
	InputErrors []struct{ Device, Message string } `json:"input_errors"`
}

func decode(t *testing.T, b []byte) jsonFindings {
	t.Helper()
	var j jsonFindings
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return j
}

// A live audit over SSH gives the same findings as lint on the same files,
// and collect + lint gives them again.
func TestAuditEqualsLint(t *testing.T) {
	for _, name := range []string{"broken-pod", "clean-pod", "ib-pod", "ib-broken", "mixed-pod"} {
		t.Run(name, func(t *testing.T) {
			src := "../../../examples/" + name
			var lintOut, auditOut, errOut bytes.Buffer
			lintCode := Lint(&lintOut, &errOut, src, LintOptions{Format: "json", FailOn: judge.Error})
			inv, _ := simulate(t, src, nil)
			auditCode := Audit(context.Background(), &auditOut, &errOut, AuditOptions{LiveOptions: liveOpts(inv), Format: "json", FailOn: judge.Error})
			if auditCode != lintCode {
				t.Errorf("audit exit %d, lint exit %d\n%s", auditCode, lintCode, errOut.String())
			}
			l, a := decode(t, lintOut.Bytes()), decode(t, auditOut.Bytes())
			// Packet captures are offline-only: no device prints them, so
			// audit judges the configuration and lint of DIR adds the wire.
			l.Findings = slices.DeleteFunc(l.Findings, func(f jsonFinding) bool { return strings.HasPrefix(f.Check, "wire-") })
			if len(a.InputErrors) != 0 {
				t.Errorf("audit input errors: %+v", a.InputErrors)
			}
			lj, _ := json.Marshal(l.Findings)
			aj, _ := json.Marshal(a.Findings)
			if string(lj) != string(aj) {
				t.Errorf("audit findings differ from lint:\nlint  %s\naudit %s", lj, aj)
			}

			out := filepath.Join(t.TempDir(), "capture")
			if code := Collect(context.Background(), &errOut, liveOpts(inv), out); code != ExitOK {
				t.Fatalf("collect exit %d: %s", code, errOut.String())
			}
			// Each port's RoCE status comes over SSH byte for byte, one
			// file per port that has one.
			if name == "clean-pod" {
				want, _ := filepath.Glob(filepath.Join(src, "devices/spine01/roce-status/*.txt"))
				got, _ := filepath.Glob(filepath.Join(out, "devices/*/roce-status/*.txt"))
				if len(want) != 32 || len(got) != len(want) {
					t.Errorf("roce-status: collected %d files, the source has %d", len(got), len(want))
				}
				for _, f := range want {
					w, _ := os.ReadFile(f)
					g, err := os.ReadFile(filepath.Join(out, "devices/spine01/roce-status", filepath.Base(f)))
					if err != nil || !bytes.Equal(g, w) {
						t.Errorf("collected %s differs from the source (%v)", filepath.Base(f), err)
					}
				}
			}
			// The InfiniBand files come over SSH byte for byte, beside the
			// RoCE ones on a mixed fabric.
			if name == "mixed-pod" {
				for _, f := range []string{"devices/gpu01/smpquery-sl2vl-mlx5_2-1.txt", "devices/gpu01/opensm.conf", "devices/gpu02/ibstat.txt", "devices/gpu02/mlnx_qos-ens1f0np0.txt"} {
					want, _ := os.ReadFile(filepath.Join(src, f))
					got, err := os.ReadFile(filepath.Join(out, f))
					if err != nil || len(want) == 0 || !bytes.Equal(got, want) {
						t.Errorf("collected %s differs from the source (%v)", f, err)
					}
				}
				if _, err := os.Stat(filepath.Join(out, "devices/gpu02/opensm.conf")); err == nil {
					t.Error("gpu02 has no opensm.conf, but one was collected")
				}
			}
			// The switch is read by LID from sm01 (it has opensm.conf):
			// the files of its Active ports, and no PortInfo of a port
			// without link (the simulator says Down for ports 4-65).
			if name == "ib-pod" {
				want, _ := filepath.Glob(filepath.Join(src, "devices/sm01/*lid4*.txt"))
				got, _ := filepath.Glob(filepath.Join(out, "devices/sm01/*lid4*.txt"))
				if len(want) != 12 || len(got) != len(want) {
					t.Errorf("switch files: collected %d, source %d", len(got), len(want))
				}
				// qos-policy.conf: `cat` of the path opensm.conf's
				// qos_policy_file names.
				for _, f := range append(want, filepath.Join(src, "devices/sm01/ibswitches.txt"), filepath.Join(src, "devices/sm01/qos-policy.conf")) {
					w, _ := os.ReadFile(f)
					g, err := os.ReadFile(filepath.Join(out, "devices/sm01", filepath.Base(f)))
					if err != nil || !bytes.Equal(g, w) {
						t.Errorf("collected %s differs from the source (%v)", filepath.Base(f), err)
					}
				}
				if sw, _ := filepath.Glob(filepath.Join(out, "devices/gpu0*/*lid*")); len(sw) > 0 {
					t.Errorf("a host without opensm.conf, not first, read the switch: %q", sw)
				}
			}
			var again bytes.Buffer
			Lint(&again, &errOut, out, LintOptions{Format: "json", FailOn: judge.Error})
			cj, _ := json.Marshal(decode(t, again.Bytes()).Findings)
			if string(cj) != string(lj) {
				t.Errorf("lint of the capture differs:\n%s\n%s", cj, lj)
			}
			if strings.Contains(errOut.String()+auditOut.String(), testPassword) {
				t.Error("the password leaked into the output")
			}
		})
	}
}

// A port whose status disagrees with its configuration, and one whose
// status is missing, are judged alike by a live audit and by lint of the
// same files.
func TestAuditPortStatus(t *testing.T) {
	src := filepath.Join(t.TempDir(), "pod")
	if err := os.CopyFS(src, os.DirFS("../../../examples/clean-pod")); err != nil {
		t.Fatal(err)
	}
	st := filepath.Join(src, "devices/spine01/roce-status")
	swp5, err := os.ReadFile(filepath.Join(st, "swp5.txt"))
	if err != nil {
		t.Fatal(err)
	}
	swp5 = bytes.Replace(swp5, []byte("roce  3    26    3"), []byte("roce  3    26    0"), 1)
	if err := os.WriteFile(filepath.Join(st, "swp5.txt"), swp5, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(st, "swp7.txt")); err != nil {
		t.Fatal(err)
	}
	var lintOut, auditOut, errOut bytes.Buffer
	Lint(&lintOut, &errOut, src, LintOptions{Format: "json", FailOn: judge.Error})
	inv, _ := simulate(t, src, nil)
	Audit(context.Background(), &auditOut, &errOut, AuditOptions{LiveOptions: liveOpts(inv), Format: "json", FailOn: judge.Error})
	l, a := decode(t, lintOut.Bytes()), decode(t, auditOut.Bytes())
	l.Findings = slices.DeleteFunc(l.Findings, func(f jsonFinding) bool { return strings.HasPrefix(f.Check, "wire-") })
	lj, _ := json.Marshal(l.Findings)
	aj, _ := json.Marshal(a.Findings)
	if string(lj) != string(aj) {
		t.Errorf("audit findings differ from lint:\nlint  %s\naudit %s", lj, aj)
	}
	var got []string
	for _, f := range a.Findings {
		got = append(got, f.Check+" "+f.Device+" "+f.Interface)
	}
	want := []string{"switch-dscp-map spine01 swp5", "not-collected spine01 "}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("audit findings %q lack %q", got, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("audit findings %q, want %q", got, want)
	}
}

func TestAuditIncomplete(t *testing.T) {
	inv, _ := simulate(t, "../../../examples/clean-pod", map[string]sim.Fault{
		"leaf01": {Refuse: true},
		"gpu02":  {AuthFail: true},
		"gpu03":  {Hang: "mlnx_qos"},
	})
	var out, errOut bytes.Buffer
	opt := liveOpts(inv)
	opt.CommandTimeout = 2 * time.Second
	code := Audit(context.Background(), &out, &errOut, AuditOptions{LiveOptions: opt, Format: "text", FailOn: judge.Error})
	if code != ExitIncomplete {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitIncomplete, out.String(), errOut.String())
	}
	text := out.String()
	for _, want := range []string{"leaf01: not audited", "gpu02: not audited", "gpu03: not audited", "INCOMPLETE"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "no findings: gpu01, gpu04, leaf02, spine01, spine02") {
		t.Errorf("the rest of the fabric must still be audited:\n%s", text)
	}
	// Unreachable devices are not an input to fix: the hint is the network.
	const verdict = "INCOMPLETE: 3 devices not audited (gpu02, gpu03, leaf01): check the network, credentials and host keys named above and run again\n"
	if !strings.HasSuffix(text, verdict) || strings.Contains(text, "fix the input") {
		t.Errorf("verdict, want %q:\n%s", verdict, text)
	}
	if strings.Contains(text+errOut.String(), testPassword) {
		t.Error("the password leaked")
	}
	// collect names each failed device once: the collector's cause already
	// starts with the device ("leaf01: leaf01: ..." said it twice).
	errOut.Reset()
	if code := Collect(context.Background(), &errOut, opt, filepath.Join(t.TempDir(), "capture")); code != ExitIncomplete {
		t.Fatalf("collect: exit %d\n%s", code, errOut.String())
	}
	for _, dev := range []string{"leaf01", "gpu02", "gpu03"} {
		if !strings.Contains(errOut.String(), "qoslint: "+dev+": ") || strings.Contains(errOut.String(), dev+": "+dev+":") {
			t.Errorf("collect names %s not exactly once:\n%s", dev, errOut.String())
		}
	}
}

func TestAuditBadInventory(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Audit(context.Background(), &out, &errOut, AuditOptions{LiveOptions: liveOpts("testdata/nope.yaml"), Format: "text"})
	if code != ExitInput {
		t.Errorf("exit %d", code)
	}
}

func TestDemo(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Demo(context.Background(), &out, &errOut, DemoOptions{Fabric: "broken-pod", Format: "text"})
	if code != ExitFindings || !strings.Contains(out.String(), "fabric pod-b: 9 devices, 63 findings") || !strings.Contains(out.String(), "gnmi-counters.json") {
		t.Errorf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
}

// The InfiniBand example runs as a demo too: its smpquery tables and
// opensm.conf come over SSH from the simulator.
func TestDemoIB(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Demo(context.Background(), &out, &errOut, DemoOptions{Fabric: "ib-broken", Format: "text"})
	if code != ExitFindings || !strings.Contains(out.String(), "fabric ib-broken: 3 devices, 10 findings") {
		t.Errorf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
}
