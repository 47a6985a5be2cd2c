package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var hostRDMACMToS = &Check{
	ID:       "host-rdma-cm-tos",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Error,
	Title:    "RDMA-CM's default ToS carries the RoCE DSCP",
	Doc: `Storage and some MPI stacks (NVMe-oF, NFS over RDMA, UCX or MPI over rdmacm) connect through
RDMA-CM, which creates their QPs with the port's default ToS unless the application sets one with
rdma_set_option: /sys/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_tos, 0-255 (Linux
Documentation/ABI/testing/configfs-rdma_cm; drivers/infiniband/core/cma.c takes the ToS the
application set, else this default, which starts at 0). It is judged like NCCL_IB_TC in host-tos (the
same rule names "unset, DSCP 0, lossy" and "the DSCP written where the ToS belongs"), but its fix is a
configfs write, echo <ToS> > .../default_roce_tos, so it is a check of its own. The configfs group
exists only after mkdir /sys/kernel/config/rdma_cm/<ibdev> and the value does not survive a reboot: a
port whose group was not collected is a note, not a finding. A port that forces a traffic_class
replaces every QP's ToS, RDMA-CM's too: host-tos judges it. A ToS an application sets itself cannot
be collected.`,
	Inputs: []Input{RDMACMToS, IBDev2Netdev},
	Run:    runHostRDMACMToS,
}

func runHostRDMACMToS(f *model.Fabric) []Finding {
	var out []Finding
	want := model.ToSOfDSCP(f.Policy.RoCE.DSCP[0])
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			t := n.RDMACMToS
			if !t.Known {
				continue
			}
			knob := fmt.Sprintf("RDMA-CM's default_roce_tos %d on %s port %d", t.V, n.IBDev, n.Port)
			j := judge.RDMACMToS(f.Policy, t.V, forcedToS(n), knob)
			if j.OK {
				continue
			}
			out = append(out, Finding{
				Severity: j.Severity, Device: h.Name, Interface: n.Netdev,
				Message:  j.Reason + "; it applies to RDMA-CM connections that set no ToS themselves (NVMe-oF, NFS over RDMA), not to NCCL",
				Expected: tosText(want), Actual: tosText(t.V) + " via default_roce_tos",
				Source: t.Origin.Pos(),
				Changes: []Change{{Kind: Sysfs, Target: layout.RoCEToSPath(layout.SysRoot, n.IBDev, n.Port),
					Value: strconv.Itoa(want), Old: strconv.Itoa(t.V), HasOld: true}},
			})
		}
	}
	return out
}
