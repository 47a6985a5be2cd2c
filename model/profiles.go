package model

import (
	"fmt"
	"slices"

	"github.com/qoslint/qoslint/internal/source"
)

// Profile semantics. Public source, CumulusNetworks/docs
// content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md
// (QoS518; the 5.12-5.15 pages say the same), "Port Groups":
//
//	"Configurations with a profile override the global settings for the
//	 ingress ports in the port group. Ports not in a profile use the global
//	 settings."
//
// So a port bound to a named profile gets that profile's feature REPLACING
// default-global's (and the RoCE mode's values, which live in default-global:
// the change-RoCE recipes of the RoCE pages change RoCE by editing
// default-global), and default-global's explicit settings only override the
// mode's individual values. The values a named profile leaves out are below,
// each with its source or marked as assumed.

// DefaultMTUWhy is the origin of a port MTU no setting gives.
const DefaultMTUWhy = "Cumulus default MTU 9216"

// Outside RoCE (QoS518): trust l2 is the shipped qos_features.conf
// (`traffic.packet_priority_source_set = [802.1p]`), the DSCP table is the
// "If DSCP (l3) is trusted" table (DSCP>>3), "By default switch priority
// values map directly to the matching egress queue", "The default profile
// (default-global) enables ECN by default on egress queue 0 for all ports
// with ... 150000 bytes ... 1500000 bytes", "the bandwidth allocated to egress
// queues 0,2,4,6 is 12 percent and ... 1,3,5,7 is 13 percent". PFC is off
// until a profile lists a switch priority.
const defNoRoCE = "Cumulus default, RoCE off"

func noRoCEProfile() ModeProfile {
	p := ModeProfile{Mode: "off", Trust: "l2", ECN: []int{0}, ECNMin: 150000, ECNMax: 1500000, ECNProb: 100,
		Why: map[string]string{}}
	for _, f := range []string{"trust", "dscp", "pfc", "tc", "ecn", "ecn-threshold", "sched"} {
		p.Why[f] = defNoRoCE
	}
	for d := range p.DSCP {
		p.DSCP[d] = DefaultPriority(d)
	}
	for i := range p.TC {
		p.TC[i] = i
		p.Sched[i], p.SchedBW[i] = "dwrr", 12+i%2
	}
	return p
}

// pcpWhy: "When 802.1p (l2) is trusted, Cumulus Linux classifies these
// ingress 802.1p values to switch priority values" (PCP n to switch priority
// n), and "If you configure the trust to be l2 but do not specify any PCP to
// switch priority mappings, Cumulus Linux uses the default values" (QoS518,
// Trust 802.1p Marking). Every `nv show qos roce` example prints the same
// identity in its pcp column, whatever the mode (RoCE514/515/518), so no
// RoCE mode is taken to change it.
const pcpWhy = "default 802.1p map: PCP n → switch-priority n"

// ModeQoS is NVUE's default-global as a RoCE mode (or RoCE off) leaves it.
func ModeQoS(r RoCE, release string) *QoS {
	p := noRoCEProfile()
	if r.Enabled.V {
		if mp, ok := ModeTable(r.Mode.V, release); ok {
			p = mp
		}
	}
	q := &QoS{}
	// Each text once, shared by every row it explains: built per row,
	// they were a twentieth of TestLintScale's model.
	why := map[string]string{}
	for _, f := range []string{"trust", "dscp", "pfc", "tc", "ecn", "ecn-threshold", "sched"} {
		why[f] = p.why(f)
	}
	q.Trust = Defaulted(p.Trust, why["trust"])
	for d := range 64 {
		q.DSCP.Set(d, Defaulted(p.DSCP[d], why["dscp"]))
	}
	for pcp := range q.PCP {
		q.PCP[pcp] = Defaulted(pcp, pcpWhy)
	}
	for sp := range q.PFC {
		q.PFC[sp] = Defaulted(slices.Contains(p.PFC, sp), why["pfc"])
	}
	// "rx enable|disable ... The default value is enable", "tx ... The
	// default value is enable" (QoS518, "All PFC commands").
	q.PFCRx = Defaulted(true, "PFC rx default enable")
	q.PFCTx = Defaulted(true, "PFC tx default enable")
	for sp := range q.TC {
		q.TC[sp] = Defaulted(p.TC[sp], why["tc"])
	}
	for tc := 0; tc < 8; tc++ {
		q.ECN[tc] = Defaulted(slices.Contains(p.ECN, tc), why["ecn"])
		q.ECNMin[tc] = Defaulted(p.ECNMin, why["ecn-threshold"])
		q.ECNMax[tc] = Defaulted(p.ECNMax, why["ecn-threshold"])
		setECNModeDefaults(q, tc)
		q.Sched[tc] = Defaulted(p.Sched[tc], why["sched"])
		q.SchedBW[tc] = Defaulted(p.SchedBW[tc], why["sched"])
	}
	return q
}

// setECNModeDefaults: "Set the dynamic ECN mode to relative ... The default
// value is absolute", minimum percent "The default value is 0", maximum
// percent "The default value is 100" (QoS518, "Dynamic ECN").
func setECNModeDefaults(q *QoS, tc int) {
	q.ECNMode[tc] = Defaulted("absolute", "ECN mode default absolute")
	q.ECNMinPct[tc] = Defaulted(0, "ECN min-threshold-percent default 0")
	q.ECNMaxPct[tc] = Defaulted(100, "ECN max-threshold-percent default 100")
}

// ResetMapping gives q what an NVUE mapping profile (name, bound at pos)
// leaves out, in place of default-global's. "If you configure the trust to
// be l3 but do not specify any DSCP to switch priority mappings, Cumulus
// Linux uses the default values" (QoS518, Trust DSCP): the unlisted DSCPs of
// a profile follow the guide's default table, whatever the RoCE mode (that a
// lossy-multi-tc switch does not use its mode's table for them is inferred).
// The trust of a profile without `trust` is not documented: assumed the
// Cumulus default l2.
func ResetMapping(q *QoS, name string, pos source.Pos) {
	q.Trust = BoundAt(pos, "l2", fmt.Sprintf("mapping profile %s sets no trust: not documented, assumed the Cumulus default l2", name))
	why := fmt.Sprintf("mapping profile %s does not list it: the default DSCP table", name)
	for d := range 64 {
		q.DSCP.Set(d, BoundAt(pos, DefaultPriority(d), why))
	}
	why = fmt.Sprintf("mapping profile %s does not list it: the default 802.1p map", name)
	for pcp := range q.PCP {
		q.PCP[pcp] = BoundAt(pos, pcp, why)
	}
}

// ResetPFC gives q what an NVUE pfc profile (name, bound at pos) leaves out,
// in place of default-global's. "Cumulus Linux automatically enables PFC
// frame transmit and PFC frame receive" for a PFC profile (QoS518, Port
// Groups, PFC). A profile without `switch-priority` is not documented:
// assumed to pause none.
func ResetPFC(q *QoS, name string, pos source.Pos) {
	for sp := range q.PFC {
		q.PFC[sp] = BoundAt(pos, false, fmt.Sprintf("pfc profile %s lists no switch-priority: not documented, assumed none", name))
	}
	auto := fmt.Sprintf("pfc profile %s: tx and rx enabled automatically", name)
	q.PFCRx, q.PFCTx = BoundAt(pos, true, auto), BoundAt(pos, true, auto)
	q.CableLength = BoundAt(pos, PFCDefaultCableLength, fmt.Sprintf("pfc profile %s sets no cable-length: the PFC default %d m", name, PFCDefaultCableLength))
	q.CableFrom = name
}

// ResetECN gives q what an NVUE congestion-control profile (name, bound at
// pos) leaves out, in place of default-global's. A congestion-control
// profile marks on the traffic classes it lists and no other (the guide's
// `my-red-profile`, `traffic-class 1,2`, is
// `my-red-profile.egress_queue_list = [1,2]`). A listed class marks unless
// `ecn disable` (that example sets no `ecn` yet shows `ecn_enable = true`).
// Thresholds a profile leaves out are not documented for profiles: assumed
// default-global's documented 150000 / 1500000 bytes.
func ResetECN(q *QoS, name string, pos source.Pos) {
	for tc := range q.ECN {
		q.ECN[tc] = BoundAt(pos, false, fmt.Sprintf("not in congestion-control profile %s, which replaces default-global", name))
		th := fmt.Sprintf("congestion-control profile %s sets no threshold: not documented, assumed 150000/1500000", name)
		q.ECNMin[tc], q.ECNMax[tc] = BoundAt(pos, 150000, th), BoundAt(pos, 1500000, th)
		setECNModeDefaults(q, tc)
	}
}

// ResetSched gives q what an NVUE egress-scheduler profile (name, bound at
// pos) leaves out, in place of default-global's. "list2 only assigns weights
// to queues 2, 5, and 6, and schedules the other queues on a best-effort
// basis" and "If you do not specify a value for an egress queue, Cumulus
// Linux uses a DWRR value of 0 (no egress scheduling)" (QoS518, Egress
// Scheduling / Egress Scheduler).
func ResetSched(q *QoS, name string, pos source.Pos) {
	why := fmt.Sprintf("not in egress-scheduler profile %s: best effort, DWRR 0", name)
	for tc := range q.Sched {
		q.Sched[tc], q.SchedBW[tc] = BoundAt(pos, "dwrr", why), BoundAt(pos, 0, why)
	}
}

// BoundAt is a value a profile gives by leaving it out: its origin is the
// port's binding of the profile (pos), so that a finding points at the line
// that made the port use it, and the text says what the omission means.
func BoundAt[T any](pos source.Pos, v T, why string) Value[T] {
	return Value[T]{V: v, Origin: NewOrigin(pos, why), Known: true}
}
