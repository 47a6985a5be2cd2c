package offline

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/internal/layout"
)

func TestCollectEthtool(t *testing.T) {
	fsys := fstest.MapFS{
		"devices/leaf01/nv-config-commands.txt": {Data: []byte("nv set qos roce mode lossless\n")},
		"devices/leaf02/nv-config-commands.txt": {Data: []byte("nv set qos roce mode lossless\n")},
		"devices/leaf03/nv-config-commands.txt": {Data: []byte("nv set qos roce mode lossless\n")},
		"devices/gpu01/mlnx_qos-ens2f0np0.txt":  {Data: []byte(mlnxQos)},
		"devices/gpu01/mlnx_qos-ens2f1np1.txt":  {Data: []byte(mlnxQos)},
		"devices/gpu01/ethtool-S-ens2f0np0.txt": {Data: []byte("NIC statistics:\n     tx_prio3_bytes: 4096\n     rx_prio3_pause: 2\n")},
		"devices/gpu02/mlnx_qos-ens1f0np0.txt":  {Data: []byte(mlnxQos)},
		"devices/gpu02/ethtool-S-ens1f0np0.txt": {Data: []byte("NIC statistics:\n     tx_prio3_bytes: lots\n")},
	}
	c := CollectFS(fsys, inv(t))
	var errs []string
	for _, e := range c.Errors {
		errs = append(errs, e.Error())
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "gpu02: devices/gpu02/ethtool-S-ens1f0np0.txt:2: ") {
		t.Fatalf("errors = %q", errs)
	}
	g1 := c.Hosts[0]
	if e := g1.NICs[0].Ethtool; e == nil || e.File != "devices/gpu01/ethtool-S-ens2f0np0.txt" || e.Prio(3).TxBytes.Value != 4096 || e.Prio(3).RxPause.Line != 3 {
		t.Errorf("gpu01 ens2f0np0 ethtool = %+v", e)
	}
	// Not collected: nil, no error, and not in Missing (configuration-only
	// directories keep their snapshots).
	if g1.NICs[1].Ethtool != nil || slices.ContainsFunc(g1.Missing, func(m string) bool { return strings.HasPrefix(m, "ethtool") }) {
		t.Errorf("ens2f1np1: %+v, missing %v", g1.NICs[1].Ethtool, g1.Missing)
	}
	if len(g1.NICs) != 2 {
		t.Errorf("ethtool files must not add NICs: %+v", g1.NICs)
	}
	if c.Hosts[1].NICs[0].Ethtool != nil {
		t.Error("an unreadable capture must not be used")
	}
	if layout.EthtoolFile("ens1f0np0") != "ethtool-S-ens1f0np0.txt" {
		t.Error(layout.EthtoolFile("ens1f0np0"))
	}
}
