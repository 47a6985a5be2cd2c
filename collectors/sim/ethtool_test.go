package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
)

// TestSyntheticEthtool: the synthetic output is what the offline reader
// parses, deterministic, different per NIC, with RoCE traffic and pause on
// priority 3 only.
func TestSyntheticEthtool(t *testing.T) {
	out := syntheticEthtool("gpu01", "ens1f0np0")
	if out != syntheticEthtool("gpu01", "ens1f0np0") || out == syntheticEthtool("gpu01", "ens1f1np1") {
		t.Error("not a deterministic function of device and NIC")
	}
	if !strings.HasPrefix(out, "NIC statistics:\n     rx_packets: ") {
		t.Errorf("not ethtool's layout:\n%s", out)
	}
	st, err := hostfiles.ParseEthtool("ethtool-S-ens1f0np0.txt", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for p := range 8 {
		ps := st.Prio(p)
		busy := ps.RxBytes.Value > 0 || ps.TxPackets.Value > 0
		if busy != (p == ethtoolPrio) || ps.RxPause.Present() != (p == ethtoolPrio) {
			t.Errorf("priority %d: %+v", p, ps)
		}
	}
}

// TestEthtoolFromFile: a device's ethtool-S-<netdev>.txt is served byte for
// byte, with and without sudo; a name devcmd refuses never reaches the
// file system.
func TestEthtoolFromFile(t *testing.T) {
	dir := t.TempDir()
	want := "NIC statistics:\n     rx_prio3_bytes: 42\n"
	if err := os.WriteFile(filepath.Join(dir, "ethtool-S-ens1f0np0.txt"), []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &device{name: "gpu01", kind: layout.KindHost, dir: dir}
	for _, cmd := range []string{devcmd.EthtoolSPrefix + "ens1f0np0", devcmd.SudoPrefix + devcmd.EthtoolSPrefix + "ens1f0np0"} {
		if r := d.run(cmd, true); r.code != exitOK || len(r.out) != 1 || r.out[0].text != want {
			t.Errorf("%q: %+v", cmd, r)
		}
	}
	if r := d.run(devcmd.EthtoolSPrefix+"ens1f1np1", true); r.code != exitOK || r.out[0].text != syntheticEthtool("gpu01", "ens1f1np1") {
		t.Errorf("no file: %+v", r)
	}
	if r := d.run(devcmd.EthtoolSPrefix+"../x", true); r.code == exitOK {
		t.Errorf("unsafe name answered: %+v", r)
	}
}
