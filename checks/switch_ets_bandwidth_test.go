package checks

import "testing"

// The added class is the QoS guide's own example (CumulusNetworks/docs
// content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/
// _index.md, Egress Scheduling: `nv set qos egress-scheduler default-global
// traffic-class 2,6 mode dwrr` / `bw-percent 30`), on top of qos roce's
// DWRR 50% for classes 0 and 3.
var _ = register(switchETSBandwidth, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean: qos roce gives 0 and 3 50% each"},
		{name: "a class added beside the qos roce shares", edits: []edit{appendTo(spine02C,
			"nv set qos egress-scheduler default-global traffic-class 2 mode dwrr\nnv set qos egress-scheduler default-global traffic-class 2 bw-percent 30\n")},
			want: []string{"warning spine02 swp1-32"}, msg: "egress-scheduler profile default-global add up to 130%"},
		{name: "the shares rebalanced to 100%", edits: []edit{appendTo(spine02C,
			"nv set qos egress-scheduler default-global traffic-class 2 mode dwrr\nnv set qos egress-scheduler default-global traffic-class 2 bw-percent 30\n"+
				"nv set qos egress-scheduler default-global traffic-class 0 bw-percent 20\n")}},
		{name: "a profile bound to some ports", edits: []edit{appendTo(spine02C,
			"nv set qos egress-scheduler list2 traffic-class 2,3 mode dwrr\nnv set qos egress-scheduler list2 traffic-class 2,3 bw-percent 60\n"+
				"nv set interface swp5-8 qos egress-scheduler profile list2\n")},
			want: []string{"warning spine02 swp5-8"}, msg: "egress-scheduler profile list2 add up to 120%"},
		{name: "strict classes have no share", edits: []edit{appendTo(spine02C,
			"nv set qos egress-scheduler default-global traffic-class 2,5 mode strict\n")}},
	}
})
