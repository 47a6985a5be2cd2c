package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var ecmpHashSeed = &Check{
	ID:       "ecmp-hash-seed",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Warning,
	Title:    "No two switches share a hash seed, and the ECMP hash stays symmetric",
	Doc: `"You can configure a unique hash seed for each switch to prevent hash polarization, a type
of network congestion that occurs when multiple data flows try to reach a switch using the same
switch ports" (CumulusNetworks/docs content/cumulus-linux-519/Layer-3/Routing/Equal-Cost-
Multipath-Load-Sharing.md, Unique Hash Seed): switches that set the same nv set system forwarding
hash-seed pick the same next hop for the same flow tier after tier, so a few uplinks carry the
RoCE flows. Each of them is a warning. A switch without hash-seed gets a random one from switchd,
so the fix unsets it (a unique explicit seed per switch does as well); configuring the seed
restarts switchd and resets every port, so plan the change.

"Cumulus Linux enables symmetric hashing by default. Make sure that the settings for the source
IP and destination IP fields match, and that the settings for the source port and destination
port fields match; otherwise Cumulus Linux disables symmetric hashing automatically" (the same
page, ECMP Hashing): an ecmp-hash pair set unlike is a warning that symmetric hashing is off, so
the two directions of a flow take different paths. NVUE has no setting for symmetric hashing
itself (traffic.conf symmetric_hash_enable), so a switch that turned it off there cannot be seen.`,
	Inputs: []Input{NVConfig},
	Run:    runECMPHashSeed,
}

func runECMPHashSeed(f *model.Fabric) []Finding {
	return append(sharedSeeds(f), unpairedHash(f)...)
}

func sharedSeeds(f *model.Fabric) []Finding {
	bySeed := map[int64][]*model.Switch{}
	for _, sw := range f.ConfiguredSwitches() {
		if s := sw.Forwarding.HashSeed; s.Known {
			bySeed[s.V] = append(bySeed[s.V], sw)
		}
	}
	var out []Finding
	for seed, sws := range bySeed {
		for _, sw := range sws {
			var others []string
			for _, o := range sws {
				if o != sw {
					others = append(others, o.Name)
				}
			}
			sort.Strings(others)
			if judge.HashSeed(others).OK {
				continue
			}
			v := sw.Forwarding.HashSeed
			out = append(out, Finding{
				Severity: judge.Warning, Device: sw.Name,
				Message: fmt.Sprintf("hash-seed %d is also the seed of %s: switches with one seed polarize ECMP, "+
					"sending the same flows to the same uplinks tier after tier", seed, strings.Join(others, ", ")),
				Expected: "a hash-seed no other switch has (or none: switchd picks a random one)",
				Actual:   fmt.Sprintf("hash-seed %d%s", seed, originNote(v.Origin)),
				Source:   at(v.Origin, sw.ConfigFile),
				Changes:  []Change{nvUnset(fmt.Sprint(seed), "system", "forwarding", "hash-seed")},
			})
		}
	}
	return out
}

func unpairedHash(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		for _, pair := range judge.ECMPHashPairs {
			a, b := sw.ECMP[pair[0]], sw.ECMP[pair[1]]
			if judge.ECMPHashPair(a.V, b.V).OK {
				continue
			}
			off, other := pair[0], pair[1]
			if !b.V {
				off, other = pair[1], pair[0]
			}
			v := sw.ECMP[off]
			o, had := old(v)
			if had {
				o = sw.Syntax.OnOff(false)
			}
			out = append(out, Finding{
				Severity: judge.Warning, Device: sw.Name,
				Message: fmt.Sprintf("ecmp-hash %s and %s are set unlike: Cumulus Linux then turns symmetric hashing off, "+
					"and the two directions of a flow take different paths", pair[0], pair[1]),
				Expected: fmt.Sprintf("ecmp-hash %s %s, like %s", off, sw.Syntax.OnOff(true), other),
				Actual:   fmt.Sprintf("ecmp-hash %s %s%s", off, sw.Syntax.OnOff(false), originNote(v.Origin)),
				Source:   at(v.Origin, sw.ConfigFile),
				Changes:  []Change{nvSet(o, had, sw.Syntax.OnOff(true), "system", "forwarding", "ecmp-hash", off)},
			})
		}
	}
	return out
}
