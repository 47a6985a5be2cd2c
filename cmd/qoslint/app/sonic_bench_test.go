package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
)

// sonicSwitch is examples/sonic-pod's leaf01 with 32 ports, as many as
// clean-pod's Cumulus leaf01 checks (swp1-32): Ethernet0's rows of every
// table copied to Ethernet4 ... Ethernet116, beside its two uplinks
// Ethernet248 and Ethernet252, so that the two OSes are
// compared per switch of the same size.
func sonicSwitch(tb testing.TB) []byte {
	tb.Helper()
	data, err := os.ReadFile("../../../examples/sonic-pod/devices/leaf01/config_db.json")
	if err != nil {
		tb.Fatal(err)
	}
	var db map[string]map[string]map[string]any
	if err := json.Unmarshal(data, &db); err != nil {
		tb.Fatal(err)
	}
	for _, t := range db {
		for key, row := range t {
			rest, ok := strings.CutPrefix(key, "Ethernet0")
			if ok && (rest == "" || rest[0] == '|') {
				for p := 4; p < 120; p += 4 {
					t[fmt.Sprintf("Ethernet%d%s", p, rest)] = row
				}
			}
			if v, ok := row["Ethernet0"]; ok {
				for p := 4; p < 120; p += 4 {
					row[fmt.Sprintf("Ethernet%d", p)] = v
				}
			}
		}
	}
	for p := 0; p < 120; p += 4 {
		port := db["PORT"][fmt.Sprintf("Ethernet%d", p)]
		cp := map[string]any{}
		for k, v := range port {
			cp[k] = v
		}
		cp["alias"] = fmt.Sprintf("etp%d%c", p/8+1, "ab"[p%8/4])
		db["PORT"][fmt.Sprintf("Ethernet%d", p)] = cp
	}
	out, err := json.MarshalIndent(db, "", "    ")
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// switchFabric writes n switches of one OS, each with its configuration
// only, and returns the directory.
func switchFabric(tb testing.TB, osName string, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	var inv strings.Builder
	inv.WriteString("fabric: bench\npolicy:\n  mtu: {host: 4200, switch: 9100}\nswitches:\n")
	var files map[string][]byte
	switch osName {
	case "sonic":
		files = map[string][]byte{"config_db.json": sonicSwitch(tb)}
	default:
		data, err := os.ReadFile("../../../examples/clean-pod/devices/leaf01/nv-config.yaml")
		if err != nil {
			tb.Fatal(err)
		}
		files = map[string][]byte{"nv-config.yaml": data}
	}
	for i := range n {
		name := fmt.Sprintf("leaf%04d", i)
		fmt.Fprintf(&inv, "  - {name: %s, role: leaf, address: 192.0.2.%d, os: %s}\n", name, i%250+1, osName)
		for f, data := range files {
			p := filepath.Join(dir, "devices", name, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "inventory.yaml"), []byte(inv.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// BenchmarkLintSwitches lints fabrics of 250 and 1,000 switches of 32 ports,
// all Cumulus or all SONiC: the per-switch cost (ns/switch) of each OS, and
// whether it stays flat as the fabric grows.
func BenchmarkLintSwitches(b *testing.B) {
	for _, osName := range []string{"cumulus", "sonic"} {
		for _, n := range []int{250, 1000} {
			b.Run(fmt.Sprintf("%s/%d", osName, n), func(b *testing.B) {
				dir := switchFabric(b, osName, n)
				b.ResetTimer()
				start := time.Now()
				for range b.N {
					r, err := BuildReport(dir, judge.Error)
					if err != nil || len(r.Errors) != 0 || len(r.Devices) != n {
						b.Fatalf("err %v, %d input errors, %d devices", err, len(r.Errors), len(r.Devices))
					}
				}
				b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*n), "ns/switch")
			})
		}
	}
}

// The benchmark's SONiC switch is a clean one of 32 checked ports: only
// the not-collected LLDP note, and a DSCP map defect is reported on all 32.
func TestSONiCBenchSwitch(t *testing.T) {
	r, err := BuildReport(switchFabric(t, "sonic", 2), judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		if f.Severity >= judge.Warning {
			t.Errorf("finding %+v", f)
		}
	}
	dir := switchFabric(t, "sonic", 1)
	file := filepath.Join(dir, "devices", "leaf0000", "config_db.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(data), `"26": "3"`, `"26": "1"`, 1)
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = BuildReport(dir, judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		if f.Check == "switch-dscp-map" && strings.Count(f.Interface, "Ethernet") == 32 {
			return
		}
	}
	t.Errorf("no switch-dscp-map finding on 32 ports: %+v", r.Findings)
}
