package checks

import "testing"

// The traffic-pool commands are the RoCE page's remap-to-lossy recipe and the
// QoS guide's Traffic Pools examples (CumulusNetworks/docs content/cumulus-linux-515/
// Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md:
// `nv set qos traffic-pool default-lossy switch-priority 0-3,5-7`,
// `nv set qos traffic-pool roce-lossy memory-percent 60`, `... default-lossy
// memory-percent 40`, `... roce-lossy switch-priority 4`; content/cumulus-linux-518/
// .../Quality-of-Service/_index.md: `nv set qos traffic-pool roce-lossless
// memory-percent 60`). The pool rows are the `nv show qos roce` "RoCE pool
// config" table of the 5.3 and 5.12-5.18 RoCE pages, as the clean pod prints it
// (leaf02 is lossless-single-ipool: one shared ingress pool).
var _ = register(switchBufferPool, func(testing.TB) []checkCase {
	const (
		leaf01Ingress = "    1  roce-reserved-ingress  Dynamic  50%   3                  -"
		leaf01Egress  = "    3  roce-reserved-egress   Dynamic  inf   -                  3"
	)
	return []checkCase{
		{name: "clean: qos roce pools, and leaf02's single ingress pool"},
		{name: "the RoCE priority put in default-lossy", edits: []edit{appendTo(spine02C,
			"nv set qos traffic-pool default-lossy switch-priority 0-3,5-7\n")},
			want: []string{"error spine02"}, msg: "RoCE switch-priority 3 is in the lossy traffic pool default-lossy"},
		{name: "roce-lossless given another priority", edits: []edit{appendTo(spine02C,
			"nv set qos traffic-pool roce-lossless switch-priority 4\n")},
			want: []string{"error spine02"}, msg: "roce-lossless lists switch-priority 4, not the RoCE priority 3"},
		{name: "roce-lossless given the RoCE priority", edits: []edit{appendTo(spine02C,
			"nv set qos traffic-pool roce-lossless switch-priority 3\nnv set qos traffic-pool default-lossy switch-priority 0-2,4-7\n")}},
		{name: "a lossy policy may put RoCE in a lossy pool", edits: []edit{policyRoCE("    mode = \"lossy\""), appendTo(spine02C,
			"nv set qos roce mode lossy\nnv set qos traffic-pool roce-lossy switch-priority 3\n")}},
		{name: "memory over 100%", edits: []edit{appendTo(spine02C,
			"nv set qos traffic-pool roce-lossless memory-percent 60\nnv set qos traffic-pool default-lossy memory-percent 50\n")},
			want: []string{"warning spine02"}, msg: "memory-percent add up to 110%"},
		{name: "memory at 100%", edits: []edit{appendTo(spine02C,
			"nv set qos traffic-pool roce-lossless memory-percent 60\nnv set qos traffic-pool default-lossy memory-percent 40\n")}},
		{name: "the switch's reserved ingress pool holds another priority", edits: []edit{replace(leaf01S, leaf01Ingress,
			"    1  roce-reserved-ingress  Dynamic  50%   4                  -")},
			want: []string{"error leaf01"}, msg: "does not buffer the RoCE switch-priority 3 in its reserved ingress pool"},
		{name: "the switch's reserved egress pool holds another class", edits: []edit{replace(leaf01S, leaf01Egress,
			"    3  roce-reserved-egress   Dynamic  inf   -                  4")},
			want: []string{"error leaf01"}, msg: "RoCE traffic-class 3 in its reserved egress pool"},
		{name: "the switch's ingress pools over 100%", edits: []edit{replace(leaf01S, leaf01Ingress,
			"    1  roce-reserved-ingress  Dynamic  60%   3                  -")},
			want: []string{"warning leaf01"}, msg: "ingress pools take 110% of the buffer"},
	}
})
