package checks

import (
	"fmt"
	"testing"
)

var _ = register(ecmpHashSeed, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean: switchd picks random seeds"},
		{name: "a unique seed per switch", edits: []edit{appendTo(spine02C, "nv set system forwarding hash-seed 50\n"),
			replace(spine01Y, "      forwarding:\n", "      forwarding:\n        hash-seed: 51\n")}},
		{name: "two switches share a seed", edits: []edit{appendTo(spine02C, "nv set system forwarding hash-seed 50\n"),
			replace(spine01Y, "      forwarding:\n", "      forwarding:\n        hash-seed: 50\n")},
			want: []string{"warning spine01", "warning spine02"}, msg: "hash-seed 50 is also the seed of spine02"},
		{name: "source and destination port unpaired (5.15)", edits: []edit{replace(spine02C, "ecmp-hash destination-port enabled", "ecmp-hash destination-port disabled")},
			want: []string{"warning spine02"}, msg: "destination-port are set unlike: Cumulus Linux then turns symmetric hashing off"},
		{name: "source and destination IP unpaired (5.14)", edits: []edit{replace(leaf01Y, "source-ip: on", "source-ip: off")},
			want: []string{"warning leaf01"}},
		{name: "both ports off stay symmetric", edits: []edit{replace(spine02C, "ecmp-hash destination-port enabled", "ecmp-hash destination-port disabled"),
			replace(spine02C, "ecmp-hash source-port enabled", "ecmp-hash source-port disabled")}},
	}
})

func TestUnpairedHashFix(t *testing.T) {
	f := fabric(t, replace(leaf01Y, "destination-ip: on", "destination-ip: off"))
	fs := ecmpHashSeed.Run(f)
	want := []Change{{Kind: NVUE, Path: []string{"system", "forwarding", "ecmp-hash", "destination-ip"}, Value: "on", Old: "off", HasOld: true}}
	if len(fs) != 1 || fmt.Sprint(fs[0].Changes) != fmt.Sprint(want) {
		t.Fatalf("findings %+v", fs)
	}
}
