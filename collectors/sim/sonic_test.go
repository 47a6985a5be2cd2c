package sim

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// sonicMixed is clean-pod plus sonic01, a SONiC switch whose config_db.json
// is a published one (testdata/sonic-mixed/SOURCE.md).
const sonicMixed = "testdata/sonic-mixed"

// TestSONiCCommands: over real SSH, a SONiC switch prints its files for
// the SONiC reads, answers `nv` as a box without NVUE does, and a Cumulus
// switch of the same fabric knows no SONiC command.
func TestSONiCCommands(t *testing.T) {
	dir := fixture.Dir(t, sonicMixed)
	f := startSim(t, dir, Options{})
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, layout.DevicesDir, "sonic01", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	sonic, leaf := dial(t, f, "sonic01"), dial(t, f, "leaf01")
	for _, tc := range []struct {
		cmd, stdout, stderr string
		code                int
	}{
		{devcmd.SONiCConfigDB, read(layout.ConfigDBFile), "", 0},
		{devcmd.SudoPrefix + devcmd.SONiCConfigDB, read(layout.ConfigDBFile), "", 0},
		{devcmd.SONiCPlatformSummary, read(layout.PlatformSummaryFile), "", 0},
		// No lldp.json: docker's answer for a missing container.
		{devcmd.SONiCLLDPNeighbors, "", "Error response from daemon: No such container: lldp\n", 1},
		{devcmd.NVConfigYAML, "", "bash: line 1: nv: command not found\n", 127},
		{devcmd.NVShowQosRoce, "", "bash: line 1: nv: command not found\n", 127},
		{devcmd.IBDev2Netdev, "", "bash: line 1: ibdev2netdev: command not found\n", 127},
	} {
		r := run(t, sonic, tc.cmd, 5*time.Second)
		if r.err != nil || r.stdout != tc.stdout || r.stderr != tc.stderr || r.code != tc.code {
			t.Errorf("sonic01 %q: stdout %d bytes (want %d), stderr %q (want %q), code %d (want %d), err %v",
				tc.cmd, len(r.stdout), len(tc.stdout), r.stderr, tc.stderr, r.code, tc.code, r.err)
		}
	}
	// show runningconfiguration all: the same tables, and bgpraw.
	r := run(t, sonic, devcmd.SONiCRunningConfig, 5*time.Second)
	var got, served map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("show runningconfiguration all: %v, exit %d", err, r.code)
	}
	if err := json.Unmarshal([]byte(read(layout.ConfigDBFile)), &served); err != nil {
		t.Fatal(err)
	}
	served["bgpraw"] = ""
	if !reflect.DeepEqual(got, served) || !strings.HasSuffix(r.stdout, "\n    \"bgpraw\": \"\"\n}\n") {
		t.Errorf("show runningconfiguration all is not config_db.json with bgpraw last")
	}
	for _, cmd := range []string{devcmd.SONiCConfigDB, devcmd.SONiCRunningConfig, devcmd.SONiCPlatformSummary} {
		w := strings.Fields(cmd)[0]
		if r := run(t, leaf, cmd, 5*time.Second); r.code != 127 || r.stderr != "bash: line 1: "+w+": command not found\n" {
			t.Errorf("leaf01 %q: stderr %q code %d, want bash's command not found", cmd, r.stderr, r.code)
		}
	}
	// The interactive prompt is SONiC's, without Cumulus's VRF segment.
	_, typeIn, scr := shellSession(t, sonic)
	scr.waitFor(t, DefaultUser+"@sonic01:~$ ", 5*time.Second)
	typeIn("nv show qos roce\n")
	scr.waitFor(t, "-bash: nv: command not found\r\n"+DefaultUser+"@sonic01:~$ ", 5*time.Second)
}

// TestSONiCLLDPAndFail: lldp.json, when the folder has one, is what
// lldpcli prints in the container and through the host's wrapper; Fault.Fail
// turns one command into a failure and leaves the others alone.
func TestSONiCLLDPAndFail(t *testing.T) {
	dir := fixture.Dir(t, sonicMixed)
	lldp, err := os.ReadFile(filepath.Join(dir, layout.DevicesDir, "leaf01", layout.LLDPFile))
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"devices/sonic01/" + layout.LLDPFile: string(lldp)})
	f := startSim(t, dir, Options{Faults: map[string]Fault{"sonic01": {Fail: "sonic-cfggen"}}})
	c := dial(t, f, "sonic01")
	for _, cmd := range []string{devcmd.SONiCLLDPNeighbors, devcmd.LLDPNeighbors} {
		if r := run(t, c, cmd, 5*time.Second); r.err != nil || r.code != 0 || r.stdout != string(lldp) {
			t.Errorf("%q: %d bytes, code %d, %v; want lldp.json", cmd, len(r.stdout), r.code, r.err)
		}
	}
	r := run(t, c, devcmd.SONiCConfigDB, 5*time.Second)
	if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "Error: simulated failure of `sonic-cfggen -d --print-data`") {
		t.Errorf("failed sonic-cfggen: stdout %q stderr %q code %d", r.stdout, r.stderr, r.code)
	}
	if r := run(t, c, devcmd.SONiCRunningConfig, 5*time.Second); r.code != 0 || !strings.HasPrefix(r.stdout, "{\n") {
		t.Errorf("show runningconfiguration all failed with sonic-cfggen: %q code %d", r.stderr, r.code)
	}
}

// TestSONiCOS: the os a switch runs, from the inventory or, without one,
// from its folder, and the inventory the simulator writes says sonic for
// it, so that a live collection sends the SONiC commands.
func TestSONiCOS(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a/config_db.json": "{}\n", "b/config_db.json": "{}\n", "b/nv-config.yaml": "- set: {}\n", "c/nv-config.yaml": "- set: {}\n",
	})
	for _, tc := range []struct {
		declared, folder, want string
	}{
		{"", "a", inventory.OSSONiC}, {"", "b", inventory.OSCumulus}, {"", "c", inventory.OSCumulus}, {"", "none", inventory.OSCumulus},
		{inventory.OSSONiC, "c", inventory.OSSONiC}, {inventory.OSCumulus, "a", inventory.OSCumulus},
	} {
		if got := switchOS(inventory.Switch{OS: tc.declared}, filepath.Join(dir, tc.folder)); got != tc.want {
			t.Errorf("os %q, folder %s: %q, want %q", tc.declared, tc.folder, got, tc.want)
		}
	}

	src := fixture.Dir(t, sonicMixed)
	// Without os in the inventory, the folder decides.
	hcl := filepath.Join(src, "inventory.hcl")
	b, err := os.ReadFile(hcl)
	if err != nil {
		t.Fatal(err)
	}
	noOS := bytes.Replace(b, []byte(`  os      = "sonic"`+"\n"), nil, 1)
	if bytes.Equal(noOS, b) {
		t.Fatal("the fixture's inventory names no os for sonic01")
	}
	if err := os.WriteFile(hcl, noOS, 0o644); err != nil {
		t.Fatal(err)
	}
	f := startSim(t, src, Options{})
	var out bytes.Buffer
	if err := f.WriteInventory(&out, "known_hosts", ""); err != nil {
		t.Fatal(err)
	}
	inv, err := inventory.Parse("inventory.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, s := range inv.Switches {
		want := ""
		if s.Name == "sonic01" {
			want = inventory.OSSONiC
		}
		if s.OS != want {
			t.Errorf("%s: os %q in the written inventory, want %q", s.Name, s.OS, want)
		}
	}
}

// TestRunningConfig: `show runningconfiguration all` prints what CPython's
// json.dumps(obj, indent=4) prints for config_db.json plus "bgpraw" last.
// testdata/pydumps-out.json is CPython 3.11's output for
// testdata/pydumps-in.json (json.load, obj["bgpraw"] = "", print(json.dumps(obj,
// indent=4))): escapes, empty and nested containers, integers and floats.
// A file that does not load gets show's message and click's Abort.
func TestRunningConfig(t *testing.T) {
	in, err := os.ReadFile("testdata/pydumps-in.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/pydumps-out.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"devices/s1/config_db.json": string(in), "devices/s2/config_db.json": "Warning: x\n{}\n",
		"devices/s3/config_db.json": "{}"})
	for _, tc := range []struct {
		dev, want string
		code      uint32
	}{
		{"s1", string(want), 0},
		{"s2", "Failed to load output '['sonic-cfggen', '-d', '--print-data']':invalid character 'W' looking for beginning of value\nE>Aborted!\n", 1},
		{"s3", "{\n    \"bgpraw\": \"\"\n}\n", 0},
		{"s4", "E>Error: no config_db.json in the simulated s4\n", 1},
	} {
		d := testDevice(dir, tc.dev, layout.KindSwitch)
		d.os = inventory.OSSONiC
		if r := d.run(devcmd.SONiCRunningConfig, true); flat(r) != tc.want || r.code != tc.code {
			t.Errorf("%s: %q (exit %d), want %q (exit %d)", tc.dev, flat(r), r.code, tc.want, tc.code)
		}
	}
}
