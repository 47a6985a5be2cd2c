package checks

import (
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var hostTrust = &Check{
	ID:       "host-trust",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Error,
	Title:    "Every RoCE NIC trusts DSCP",
	Doc: `A ConnectX NIC picks the priority of a received packet, and the priority whose PFC and
buffers an outgoing RoCE packet uses, from its trust state. With trust pcp (the default until a
DSCP mapping is installed) an untagged RoCEv2 packet has no PCP and lands in priority 0: no PFC,
no lossless buffer, although the switches mark and queue it correctly. mlnx_qos -i <netdev> prints
the state as "Priority trust state:". Note that mlnx_qos --trust does not survive a reboot; make it
persistent in the host's provisioning (NIC Configuration Operator, a systemd unit).`,
	Inputs: []Input{MlnxQoS},
	Run:    runHostTrust,
}

func runHostTrust(f *model.Fabric) []Finding {
	var out []Finding
	want := f.Policy.Trust
	nc := nicIter(f, qosFile, hasQos, "trust", func(h *model.Host, n *model.NIC) {
		t := n.Trust
		j := judge.HostTrust(f.Policy, t.V)
		if j.OK {
			return
		}
		out = append(out, Finding{
			Severity: j.Severity, Device: h.Name, Interface: n.Netdev,
			Message:  j.Reason,
			Expected: want, Actual: why(t),
			Source:  t.Origin.Pos(),
			Changes: []Change{{Kind: MlnxQos, Target: n.Netdev, Flag: "--trust", Value: want, Old: t.V, HasOld: t.V == "pcp" || t.V == "dscp"}},
		})
	})
	return append(out, nc...)
}
