package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/model"
)

var hostToS = &Check{
	ID:       "host-tos",
	Device:   "host",
	Severity: Error,
	Title:    "RoCE traffic leaves the host with the RoCE DSCP in its ToS",
	Doc: `Everything downstream keys on the DSCP the sender writes, and the sender writes whatever
traffic class its QPs carry: DSCP = ToS >> 2. A forced traffic_class
(/sys/class/infiniband/<ibdev>/tc/<port>/traffic_class, "Global tclass=N") overrides every QP;
otherwise NCCL uses NCCL_IB_TC, and 0 when it is unset. Two mistakes are classic: leaving the ToS
unset, so RoCE leaves with DSCP 0 and every switch queues it as best effort; and writing the DSCP
where the ToS belongs (NCCL_IB_TC=26 puts DSCP 6 on the wire; DSCP 26 is ToS 104, or 106 with
ECT(0)). The check reads the effective ToS per NIC and names the knob that set it.`,
	Run: runHostToS,
}

func runHostToS(f *model.Fabric) []Finding {
	var out []Finding
	p := f.Policy.RoCE
	want := model.ToSOfDSCP(p.DSCP[0])
	for _, h := range f.Hosts {
		var unknown, viaNCCL []string
		var ncclNIC *model.NIC
		for _, n := range h.NICs {
			t := n.ToS
			switch {
			case !t.Known:
				unknown = append(unknown, n.Netdev)
			case slices.Contains(p.DSCP, model.DSCPOfToS(t.V)):
			case t.Via == "traffic_class":
				o := itoa(t.V)
				out = append(out, Finding{
					Severity: Error, Device: h.Name, Interface: n.Netdev,
					Message:  tosMistake(t.V, p.DSCP, "the forced traffic_class"),
					Expected: tosText(want), Actual: tosText(t.V) + " via traffic_class",
					Source:  t.Origin.Pos,
					Changes: []Change{{Kind: Sysfs, Target: model.TrafficClassPath(n.IBDev, n.Port), Value: itoa(want), Old: o, HasOld: true}},
				})
			default:
				viaNCCL = append(viaNCCL, n.Netdev)
				ncclNIC = n
			}
		}
		if ncclNIC != nil {
			// NCCL_IB_TC is per host, so is its finding.
			t := ncclNIC.ToS
			knob := "NCCL_IB_TC=" + itoa(t.V)
			if t.Via == "default" {
				knob = "NCCL_IB_TC unset, NCCL's default 0"
			}
			o, had := old(t.NCCL)
			if t.NCCL.V < 0 {
				had = false
			}
			ch := Change{Kind: NCCLConf, Target: model.NCCLConfPath, Path: []string{"NCCL_IB_TC"}, Value: itoa(want), Old: o, HasOld: had}
			msg := tosMistake(t.V, p.DSCP, knob)
			if len(h.NCCLNotes) > 0 {
				msg += "; note " + strings.Join(h.NCCLNotes, "; ")
			}
			out = append(out, Finding{
				Severity: Error, Device: h.Name, Interface: model.CompressNames(viaNCCL),
				Message:  msg,
				Expected: tosText(want), Actual: tosText(t.V) + " via " + knob,
				Source:  at(t.Origin, h.NCCLFile),
				Changes: []Change{ch},
			})
		}
		if len(unknown) > 0 {
			out = append(out, notCollected(h.Name, "nccl.conf not collected and no forced traffic_class on "+strings.Join(unknown, ", "), "the RoCE ToS"))
		}
	}
	return out
}

func tosText(tos int) string {
	return fmt.Sprintf("ToS %d (DSCP %d, %s)", tos, model.DSCPOfToS(tos), model.ECNName(model.ECNOfToS(tos)))
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
