package checks

import (
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
)

var _ = register(wireECN, func(testing.TB) []checkCase {
	ce := with(good, func(p *pcaptest.Packet) { p.ECN = 3 })
	return []checkCase{
		{name: "clean", edits: []edit{capture(good, good)}},
		{name: "Not-ECT data", edits: []edit{capture(good, with(good, func(p *pcaptest.Packet) { p.ECN = 0 }))},
			want: []string{"warning gpu01"}, msg: "198.51.100.11 sent 1 of 2 RoCEv2 data packets (50.0%) Not-ECT"},
		{name: "CE answered by a CNP", edits: []edit{capture(ce, ce, good, goodCNP)},
			want: []string{"info gpu01"}, msg: "198.51.100.11 → 198.51.100.12: 2 of 3 RoCEv2 data packets (66.7%) arrived CE-marked; 1 CNPs went back, 2.0 CE-marked packets per CNP"},
		{name: "CE without a CNP", edits: []edit{capture(ce)},
			want: []string{"info gpu01"}, msg: "no CNP went back in this capture"},
	}
})
