package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/model"
)

var ibSL2VL = &Check{
	ID:       "ib-sl2vl",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesIBHost,
	Severity: judge.Error,
	Title:    "The jobs' Service Level maps to a data VL the port runs, on every InfiniBand port",
	Doc: `On InfiniBand the marking is the Service Level: NCCL_IB_SL (UCX_IB_SL, NVSHMEM_IB_SL) picks
one, and each port's SL2VL table maps it to a virtual lane. VL 15 in the table means "drop this SL"
(linux-rdma/opensm doc/QoS_management_in_OpenSM.txt §7), and a VL at or above the port's OperVLs is
not a lane the port runs: either way the job's packets do not get through. The table is read from
smpquery sl2vl, OperVLs from smpquery portinfo (linux-rdma/rdma-core infiniband-diags/smpquery.c).
With policy ib.vl set, the SL must map to that VL. The SL is the host's NCCL_IB_SL as NCCL reads it
(environment, ~/.nccl.conf, /etc/nccl.conf, default 0), else the policy's ib.sl; and every other
application's SL that ib-sl-consistency reads (UCX_IB_SL, NVSHMEM_IB_SL, the env of the Kubernetes
containers placed on the host), one finding per SL and port naming the applications on it. The fix
is OpenSM's qos_ca_sl2vl (qoslint help infiniband), which OpenSM programs when qos is TRUE; for an SL only
other applications use, moving them to the policy's SL.

A switch's tables are read by LID from the host with ibswitches.txt (smpquery sl2vl <lid> <out>,
one row per input port): on every pair of Active external ports in→out the SL of every host's jobs
must map to a data VL below the output port's OperVLs (and the policy's SL to ib.vl); the finding names the switch, its LID and the
two ports, and the fix is qos_swe_sl2vl (opensm/osm_qos.c qos_extports_setup programs it on every
in→out pair).`,
	Inputs: []Input{IBStat, SMPQuery, NCCL, UCXConf, K8sManifests},
	Run:    runIBSL2VL,
}

func runIBSL2VL(f *model.Fabric) []Finding {
	var out []Finding
	nc := ibPorts(f, "SL2VL", needSL2VL, func(h *model.IBHost, p *model.IBPort) {
		for _, u := range slUsers(f, h) {
			if fd, ok := sl2vlFinding(f, h, p, u); ok {
				out = append(out, fd)
			}
		}
	})
	out = append(out, nc...)
	return append(out, runIBSL2VLSwitches(f)...)
}

// slUser is one SL and the applications that send on it.
type slUser struct {
	sl   int
	why  string          // "NCCL_IB_SL 1 (...) and UCX (UCX_IB_SL=3, /etc/ucx/ucx.conf)"
	apps []model.IBAppSL // the applications besides the host's NCCL
	nccl bool            // the host's NCCL (or the policy's SL) is among them
}

// slUsers groups the SLs the host's applications send on, NCCL's first,
// then the others in their order.
func slUsers(f *model.Fabric, h *model.IBHost) []slUser {
	sl, why := ibSL(f, h)
	out := []slUser{{sl: sl, why: why, nccl: true}}
	for _, a := range h.Apps {
		desc := fmt.Sprintf("%s (%s, %s)", a.App, a.Knob, appSLOrigin(a))
		i := 0
		for i < len(out) && out[i].sl != a.SL {
			i++
		}
		if i == len(out) {
			out = append(out, slUser{sl: a.SL, why: "SL " + fmt.Sprint(a.SL) + " of " + desc, apps: []model.IBAppSL{a}})
			continue
		}
		out[i].why += " and " + desc
		out[i].apps = append(out[i].apps, a)
	}
	return out
}

// appSLOrigin is where an application's SL came from, for ib-sl2vl.
func appSLOrigin(a model.IBAppSL) string {
	if a.Container != nil {
		return a.Where
	}
	if a.Pos.IsZero() {
		return a.Where
	}
	return a.Pos.String()
}

// sl2vlFinding judges one SL on one port.
func sl2vlFinding(f *model.Fabric, h *model.IBHost, p *model.IBPort, u slUser) (Finding, bool) {
	sl, why := u.sl, u.why
	vl := p.SL2VL[sl]
	var msg string
	switch {
	case vl == model.VLDrop:
		msg = fmt.Sprintf("%s maps to VL 15 on %s: the port drops the job's packets", why, p.Name())
	case vl >= p.OperVLs:
		msg = fmt.Sprintf("%s maps to VL %d on %s, which runs only VL0-%d (OperVLs, %s): the lane does not exist", why, vl, p.Name(), p.OperVLs-1, p.OperVLsPos)
	case f.Policy.IB.HasVL && vl != f.Policy.IB.VL:
		msg = fmt.Sprintf("%s maps to VL %d on %s, not to the policy's VL %d", why, vl, p.Name(), f.Policy.IB.VL)
	default:
		return Finding{}, false
	}
	want := "a data VL below OperVLs"
	target := 0 // VL 0: a lane every port runs, when the policy names none
	if f.Policy.IB.HasVL {
		want, target = fmt.Sprintf("VL %d", f.Policy.IB.VL), f.Policy.IB.VL
	}
	var changes []Change
	hint := smHint(f, "qos_ca_sl2vl")
	if u.nccl {
		changes = fixSL2VL(f, h, p, sl, target)
	} else {
		// Only other applications use this SL: moving them to the
		// policy's SL is the fix, as ib-sl-consistency says.
		hint = fmt.Sprintf("; move %s to the policy's SL %d (ib-sl-consistency)", english.Plural(len(u.apps), "it", "them"), f.Policy.IB.SL)
		for _, a := range u.apps {
			changes = append(changes, appSLChange(a, f.Policy.IB.SL)...)
		}
	}
	return Finding{
		Severity: judge.Error, Device: h.Name, Interface: p.Name(),
		Message:  msg + hint,
		Expected: fmt.Sprintf("SL %d → %s", sl, want), Actual: fmt.Sprintf("SL %d → VL %d", sl, vl),
		Source:  p.SL2VLPos,
		Changes: changes,
	}, true
}

// smHint names the opensm.conf option to change, and where, when the
// subnet manager's configuration was collected.
func smHint(f *model.Fabric, key string) string {
	if f.IB == nil || f.IB.SM == nil {
		return fmt.Sprintf("; fix %s in the subnet manager's opensm.conf (not collected)", key)
	}
	return fmt.Sprintf("; fix %s in %s (%s), then kill -HUP $(pidof opensm)", key, f.IB.SM.File, f.IB.SM.Device)
}

// runIBSL2VLSwitches judges every switch's in→out SL2VL tables: a packet
// entering an Active external port and leaving by another takes the VL
// its output port's table gives for its input port (IBA 7.6.6; smpquery
// sl2vl <lid> <out> prints one row per input port). Rows from port 0
// (the switch's own traffic) and from ports not Active carry no job.
func runIBSL2VLSwitches(f *model.Fabric) []Finding {
	if f.IB == nil || len(f.IB.Switches) == 0 {
		return nil
	}
	sls := jobSLs(f)
	var out []Finding
	nc := ibSwitchPorts(f, "switch SL2VL", true, needSwitchSL2VL, func(p *model.IBSwitchPort) {
		for _, row := range p.SL2VL {
			if !p.Switch.TrafficIn(row.In, p.Port) {
				continue
			}
			for _, j := range sls {
				if fd, ok := switchSL2VLFinding(f, p, row, j); ok {
					out = append(out, fd)
				}
			}
		}
	})
	return append(out, nc...)
}

func switchSL2VLFinding(f *model.Fabric, p *model.IBSwitchPort, row model.SL2VLIn, j jobSL) (Finding, bool) {
	vl, path := row.VL[j.SL], fmt.Sprintf("from port %d to port %d of %s", row.In, p.Port, p.Switch.Label())
	var msg string
	switch {
	case vl == model.VLDrop:
		msg = fmt.Sprintf("%s maps to VL 15 %s: the switch drops the job's packets", j.Why, path)
	case vl >= p.OperVLs:
		msg = fmt.Sprintf("%s maps to VL %d %s, whose output port runs only VL0-%d (OperVLs, %s): the lane does not exist", j.Why, vl, path, p.OperVLs-1, p.OperVLsPos)
	case f.Policy.IB.HasVL && vl != f.Policy.IB.VL && j.SL == f.Policy.IB.SL:
		// Only the policy's SL has a VL to land on; a host off the
		// policy's SL is ib-sl-consistency's finding, not every switch's.
		msg = fmt.Sprintf("%s maps to VL %d %s, not to the policy's VL %d", j.Why, vl, path, f.Policy.IB.VL)
	default:
		return Finding{}, false
	}
	want, target := "a data VL below OperVLs", 0
	if f.Policy.IB.HasVL {
		want, target = fmt.Sprintf("VL %d", f.Policy.IB.VL), f.Policy.IB.VL
	}
	return Finding{
		Severity: judge.Error, Device: p.Switch.Host, Interface: fmt.Sprintf("%s port %d→%d", p.Switch.Label(), row.In, p.Port),
		Message:  msg + smHint(f, "qos_swe_sl2vl"),
		Expected: fmt.Sprintf("SL %d → %s", j.SL, want), Actual: fmt.Sprintf("SL %d → VL %d", j.SL, vl),
		Source:  row.Pos,
		Changes: fixSwitchSL2VL(f, p, j.SL, target),
	}, true
}
