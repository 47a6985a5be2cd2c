package nvuemodel

import (
	"strings"
	"testing"
)

// TestPCPMap: the 802.1p map of the QoS guide's Trust 802.1p Marking
// section (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
// Quality-of-Service/_index.md): PCP n → switch priority n by default,
// `nv set qos mapping default-global pcp 2,3,4 switch-priority 0`, and a
// bound profile that lists some PCPs gets the default map for the others.
func TestPCPMap(t *testing.T) {
	cfg := "nv set qos roce mode lossless\nnv set qos roce state enabled\nnv set interface swp1-8 type swp\n" +
		"nv set qos mapping default-global trust l2\n" +
		"nv set qos mapping default-global pcp 2,3,4 switch-priority 0\n" +
		"nv set qos mapping edge pcp 0 switch-priority 4\n" +
		"nv set interface swp5-8 qos mapping profile edge\n"
	sw, probs := cmdSwitch(t, cfg)
	if probs != "" {
		t.Fatal(probs)
	}
	g, edge := sw.PortQoS.At("swp1"), sw.PortQoS.At("swp5")
	want := [8]int{0, 1, 0, 0, 0, 5, 6, 7}
	for pcp, w := range want {
		if g.PCP[pcp].V != w {
			t.Errorf("default-global PCP %d → %d, want %d", pcp, g.PCP[pcp].V, w)
		}
	}
	if o := g.PCP[3].Origin; o.IsDefault() || o.Pos().Line != 5 {
		t.Errorf("PCP 3 origin %+v, want line 5", o)
	}
	if o := g.PCP[6].Origin; !strings.Contains(o.Default(), "default 802.1p map") {
		t.Errorf("PCP 6 origin %+v", o)
	}
	if edge.PCP[0].V != 4 || edge.PCP[3].V != 3 || !strings.Contains(edge.PCP[3].Origin.Default(), "mapping profile edge does not list it") {
		t.Errorf("edge PCP 0 → %d, 3 → %d (%+v)", edge.PCP[0].V, edge.PCP[3].V, edge.PCP[3].Origin)
	}
}
