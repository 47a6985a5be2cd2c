package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/model"
)

var switchBondQoS = &Check{
	ID:       "switch-bond-qos",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "QoS profiles are bound on bonds, never on their members",
	Doc: `A bond's members use the bond's QoS: the host-facing ports of MLAG and EVPN multihoming
are bonds, and qoslint checks the bond (bond1), never its members. NVIDIA's QoS guide says "NVUE
rejects QoS configurations on bond member interfaces and shows an error when you try to apply
the configurations; you must apply all QoS configuration on logical bond interfaces"
(CumulusNetworks/docs content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/
_index.md). A configuration with a profile bound on a member therefore cannot be applied, and
whatever the member was meant to get is not what it gets: this is an error. The fix unsets the
binding on the members and, when the bond has no binding of its own for that feature and all
its members agreed on one profile, binds that profile on the bond.`,
	Inputs: []Input{NVConfig},
	Run:    runSwitchBondQoS,
}

func runSwitchBondQoS(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		type key struct{ bond, feature, profile, file string }
		var keys []key
		groups := map[key][]model.MemberBinding{}
		profiles := map[[2]string]map[string]bool{} // bond, feature → profiles bound on its members
		for _, mb := range sw.MemberQoS {
			k := key{mb.Bond, mb.Feature, mb.Profile.V, mb.Profile.Origin.Pos().File}
			if _, ok := groups[k]; !ok {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], mb)
			bf := [2]string{mb.Bond, mb.Feature}
			if profiles[bf] == nil {
				profiles[bf] = map[string]bool{}
			}
			profiles[bf][mb.Profile.V] = true
		}
		for _, k := range keys {
			g := groups[k]
			var members []string
			for _, mb := range g {
				members = append(members, mb.Member)
			}
			ifaces := model.CompressNames(members)
			changes := []Change{nvUnset(k.profile, "interface", ifaces, "qos", k.feature, "profile")}
			if bound, ok := bondBinding(sw, k.bond, k.feature); ok && bound.Origin.IsDefault() && len(profiles[[2]string{k.bond, k.feature}]) == 1 {
				changes = append(changes, nvSet("", false, k.profile, "interface", k.bond, "qos", k.feature, "profile"))
			}
			out = append(out, Finding{
				Severity: judge.Error, Device: sw.Name, Interface: ifaces,
				Message: fmt.Sprintf("qos %s profile %s is bound on %s, %s of %s: NVUE rejects QoS on bond members "+
					"(the configuration does not apply); bind it on %s", k.feature, k.profile, ifaces,
					english.Plural(len(members), "a member", "members"), k.bond, k.bond),
				Expected: fmt.Sprintf("qos %s profile on %s only", k.feature, k.bond),
				Actual:   fmt.Sprintf("qos %s profile %s on %s", k.feature, k.profile, ifaces),
				Source:   g[0].Profile.Origin.Pos(),
				Changes:  changes,
			})
		}
	}
	return out
}

// bondBinding is the bond's own binding of a feature, when the bond is
// checked.
func bondBinding(sw *model.Switch, bond, feature string) (model.Value[string], bool) {
	q := sw.PortQoS.At(bond)
	if q == nil {
		return model.Value[string]{}, false
	}
	switch feature {
	case "mapping":
		return q.MappingProfile, true
	case "pfc":
		return q.PFCProfile, true
	case "congestion-control":
		return q.ECNProfile, true
	}
	return q.SchedProfile, true
}
