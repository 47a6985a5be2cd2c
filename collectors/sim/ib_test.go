package sim

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

const ibPod = "../../examples/ib-pod"

// TestIBCommands runs the InfiniBand commands on every ib-pod host and
// wants each file byte for byte: ibstat, smpquery of every port file, and
// opensm.conf where the host has one (coreutils' message elsewhere).
func TestIBCommands(t *testing.T) {
	f := startSim(t, ibPod, Options{})
	for _, d := range f.Devices() {
		c := dial(t, f, d.Name)
		devDir := filepath.Join(ibPod, "devices", d.Name)
		exps := []expect{{cmd: devcmd.IBStat, stdout: readFile(t, filepath.Join(devDir, layout.IBStatFile))}}
		files, _ := filepath.Glob(filepath.Join(devDir, "smpquery-*-mlx5_*.txt"))
		if len(files) != 3 {
			t.Fatalf("%s: %d smpquery files, want 3", d.Name, len(files))
		}
		for _, op := range []string{"sl2vl", "vlarb", "portinfo"} {
			cmd, err := devcmd.SMPQuery(op, "mlx5_0", 1)
			if err != nil {
				t.Fatal(err)
			}
			want := readFile(t, filepath.Join(devDir, layout.SMPQueryFile(op, "mlx5_0", 1)))
			exps = append(exps, expect{cmd: cmd, stdout: want}, expect{cmd: devcmd.SudoPrefix + cmd, stdout: want})
		}
		if b, err := os.ReadFile(filepath.Join(devDir, layout.OpenSMConfFile)); err == nil {
			exps = append(exps, expect{cmd: devcmd.CatOpenSMConf, stdout: string(b)})
		} else {
			exps = append(exps, expect{cmd: devcmd.CatOpenSMConf, stderr: "cat: /etc/opensm/opensm.conf: No such file or directory", code: 1})
		}
		policy, err := devcmd.CatQoSPolicy(layout.QoSPolicyPath)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(devDir, layout.QoSPolicyFile)); err == nil {
			exps = append(exps, expect{cmd: policy, stdout: string(b)})
		} else {
			exps = append(exps, expect{cmd: policy, stderr: "cat: /etc/opensm/qos-policy.conf: No such file or directory", code: 1})
		}
		// A port the host lacks: smpquery's own failure, on stdout.
		absent, _ := devcmd.SMPQuery("sl2vl", "mlx5_7", 1)
		exps = append(exps, expect{cmd: absent, stdout: "smpquery: iberror: failed: Failed to open 'mlx5_7' port '1'\n", code: 255})
		for _, e := range exps {
			r := run(t, c, e.cmd, testTimeout)
			if r.err != nil || r.stdout != e.stdout || r.code != e.code || e.stderr == "" && r.stderr != "" || !strings.Contains(r.stderr, e.stderr) {
				t.Errorf("%s %q: stdout %q stderr %q status %d (%v), want %q %q %d", d.Name, e.cmd, r.stdout, r.stderr, r.code, r.err, e.stdout, e.stderr, e.code)
			}
		}
	}
}

// TestIBRefused: the simulated host answers no smpquery form but
// SMPQuery's, and has no tool that changes the subnet: as for any command
// it does not know, bash says it is not found.
func TestIBRefused(t *testing.T) {
	f := startSim(t, ibPod, Options{})
	c := dial(t, f, "sm01")
	for _, cmd := range []string{
		"smpquery -C mlx5_0 -P 1 -D nodeinfo 0", "smpquery -C mlx5_0 -P 1 sl2vl 1", "smpquery -C mlx5_0 -P 1 -D sl2vl 0 1",
		"ibportstate -C mlx5_0 -P 1 -D 0 1 disable", "opensm -B", "kill -HUP 1", "smpquery -C ../x -P 1 -D sl2vl 0",
	} {
		if devcmd.Check(cmd) == nil {
			t.Fatalf("%q is on the allowlist", cmd)
		}
		r := run(t, c, cmd, testTimeout)
		w := strings.Fields(cmd)[0]
		if r.code != exitNotFound || r.stdout != "" || r.stderr != "bash: line 1: "+w+": command not found\n" {
			t.Errorf("%q: stdout %q stderr %q status %d", cmd, r.stdout, r.stderr, r.code)
		}
	}
	seen := f.Seen("sm01")
	if !slices.Contains(seen, "opensm -B") {
		t.Errorf("Seen = %q", seen)
	}
}

// The inventory of a simulated InfiniBand fabric keeps its fabric type
// and policy.ib, so an audit judges what lint judges.
func TestWriteInventoryIB(t *testing.T) {
	f := startSim(t, ibPod, Options{User: "admin"})
	var b bytes.Buffer
	if err := f.WriteInventory(&b, "known_hosts", ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fabric_type: infiniband\n", "  ib: {sl: 1, vl: 1}\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("inventory lacks %q:\n%s", want, b.String())
		}
	}
	inv, err := inventory.Parse("inventory.yaml", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !inv.HasIB() || inv.Policy.IB.SL != 1 || !inv.Policy.IB.HasVL || inv.Policy.IB.HasAdaptiveRouting {
		t.Errorf("%+v", inv.Policy.IB)
	}
}

// TestIBSwitchCommands: sm01 answers ibswitches and the by-LID smpquery
// forms from its files; a port of a listed switch without a PortInfo file
// has no link, anything else fails as smpquery does. A host without
// ibswitches.txt lists no switch.
func TestIBSwitchCommands(t *testing.T) {
	f := startSim(t, ibPod, Options{})
	c := dial(t, f, "sm01")
	dir := filepath.Join(ibPod, "devices", "sm01")
	exps := []expect{{cmd: devcmd.IBSwitches, stdout: readFile(t, filepath.Join(dir, layout.IBSwitchesFile))}}
	for _, op := range []string{"sl2vl", "vlarb", "portinfo"} {
		cmd, _ := devcmd.SMPQueryLID(op, 4, 1)
		exps = append(exps, expect{cmd: cmd, stdout: readFile(t, filepath.Join(dir, layout.SwitchSMPQueryFile(op, 4, 1)))})
	}
	down, _ := devcmd.SMPQueryLID("portinfo", 4, 40)
	exps = append(exps, expect{cmd: down, stdout: "# Port info: Lid 4 port 40\nLinkState:.......................Down\nPhysLinkState:...................Polling\n"})
	beyond, _ := devcmd.SMPQueryLID("portinfo", 4, 66)
	exps = append(exps, expect{cmd: beyond, stdout: "smpquery: iberror: failed: operation portinfo: port info query failed\n", code: 255})
	other, _ := devcmd.SMPQueryLID("sl2vl", 9, 1)
	exps = append(exps, expect{cmd: other, stdout: "smpquery: iberror: failed: operation sl2vl: slvl query failed\n", code: 255})
	for _, e := range exps {
		r := run(t, c, e.cmd, testTimeout)
		if r.err != nil || r.stdout != e.stdout || r.code != e.code || r.stderr != "" {
			t.Errorf("%q: stdout %q stderr %q status %d (%v), want %q %d", e.cmd, r.stdout, r.stderr, r.code, r.err, e.stdout, e.code)
		}
	}
	if r := run(t, dial(t, f, "gpu01"), devcmd.IBSwitches, testTimeout); r.stdout != "" || r.code != 0 {
		t.Errorf("gpu01 ibswitches: %q %d", r.stdout, r.code)
	}
}
