// Package judge is the verdict kernel: the RoCE rules over policy.Policy
// and model values, written once. The checks build their findings from
// its verdicts, and the marking chain (render), the drift (checks/drift)
// and the trace (checks/trace) call the same functions, so a value the
// chain draws broken, the drift says breaks the policy or the trace stops
// at is one a check reports. It imports only the model and the vocabulary.
package judge

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/nvnum"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// Judgement is one rule's verdict on one value. The checks build their
// findings from it, and the marking chain (render) and the drift rules
// (checks/drift) call the same functions, so the RoCE rules are written
// once: a value the chain draws broken or the drift says breaks the policy
// is one a check reports.
type Judgement struct {
	OK bool
	// Severity is the severity of the finding the check makes when !OK.
	Severity Severity
	// Reason is the finding's message when !OK, "" when OK.
	Reason string
}

// Pass is the verdict on a value the rule accepts.
var Pass = Judgement{OK: true}

// Fail is the verdict on a value the rule rejects, its reason formatted.
func Fail(sev Severity, format string, a ...any) Judgement {
	return Judgement{Severity: sev, Reason: fmt.Sprintf(format, a...)}
}

// Breaks reports whether the judgement makes a finding that counts (error
// or warning): what the drift calls breaking the policy.
func (j Judgement) Breaks() bool { return !j.OK && j.Severity >= Warning }

// RoCEMode is switch-roce-mode on `qos roce`: on, in the policy's mode
// (lossless-single-ipool accepted for lossless).
func RoCEMode(p policy.Policy, enabled bool, mode string) Judgement {
	want := p.RoCE.Mode
	switch {
	case !enabled:
		return Fail(Error, "RoCE QoS is off: the switch trusts 802.1p only and has no PFC, RoCE is best effort")
	case modeAccepted(want, mode):
		return Pass
	}
	sev, msg := modeMismatch(want, mode)
	return Fail(sev, "%s", msg)
}

// SwitchTrusts are the trust modes a switch port may have under the
// policy's trust.
func SwitchTrusts(p policy.Policy) (map[string]bool, string) {
	if p.Trust == "pcp" {
		return map[string]bool{"l2": true, "both": true}, "l2 or both"
	}
	return map[string]bool{"l3": true, "both": true}, "l3 or both"
}

// markField is the header field the hosts mark RoCE in.
func markField(p policy.Policy) string {
	if p.Trust == "pcp" {
		return "PCP"
	}
	return "DSCP"
}

// SwitchTrust is switch-trust on a port group's trust mode.
func SwitchTrust(p policy.Policy, trust string) Judgement {
	if want, _ := SwitchTrusts(p); want[trust] {
		return Pass
	}
	return Fail(Error, "ports trust %s, but the hosts mark RoCE in %s: RoCE lands in the wrong priority", trust, markField(p))
}

// SwitchDSCP is switch-dscp-map on one entry of a port group's DSCP
// map: a RoCE DSCP must land in the RoCE switch priority; other DSCPs are
// not its concern.
func SwitchDSCP(p policy.Policy, dscp, sp int) Judgement {
	if !slices.Contains(p.RoCE.DSCP, dscp) || sp == p.RoCE.Priority {
		return Pass
	}
	return Fail(Error, "DSCP %d maps to switch-priority %d, not the RoCE priority %d", dscp, sp, p.RoCE.Priority)
}

// SwitchCNPDSCP is switch-cnp on the switch priority of the CNP DSCP.
func SwitchCNPDSCP(p policy.Policy, sp int) Judgement {
	c := p.CNP
	if sp == c.Priority {
		return Pass
	}
	return Fail(Error, "CNP DSCP %d maps to switch-priority %d, not the CNP priority %d", c.DSCP, sp, c.Priority)
}

// PFCRequired: PFC is judged only when the policy designs the fabric
// lossless.
func PFCRequired(p policy.Policy) bool { return p.RoCE.Lossless() }

// WantedPFC is the PFC a NIC should have, given the priorities on it has:
// the RoCE priority alone under a lossless policy (judgePFC warns of any
// other); under a lossy one the RoCE priority off and the others left as
// they are, since a lossy RoCE policy says nothing of other traffic.
func WantedPFC(p policy.Policy, on []int) []int {
	if PFCRequired(p) {
		return []int{p.RoCE.Priority}
	}
	return Without(on, p.RoCE.Priority)
}

// SwitchPFC is switch-pfc on a port group's PFC priorities: on the
// RoCE priority (error), and on no other (warning).
func SwitchPFC(p policy.Policy, on []int) Judgement {
	return judgePFC(p, on, "switch-priority",
		"PFC is on switch-priority %s instead of %d: RoCE is dropped while other traffic is paused",
		"PFC is not on switch-priority %d: RoCE is dropped under congestion")
}

// judgePFC is PFC on the priorities on of a switch port group or a NIC
// (unit names their priorities): on the RoCE priority (error: moved, or
// missing), and on no other (warning).
func judgePFC(p policy.Policy, on []int, unit, moved, missingMsg string) Judgement {
	want := p.RoCE.Priority
	if !PFCRequired(p) {
		return Pass
	}
	missing := !slices.Contains(on, want)
	switch {
	case missing && len(on) > 0:
		return Fail(Error, moved, PrioList(slices.Clone(on)), want)
	case missing:
		return Fail(Error, missingMsg, want)
	case len(on) > 1:
		return Fail(Warning, "PFC is also on "+unit+" %s, which carries no lossless traffic", PrioList(Without(on, want)))
	}
	return Pass
}

// SwitchPFCDirection is switch-pfc on a port group's PFC rx or tx.
func SwitchPFCDirection(p policy.Policy, dir string, enabled bool) Judgement {
	if enabled || !PFCRequired(p) {
		return Pass
	}
	does := "sends no pause frames"
	if dir == "rx" {
		does = "ignores the pause frames it receives"
	}
	return Fail(Error, "PFC %s is disabled: the switch %s", dir, does)
}

// SwitchQueue is switch-queue-map on switch priority sp in traffic
// class tc: the RoCE priority in the RoCE class (error), no other priority
// in it (warning; the CNP priority there is switch-cnp's error too, see
// SwitchCNPQueue). defaulted says the class is NVUE's default: a
// priority left in class 0 by default is not counted when the RoCE class is
// 0.
func SwitchQueue(p policy.Policy, sp, tc int, defaulted bool) Judgement {
	rtc := p.RoCE.TrafficClass
	switch {
	case sp == p.RoCE.Priority && tc != rtc:
		return Fail(Error, "switch-priority %d egresses through traffic-class %d, not the RoCE traffic-class %d", sp, tc, rtc)
	case sp == p.RoCE.Priority || tc != rtc || defaulted && rtc == 0:
		return Pass
	}
	return Fail(Warning, "switch-priority %d shares the RoCE traffic-class %d", sp, rtc)
}

// SwitchCNPQueue is switch-cnp on the traffic class of the CNP switch
// priority.
func SwitchCNPQueue(p policy.Policy, tc int) Judgement {
	rtc := p.RoCE.TrafficClass
	if tc != rtc {
		return Pass
	}
	return Fail(Error, "CNP switch-priority %d egresses through the RoCE traffic-class %d: CNPs wait behind the congestion they report", p.CNP.Priority, rtc)
}

// SwitchCNPScheduler is switch-cnp on the scheduler of the CNP traffic
// class tc: strict, except under lossy-multi-tc, whose profile schedules
// every class DWRR ("DWRR-4%" ... "DWRR-0%", no strict-priority row in the
// `nv show qos roce` example of CumulusNetworks/docs
// content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/
// RDMA-over-Converged-Ethernet-RoCE.md).
func SwitchCNPScheduler(p policy.Policy, tc int, sched string) Judgement {
	if sched == "strict" || p.RoCE.Mode == "lossy-multi-tc" {
		return Pass
	}
	return Fail(Warning, "CNP traffic-class %d is scheduled %s, not strict: CNPs queue behind bulk traffic", tc, sched)
}

// SwitchECN is switch-ecn on ECN marking of the RoCE traffic class.
func SwitchECN(p policy.Policy, enabled bool) Judgement {
	if enabled {
		return Pass
	}
	return Fail(Error, "ECN is off on traffic-class %d: DCQCN gets no congestion marks, only PFC brakes RoCE", p.RoCE.TrafficClass)
}

// SwitchECNThresholds is switch-ecn on the byte thresholds of the RoCE
// traffic class (ECN on, not in dynamic mode).
func SwitchECNThresholds(p policy.Policy, min, max int) Judgement {
	if min < max {
		return Pass
	}
	return Fail(Warning, "ECN min-threshold %d B is not below max-threshold %d B on traffic-class %d", min, max, p.RoCE.TrafficClass)
}

// ECMPHashFields are the ecmp-hash fields the switches must hash on:
// source-port always, then the policy's, each once.
func ECMPHashFields(p policy.Policy) []string {
	var out []string
	for _, f := range append([]string{"source-port"}, p.ECMP.HashFields...) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// ECMPHash is ecmp-hash on one field of the switch's hash.
func ECMPHash(p policy.Policy, field string, on bool) Judgement {
	switch {
	case on || !slices.Contains(ECMPHashFields(p), field):
		return Pass
	case field == "source-port":
		return Fail(Error, "ECMP does not hash on the UDP source port, the only per-QP entropy of RoCEv2: every QP between two GPUs takes one path")
	}
	return Fail(Warning, "ECMP does not hash on %s, which the policy lists", field)
}

// SONiCDefaultMTU is the MTU SONiC gives a port whose PORT entry sets none
// (sonic-net/sonic-swss cfgmgr/portmgr.h DEFAULT_MTU_STR "9100"), as the
// presets' switch MTU is Cumulus Linux's ("ifupdown2 assigns 9216").
const SONiCDefaultMTU = 9100

// MinSwitchMTU is the smallest MTU a port of a switch of os may have: the
// policy's mtu.switch where the inventory writes it, else the preset's
// default, which is the switch OS's own default MTU (SONiC's 9100 in place
// of Cumulus's 9216).
func MinSwitchMTU(p policy.Policy, os string) int {
	if _, set := p.Pos["mtu.switch"]; !set && os == layout.OSSONiC && p.MTU.Switch > SONiCDefaultMTU {
		return SONiCDefaultMTU
	}
	return p.MTU.Switch
}

// OSSwitchMTU is mtu on a port of a switch of os ("" for Cumulus Linux).
func OSSwitchMTU(p policy.Policy, os string, mtu int) Judgement {
	want := MinSwitchMTU(p, os)
	if mtu >= want {
		return Pass
	}
	if want != p.MTU.Switch {
		return Fail(Error, "MTU %d is below SONiC's default %d, the policy's switch MTU for a SONiC switch: full-size RoCE frames are dropped", mtu, want)
	}
	return Fail(Error, "MTU %d is below the policy's %d: full-size RoCE frames are dropped", mtu, want)
}

// ETSBandwidth is switch-ets-bandwidth on the sum of a port group's
// DWRR bw-percent shares: "The combined total of values you assign to
// bw_percent must be less than or equal to 100" (CumulusNetworks/docs
// content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/
// _index.md, Egress Scheduling). The guide does not say what the switch does
// above it, hence a warning.
func ETSBandwidth(profile string, total int) Judgement {
	if total <= 100 {
		return Pass
	}
	return Fail(Warning, "the DWRR bandwidth shares of egress-scheduler profile %s add up to %d%%, above the 100%% NVIDIA's guide allows: "+
		"the shares written are not what the traffic classes get, and the guide does not say what the switch does instead; qoslint prints no command: lower the shares to a total of 100%%",
		profile, total)
}

// HostTrust is host-trust on a NIC's trust state.
func HostTrust(p policy.Policy, trust string) Judgement {
	if trust == p.Trust {
		return Pass
	}
	return Fail(Error, "the NIC trusts %s: RoCE from and to this NIC uses priority 0 unless tagged", trust)
}

// HostDSCPJudged: host-dscp-map judges a NIC's dscp2prio only under a DSCP
// policy and for a NIC that trusts DSCP (host-trust reports the others).
func HostDSCPJudged(p policy.Policy, trust string) bool {
	return p.Trust == "dscp" && trust == "dscp"
}

// HostDSCP is host-dscp-map on one dscp2prio entry of a NIC that
// trusts DSCP; known is false when the table lacks the DSCP.
func HostDSCP(p policy.Policy, dscp, prio int, known bool) Judgement {
	switch {
	case !slices.Contains(p.RoCE.DSCP, dscp) || known && prio == p.RoCE.Priority:
		return Pass
	case !known:
		return Fail(Error, "DSCP %d is not in the NIC's dscp2prio table", dscp)
	}
	return Fail(Error, "DSCP %d maps to NIC priority %d, not the RoCE priority %d", dscp, prio, p.RoCE.Priority)
}

// HostPFC is host-pfc on a NIC's PFC priorities.
func HostPFC(p policy.Policy, on []int) Judgement {
	if !PFCRequired(p) && slices.Contains(on, p.RoCE.Priority) {
		// Cumulus Linux's RoCE defaults: "Enable PFC on switch priority 3
		// (RoCE)" is NO in lossy mode (CumulusNetworks/docs content/
		// cumulus-linux-515/.../RDMA-over-Converged-Ethernet-RoCE.md,
		// "Default RoCE Configuration"), and lossy-multi-tc prints
		// "pfc-priority -": no switch pauses RoCE, nor honours the NIC's
		// pause. NetQ's RoCE test 0 checks mode and flow control alike on
		// switch and host. The NIC's lossless buffer for RoCE guards
		// nothing, while its pause frames spend the link for no one.
		return Fail(Warning, "PFC is on priority %d, the RoCE priority, but the policy's RoCE mode %s is lossy: the switches neither send pause frames for it nor honour the NIC's",
			p.RoCE.Priority, p.RoCE.Mode)
	}
	return judgePFC(p, on, "priority",
		"PFC is on priority %s instead of %d",
		"PFC is not on priority %d: the NIC neither honours nor sends pause for RoCE")
}

// HostDCQCN is host-ecn on a NIC's DCQCN notification ("np") or
// reaction ("rp") point for priority prio.
func HostDCQCN(p policy.Policy, point string, prio int, on bool) Judgement {
	if on || prio != p.RoCE.Priority {
		return Pass
	}
	if point == "np" {
		return Fail(Error, "DCQCN notification point is off for priority %d: the NIC sends no CNP for congestion-marked RoCE it receives", prio)
	}
	return Fail(Error, "DCQCN reaction point is off for priority %d: the NIC ignores CNPs and never slows its QPs", prio)
}

// HostCNPDSCP is host-cnp on the DSCP a NIC marks its CNPs with.
func HostCNPDSCP(p policy.Policy, dscp int) Judgement {
	if dscp == p.CNP.DSCP {
		return Pass
	}
	return Fail(Error, "CNPs leave with DSCP %d, not the CNP DSCP %d", dscp, p.CNP.DSCP)
}

// HostCNPPrio is host-cnp on the 802.1p priority of a NIC's CNPs.
func HostCNPPrio(p policy.Policy, prio int) Judgement {
	if prio == p.CNP.Priority {
		return Pass
	}
	return Fail(Error, "CNPs leave with 802.1p priority %d, not the CNP 802.1p priority %d", prio, p.CNP.Priority)
}

// ToS is host-tos on the effective ToS of a NIC's RoCE QPs: the DSCP
// on the wire (ToS >> 2) must be a RoCE DSCP. knob names what set it.
func ToS(p policy.Policy, tos int, knob string) Judgement {
	if slices.Contains(p.RoCE.DSCP, model.DSCPOfToS(tos)) {
		return Pass
	}
	return Fail(Error, "%s", tosMistake(tos, p.RoCE.DSCP, knob))
}

// HostMTU is mtu on a host RoCE netdev.
func HostMTU(p policy.Policy, mtu int) Judgement {
	if mtu >= p.MTU.Host {
		return Pass
	}
	return Fail(Error, "MTU %d is below the policy's %d: RoCE's path MTU drops to %d bytes", mtu, p.MTU.Host, model.RoCEPathMTU(mtu))
}

// LinkMTUEnd is one end of a cable as link-mtu sees it: its MTU, and
// whether it is a switch port (else a host's RoCE NIC).
type LinkMTUEnd struct {
	MTU    int
	Switch bool
}

// LinkMTU is link-mtu on the two ends of a cable, judged by what
// crosses it. RoCE does not fragment, but it never sends more than its path
// MTU (at most 4096 bytes of payload) plus the headers the kernel budgets
// (model.RoCEPacketMax), whatever the netdev MTU. So an end smaller than the
// other drops RoCE only below that bound: an error. Above it, it drops only
// the hosts' other full-size frames: a warning where a host's MTU is above
// the smaller end, and where no host MTU is known; info where no host sends
// anything that large (a 9000/9216 pair between switches when the hosts are
// at 9000 or less). Between two switch ports what crosses is every host's
// (sent: the fabric's HostFrames); between a host and its switch port, that
// host's own (the port's egress carries the host's peers' packets, but RDMA
// CM picks the smaller path MTU of the two ends). A host below its switch
// port only sends smaller frames. low is the end to raise when the
// judgement fails. The policy's minimums are the mtu check's: an end below
// them is its finding, so this rule does not read them.
func LinkMTU(a, b LinkMTUEnd, sent model.HostFrames) (j Judgement, low int) {
	switch {
	case a.Switch && b.Switch && a.MTU != b.MTU:
		if b.MTU < a.MTU {
			low = 1
		}
		return judgeSmallerEnd(fmt.Sprintf("the switch ports' MTUs differ (%d and %d)", a.MTU, b.MTU),
			min(a.MTU, b.MTU), max(a.MTU, b.MTU), sent), low
	case !a.Switch && b.Switch && b.MTU < a.MTU:
		return judgeSmallerEnd(fmt.Sprintf("switch port MTU %d is below the host's %d", b.MTU, a.MTU),
			b.MTU, a.MTU, hostSends(a.MTU)), 1
	case !b.Switch && a.Switch && a.MTU < b.MTU:
		return judgeSmallerEnd(fmt.Sprintf("switch port MTU %d is below the host's %d", a.MTU, b.MTU),
			a.MTU, b.MTU, hostSends(b.MTU)), 0
	}
	return Pass, 0
}

func hostSends(mtu int) model.HostFrames {
	var hf model.HostFrames
	hf.Add(mtu)
	return hf
}

// judgeSmallerEnd weighs the smaller end of a link against what is sent
// across it. Without a known host, RoCE's packets are bounded by the
// largest path MTU (4096) and the hosts' other frames by the larger end.
func judgeSmallerEnd(what string, small, large int, sent model.HostFrames) Judgement {
	roce, host := sent.RoCE, sent.Host
	if !sent.Known {
		roce, host = model.RoCEPacketMax(large), large
	}
	switch {
	case small < roce:
		return Fail(Error, "%s: RoCE packets of up to %d bytes (path MTU %d plus %d bytes of headers) are dropped by the smaller end",
			what, roce, roce-model.RoCEHeaderBytes, model.RoCEHeaderBytes)
	case small < host:
		return Fail(Warning, "%s: RoCE's packets (at most %d bytes) fit both ends, but the hosts' other frames above %d bytes (up to their MTU %d) are dropped by the smaller end",
			what, roce, small, host)
	}
	return Fail(Info, "%s: nothing the hosts send is that large (RoCE packets at most %d bytes, host MTU at most %d), so RoCE is not affected; equal MTUs on both ends are best practice (NetQ's link MTU consistency test)",
		what, roce, host)
}

// SwitchETSMinShare is the least DWRR share switch-ets wants for the RoCE
// traffic class on a switch of os ("" for Cumulus Linux); 0 when it judges
// none. The presets' 50% is qos roce's "WRR 50%", which two cases do not
// have, so there only a roce.min_bandwidth the inventory writes is judged:
// lossy-multi-tc's documented profile gives the RoCE class 22% ("DWRR-22%",
// CumulusNetworks/docs content/cumulus-linux-515/.../
// RDMA-over-Converged-Ethernet-RoCE.md), and SONiC has no RoCE scheduling
// default at all (its stock schedulers give the lossless queues 3 and 4
// DWRR 15 beside the others' 14, sonic-net/sonic-buildimage
// files/build_templates/qos_config.j2).
func SwitchETSMinShare(p policy.Policy, os string) int {
	if _, set := p.Pos["roce.min_bandwidth"]; !set && (p.RoCE.Mode == "lossy-multi-tc" || os == layout.OSSONiC) {
		return 0
	}
	return p.RoCE.MinBandwidth
}

// SwitchETSRoCE is switch-ets on the RoCE traffic class's scheduler
// and DWRR share in an egress-scheduler profile.
func SwitchETSRoCE(p policy.Policy, os, profile, sched string, bw int) Judgement {
	tc, min := p.RoCE.TrafficClass, SwitchETSMinShare(p, os)
	switch {
	case sched != "dwrr":
		return Fail(Warning, "the RoCE traffic class %d is scheduled %s in egress-scheduler profile %s: "+
			"it is served before every DWRR class and can starve them, where qos roce gives it DWRR 50%%", tc, sched, profile)
	case bw < min:
		return Fail(Warning, "the RoCE traffic class %d gets %d%% in egress-scheduler profile %s, below the policy's %d%%: "+
			"under contention RoCE gets less than its share; raising it may need another class's share lowered to keep the total at 100%%",
			tc, bw, profile, min)
	}
	return Pass
}

// SwitchETSStrict is switch-ets on a traffic class other than the
// RoCE one (SwitchETSRoCE judges that): strict is fine for the CNP
// priority's class cnpTC and for a class no switch priority maps to (sps
// empty), which carries nothing.
func SwitchETSStrict(profile string, tc, cnpTC int, sched string, sps []int) Judgement {
	if sched != "strict" || tc == cnpTC || len(sps) == 0 {
		return Pass
	}
	list := make([]string, len(sps))
	for i, sp := range sps {
		list[i] = strconv.Itoa(sp)
	}
	return Fail(Warning, "traffic-class %d (switch-priority %s) is strict in egress-scheduler profile %s: "+
		"it is served before the RoCE class and can starve it; only the CNP class %d should be strict. "+
		"qoslint prints no command: give the class a DWRR share of your choice",
		tc, strings.Join(list, ","), profile, cnpTC)
}

// HostSL is host-tos on NCCL_IB_SL under a PCP policy: the NIC tags
// RoCE with PCP = SL & 7 (`MLX5_SET(ads, path, eth_prio, sl & 0x7)`, mlx5
// qp.c), which a switch trusting l2 and the peer NIC trusting pcp classify
// by; under a DSCP policy the tag does not place RoCE and is not judged.
func HostSL(p policy.Policy, sl int) Judgement {
	return AppSL(p, sl, fmt.Sprintf("NCCL_IB_SL=%d", sl))
}

// AppSL is host-tos on the SL an application (named by knob) gives
// its RoCE QPs: the NIC tags them with PCP = SL & 7.
func AppSL(p policy.Policy, sl int, knob string) Judgement {
	if p.Trust != "pcp" || sl&7 == p.RoCE.Priority {
		return Pass
	}
	return Fail(Error, "%s tags RoCE with PCP %d (SL & 7), not the RoCE priority %d: under a PCP policy RoCE lands in priority %d on every hop that trusts PCP",
		knob, sl&7, p.RoCE.Priority, sl&7)
}

// HostETS is host-ets on the scheduling of the NIC traffic class tc
// the RoCE priority maps to: tsa as mlnx_qos prints it, bw its ETS share.
func HostETS(p policy.Policy, tc int, tsa string, bw int) Judgement {
	want := p.RoCE.HostTSA
	var reason string
	switch {
	case tsa == want && (tsa != "ets" || bw > 0):
		return Pass
	case tsa == "vendor" && want == "ets":
		// mlx5's default. mlx5e_build_tc_group (Linux drivers/net/
		// ethernet/mellanox/mlx5/core/en_dcbnl.c) puts every vendor class
		// in MLX5E_VENDOR_TC_GROUP_NUM (7, the highest-priority group;
		// strict groups count up from 1, ETS is group 0) and
		// mlx5e_build_tc_tx_bw gives each MLX5E_MAX_BW_ALLOC (100): the
		// vendor classes share the link equally and are served before
		// the ETS ones. RoCE gets its share, which is what an ETS share
		// promises, and NVIDIA's own host recipe (the NIC Configuration
		// Operator's roceOptimized) leaves ETS at this default.
		return Pass
	case tsa == "ets" && want == "ets":
		reason = "is ETS with a 0% share: RoCE is guaranteed nothing when other traffic competes"
	case tsa == "vendor":
		reason = "uses mlx5's default vendor scheduling, which shares the link equally with the other vendor classes " +
			"(en_dcbnl.c mlx5e_build_tc_group); the policy wants " + want
	default:
		reason = fmt.Sprintf("is %s, the policy wants %s", tsa, want)
	}
	return Fail(Warning, "priority %d's traffic class %d %s", p.RoCE.Priority, tc, reason)
}

// PFCCableLength is pfc-cable-length on a port group's cable length:
// a lossless group sized for less than the policy's cable is an error, one
// that differs from the fabric's reference length (CableReference; -1 when
// the fabric uses one length) a warning.
func PFCCableLength(p policy.Policy, lossless bool, metres, ref int) Judgement {
	switch {
	case !lossless:
		return Pass
	case metres < p.PFC.CableLength:
		return Fail(Error, "PFC headroom is sized for %d m of cable, shorter than the policy's %d m: "+
			"pause frames come too late and lossless traffic drops", metres, p.PFC.CableLength)
	case ref >= 0 && metres != ref:
		return Fail(Warning, "PFC cable length %d m differs from the fabric's %d m: the fabric's lossless headroom is not sized alike", metres, ref)
	}
	return Pass
}

// PortCableLength is pfc-cable-length on a switch that sizes each port for
// its own cable (model.Switch.CableLengthPerPort): the policy's longest
// cable is no measure of one port, so only a lossless port sized for no
// cable at all fails: SONiC's buffer managers then give it no lossless
// headroom ("Cable length is not set", sonic-net/sonic-swss
// cfgmgr/buffermgr.cpp; "If cable len is 0m, remove lossless PG",
// cfgmgr/buffermgrdyn.cpp).
func PortCableLength(lossless bool, metres int) Judgement {
	if !lossless || metres > 0 {
		return Pass
	}
	return Fail(Error, "PFC is on but the port has no cable length: the switch gives it no lossless headroom, and paused traffic drops")
}

// CableReference is the cable length most switches' lossless port groups
// use (the longest on a tie) and those switches, sorted; -1 when the
// fabric's lossless groups use fewer than two lengths. users maps each
// length to the switches using it.
func CableReference(users map[int]map[string]bool) (int, []string) {
	if len(users) < 2 {
		return -1, nil
	}
	ref := -1
	for l, names := range users {
		if ref < 0 || len(names) > len(users[ref]) || (len(names) == len(users[ref]) && l > ref) {
			ref = l
		}
	}
	var names []string
	for n := range users[ref] {
		names = append(names, n)
	}
	slices.Sort(names)
	return ref, names
}

// PFCWatchdog is pfc-watchdog on a port: a lossless one (or one the
// policy's lossless RoCE mode makes lossless) without the watchdog.
func PFCWatchdog(lossless, on bool) Judgement {
	if !lossless || on {
		return Pass
	}
	return Fail(Warning, "PFC is on but the PFC watchdog is off")
}

// LinkPause is link-pause on a port: a link-pause binding on a port
// whose PFC pauses a priority.
func LinkPause(linkPause, lossless bool) Judgement {
	if !linkPause || !lossless {
		return Pass
	}
	return Fail(Error, "link pause and PFC are on the same port: Cumulus Linux does not support link pause and PFC together")
}

// HashSeed is ecmp-hash-seed on a switch's explicit hash-seed;
// sharedWith are the other switches that set the same seed.
func HashSeed(sharedWith []string) Judgement {
	if len(sharedWith) == 0 {
		return Pass
	}
	return Fail(Warning, "hash-seed is also the seed of %s: switches with one seed polarize ECMP", strings.Join(sharedWith, ", "))
}

// ECMPHashPairs are the ecmp-hash fields symmetric hashing needs set alike.
var ECMPHashPairs = [][2]string{{"source-ip", "destination-ip"}, {"source-port", "destination-port"}}

// ECMPHashPair is ecmp-hash-seed on one of ECMPHashPairs: set unlike,
// Cumulus Linux turns symmetric hashing off.
func ECMPHashPair(a, b bool) Judgement {
	if a == b {
		return Pass
	}
	return Fail(Warning, "the ecmp-hash pair is set unlike: symmetric hashing is off")
}

// SwitchPCP is switch-pcp-map on a port group's entry for PCP pcp
// (the RoCE or the CNP priority): under a PCP policy a port trusting l2
// must map it to the switch priority of the same number.
func SwitchPCP(p policy.Policy, trust string, pcp, sp int) Judgement {
	if p.Trust != "pcp" || trust != "l2" || sp == pcp {
		return Pass
	}
	return Fail(Error, "PCP %d → switch-priority %d, want %d", pcp, sp, pcp)
}

// PoolMemory is switch-buffer-pool on the total of the memory-percent
// values the configuration writes.
func PoolMemory(total int) Judgement {
	if total <= 100 {
		return Pass
	}
	return Fail(Warning, "the traffic pools' memory-percent add up to %d%%, above 100%%", total)
}

// PoolPriority is switch-buffer-pool on the switch priorities a
// traffic pool's configuration lists (listed: it lists any): under a
// lossless policy, on a lossless switch, the RoCE priority belongs in no
// lossy pool and in every lossless one that lists priorities.
func PoolPriority(p policy.Policy, switchLossless bool, pool string, listed bool, sps []int) Judgement {
	if !p.RoCE.Lossless() || !switchLossless || !listed {
		return Pass
	}
	in := slices.Contains(sps, p.RoCE.Priority)
	switch lossy := model.LossyPool(pool); {
	case lossy && in:
		return Fail(Error, "the RoCE switch-priority %d is in the lossy traffic pool %s", p.RoCE.Priority, pool)
	case !lossy && !in:
		return Fail(Error, "the lossless traffic pool %s lacks the RoCE switch-priority %d", pool, p.RoCE.Priority)
	}
	return Pass
}

// RDMACMMode is host-roce-version on RDMA-CM's default_roce_mode of
// a NIC's port: anything but RoCE v2 sends RDMA-CM users' RoCE without an
// IP header.
func RDMACMMode(mode string) Judgement {
	if mode == model.RoCEv2 {
		return Pass
	}
	return Fail(Error, "RDMA-CM's default RoCE mode is %s, not %s", mode, model.RoCEv2)
}

// NCCLGIDUse is what host-roce-version reads of the GID NCCL uses on one
// port: NCCL_IB_GID_INDEX (-1: NCCL chooses), the type of that entry
// (HasType false when the capture has none), NCCL_IB_ROCE_VERSION_NUM
// (VersionKnown: a collected layer or NCCL's default decided it), and
// whether the port has any RoCE v2 GID among the entries read.
type NCCLGIDUse struct {
	Index        int
	Type         string
	HasType      bool
	Version      int
	VersionKnown bool
	AnyV2        bool
}

// NCCLGID is host-roce-version on the GID NCCL uses: a set index must
// name a RoCE v2 GID (one beyond the entries read is only said, one with
// no type is a warning); NCCL's own choice must prefer RoCE v2 and find one.
func NCCLGID(g NCCLGIDUse) Judgement {
	switch {
	case g.Index >= 0 && g.HasType && g.Type == model.RoCEv2:
		return Pass
	case g.Index >= 0 && g.HasType:
		return Fail(Error, "NCCL_IB_GID_INDEX=%d selects a GID of type %q", g.Index, g.Type)
	case g.Index >= layout.GIDTypesRead:
		return Fail(Info, "NCCL_IB_GID_INDEX=%d is beyond the GID entries qoslint reads", g.Index)
	case g.Index >= 0:
		return Fail(Warning, "NCCL_IB_GID_INDEX=%d names a GID entry with no type", g.Index)
	case g.VersionKnown && g.Version != 2:
		return Fail(Error, "NCCL_IB_ROCE_VERSION_NUM=%d: NCCL's automatic GID choice prefers that version", g.Version)
	case !g.AnyV2:
		return Fail(Error, "no RoCE v2 GID for NCCL's automatic choice")
	}
	return Pass
}

// NCCLQPs is host-nccl-qps on NCCL_IB_QPS_PER_CONNECTION: fewer than
// NCCLQPsMin QPs per connection warn only where ECMP hashes the UDP source
// port and adaptive routing is off, since otherwise the QP count does not
// decide the path.
func NCCLQPs(p policy.Policy, qps int) Judgement {
	if !NCCLQPsMatter(p) || qps >= NCCLQPsMin {
		return Pass
	}
	return Fail(Warning, "NCCL_IB_QPS_PER_CONNECTION %d: each NCCL connection is one QP, one UDP source port and so one ECMP path", qps)
}

// NCCLQPsMin is the fewest QPs per connection that give ECMP more than one
// flow to spread. NVIDIA documents no recommended value for
// NCCL_IB_QPS_PER_CONNECTION (the NCCL environment variable page lists it
// without one).
const NCCLQPsMin = 2

// NCCLQPsMatter: the QP count decides a connection's path only where ECMP
// hashes the UDP source port and adaptive routing is off.
func NCCLQPsMatter(p policy.Policy) bool {
	return !p.ECMP.AdaptiveRouting && slices.Contains(ECMPHashFields(p), "source-port")
}

// NCCLQPsJudged says whether host-nccl-qps judges a host's
// NCCL_IB_QPS_PER_CONNECTION: a host with NICs whose value is known, and
// where NCCL shows it runs (a collected nccl.conf, or a layer setting it).
func NCCLQPsJudged(hasNICs, known, defaulted, ncclFile bool) bool {
	return hasNICs && known && (!defaulted || ncclFile)
}

// RDMACMToS is host-rdma-cm-tos on a port's RDMA-CM default_roce_tos;
// a port that forces a traffic_class is host-tos's and passes here.
func RDMACMToS(p policy.Policy, tos int, forced bool, knob string) Judgement {
	if forced {
		return Pass
	}
	return ToS(p, tos, knob)
}

// AppToS is host-app-tos on an application's ToS (knob names it);
// anyFree says some NIC of the host does not force a traffic_class, which
// would replace the application's ToS (host-tos judges that).
func AppToS(p policy.Policy, tos int, anyFree bool, knob string) Judgement {
	if !anyFree {
		return Pass
	}
	return ToS(p, tos, knob)
}

// NCCLFifoTC is host-nccl-fifo-tc on NCCL_IB_FIFO_TC (knob names
// it), the traffic class of NCCL's control messages on RoCE; anyFree says
// some NIC of the host does not force a traffic_class, which would
// replace it. NVIDIA documents the variable for "a high priority,
// low-latency traffic class": under a DSCP policy its DSCP must be one
// the policy gives a class, the RoCE class (where NCCL_IB_TC puts them
// by default) or the strict-priority CNP class. Under a PCP policy the
// messages are classified by NCCL_IB_SL, which the variable does not
// change.
func NCCLFifoTC(p policy.Policy, tc int, anyFree bool, knob string) Judgement {
	d := model.DSCPOfToS(tc)
	if tc < 0 || !anyFree || p.Trust != "dscp" || slices.Contains(p.RoCE.DSCP, d) || d == p.CNP.DSCP {
		return Pass
	}
	cnpToS := model.ToSOfDSCP(p.CNP.DSCP)
	if slices.Contains(p.RoCE.DSCP, tc) || tc == p.CNP.DSCP {
		return Fail(Warning, "%s is the DSCP, not the ToS: NCCL's control messages leave with DSCP %d (%d >> 2), not in the class DSCP %d is meant for; DSCP %d is ToS %d",
			knob, d, tc, tc, tc, model.ToSOfDSCP(tc))
	}
	return Fail(Warning, "%s puts DSCP %d on NCCL's control messages, neither a RoCE DSCP (%s) nor the CNP DSCP %d (ToS %d): the policy gives them no class of their own, while NVIDIA documents the variable for \"a high priority, low-latency traffic class\"",
		knob, d, model.IntList(p.RoCE.DSCP), p.CNP.DSCP, cnpToS)
}

// NCCLFifoTCJudged says whether host-nccl-fifo-tc judges a host: one with
// NICs where a collected layer sets NCCL_IB_FIFO_TC (unset, the control
// messages take NCCL_IB_TC's class, which host-tos judges).
func NCCLFifoTCJudged(hasNICs, known, defaulted bool) bool {
	return hasNICs && known && !defaulted
}

// modeAccepted: the mode the policy asks for, or lossless-single-ipool for a
// lossless policy (the same classes and PFC; it only shares the ingress pool:
// "To disable single shared buffer pool mode and use the default mode
// (lossless)", CumulusNetworks/docs content/cumulus-linux-518/
// Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md).
func modeAccepted(want, got string) bool {
	return got == want || (want == "lossless" && got == "lossless-single-ipool")
}

// modeMismatch grades a switch in another mode than the policy's.
func modeMismatch(want, got string) (Severity, string) {
	switch {
	case model.LosslessMode(want) && !model.LosslessMode(got):
		return Error, fmt.Sprintf("RoCE mode is %s: no PFC, RoCE drops packets under congestion", got)
	case want == "lossy-multi-tc":
		return Error, fmt.Sprintf("RoCE mode is %s, not lossy-multi-tc: the switch uses another DSCP map, other traffic classes and no packet trimming", got)
	case got == "lossy-multi-tc":
		return Error, fmt.Sprintf("RoCE mode is lossy-multi-tc, not %s: its DSCP map and one-to-one traffic classes are not the policy's", want)
	case want == "lossy":
		return Warning, fmt.Sprintf("RoCE mode is %s but the policy designs the fabric lossy", got)
	}
	return Warning, fmt.Sprintf("RoCE mode is %s, not %s: PFC on both, but other buffer pools or traffic classes", got, want)
}

// tosMistake names the classic mistakes.
func tosMistake(tos int, dscps []int, knob string) string {
	d := model.DSCPOfToS(tos)
	want := model.ToSOfDSCP(dscps[0])
	switch {
	case tos == 0:
		return fmt.Sprintf("RoCE leaves with ToS 0 (%s): DSCP 0, priority 0, the lossy queue on every hop; set the ToS to %d (DSCP %d × 4)", knob, want, dscps[0])
	case slices.Contains(dscps, tos):
		return fmt.Sprintf("%s is the DSCP, not the ToS: the wire carries DSCP %d (%d >> 2); DSCP %d is ToS %d (DSCP × 4)", knob, d, tos, tos, model.ToSOfDSCP(tos))
	}
	return fmt.Sprintf("%s puts DSCP %d on the wire, not the RoCE DSCP %d: set the ToS to %d", knob, d, dscps[0], want)
}

// PrioList prints priorities sorted, comma-separated ("none" for none),
// as the verdicts and the findings they become print them.

func PrioList(ps []int) string {
	if len(ps) == 0 {
		return "none"
	}
	sort.Ints(ps)
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ",")
}

// Without is ps less every x.
func Without(ps []int, x int) []int {
	var out []int
	for _, p := range ps {
		if p != x {
			out = append(out, p)
		}
	}
	return out
}

// FirmwareWant is one parameter host-firmware judges: its name, the value
// the policy wants (as mlxconfig sets it), whether the printed number is
// right, and the severity and reason of a wrong one.
type FirmwareWant struct {
	Name     string
	Want     string
	OK       func(v int) bool
	Severity Severity
	Why      string
}

// FirmwareWants are the parameters of port (mlxconfig's _P<port>) the
// policy asks about.
func FirmwareWants(p policy.Policy, port int) []FirmwareWant {
	sfx := "_P" + strconv.Itoa(port)
	eq := func(w int) func(int) bool { return func(v int) bool { return v == w } }
	out := []FirmwareWant{
		{"CNP_DSCP" + sfx, strconv.Itoa(p.CNP.DSCP), eq(p.CNP.DSCP), Warning, fmt.Sprintf("the switches expect CNPs with DSCP %d", p.CNP.DSCP)},
		{"CNP_802P_PRIO" + sfx, strconv.Itoa(p.CNP.Priority), eq(p.CNP.Priority), Warning, fmt.Sprintf("the switches expect CNPs on priority %d", p.CNP.Priority)},
		{"ROCE_CC_PRIO_MASK" + sfx, "255", func(v int) bool { return v>>p.RoCE.Priority&1 == 1 }, Warning,
			fmt.Sprintf("congestion control (DCQCN) must cover RoCE priority %d", p.RoCE.Priority)},
		{"LINK_TYPE" + sfx, "ETH", eq(2), Error, "a RoCE port must be Ethernet, ETH(2)"},
	}
	if p.ECMP.AdaptiveRouting {
		out = append(out, FirmwareWant{"ROCE_ADAPTIVE_ROUTING_EN", "1", eq(1), Warning, "the policy wants adaptive routing, which needs the NIC to accept out-of-order RoCE packets"})
	}
	return out
}

// FirmwareParam is host-firmware on one mlxconfig parameter of port
// port, next its Next Boot value as mlxconfig prints it; a parameter the
// policy does not ask about passes.
func FirmwareParam(p policy.Policy, port int, name, next string) Judgement {
	for _, w := range FirmwareWants(p, port) {
		if w.Name != name {
			continue
		}
		if v, num := nvnum.MlxNum(next); num && w.OK(v) {
			return Pass
		}
		return Fail(w.Severity, "%s is %s at the next boot: %s", name, next, w.Why)
	}
	return Pass
}
