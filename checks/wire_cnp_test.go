package checks

import (
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
)

var _ = register(wireCNP, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean", edits: []edit{capture(good, goodCNP)}},
		{name: "untagged CNP with the CNP DSCP", edits: []edit{capture(with(goodCNP, func(p *pcaptest.Packet) { p.VLANs = nil }))}},
		{name: "CNP DSCP 0 corroborates host-cnp", edits: []edit{
			capture(good, with(goodCNP, func(p *pcaptest.Packet) { p.DSCP = 0 })),
			write(dev("gpu02", "sysfs/class/net/ens1f0np0/ecn/roce_np/cnp_dscp"), "0\n")},
			want: []string{"error gpu02"}, msg: "198.51.100.12 sent 1 CNPs: 1 with a DSCP other than 48, 0 tagged with a priority other than 6; first at packet 2"},
		{name: "CNP PCP 0", edits: []edit{capture(with(goodCNP, func(p *pcaptest.Packet) { p.VLANs = []uint8{0} }))},
			want: []string{"error gpu02"}, msg: "0 with a DSCP other than 48, 1 tagged with a priority other than 6"},
	}
})
