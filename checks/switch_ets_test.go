package checks

import (
	"testing"
)

// policyRoCE writes a roce block into the clean pod's inventory.
func policyRoCE(body string) edit {
	return replace("inventory.hcl", `preset = "cumulus-default"`, "preset = \"cumulus-default\"\n  roce {\n"+body+"\n  }")
}

// The commands are the QoS guide's Egress Scheduling forms (CumulusNetworks/docs
// content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md:
// `nv set qos egress-scheduler default-global traffic-class 2,6 mode dwrr`,
// `... bw-percent 30`, `... traffic-class 0,1,5,7 mode strict`,
// `nv set interface swp1,swp3,swp18 qos egress-scheduler profile list2`) on
// qos roce's defaults (TC 3 DWRR 50%, TC 0 DWRR 50%, TC 6 strict).
var _ = register(switchETS, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean: qos roce gives traffic class 3 50%"},
		{name: "RoCE class strict", edits: []edit{appendTo(spine02C,
			"nv set qos egress-scheduler default-global traffic-class 3 mode strict\n")},
			want: []string{"warning spine02 swp1-32"}, msg: "RoCE traffic class 3 is scheduled strict"},
		{name: "RoCE share below 50%", edits: []edit{appendTo(spine02C,
			"nv set qos egress-scheduler default-global traffic-class 3 bw-percent 30\n")},
			want: []string{"warning spine02 swp1-32"}, msg: "gets 30% in egress-scheduler profile default-global, below the policy's 50%"},
		{name: "a lower share the policy allows", edits: []edit{policyRoCE("    min_bandwidth = 30"), appendTo(spine02C,
			"nv set qos egress-scheduler default-global traffic-class 3 bw-percent 30\n")}},
		{name: "a policy asking more than qos roce gives", edits: []edit{policyRoCE("    min_bandwidth = 60")},
			want: []string{"warning leaf01 swp1-32", "warning leaf02 swp1-32", "warning spine01 swp1-32", "warning spine02 swp1-32"}},
		{name: "best effort strict", edits: []edit{appendTo(spine02C,
			"nv set qos egress-scheduler default-global traffic-class 0 mode strict\n")},
			want: []string{"warning spine02 swp1-32"}, msg: "traffic-class 0 (switch-priority 0,1,2,4,5,7) is strict"},
		{name: "strict classes no priority maps to", edits: []edit{appendTo(spine02C,
			"nv set qos egress-scheduler default-global traffic-class 1,5,7 mode strict\n")}},
		{name: "a profile on some ports gives RoCE 40%", edits: []edit{appendTo(spine02C,
			"nv set qos egress-scheduler list2 traffic-class 3 mode dwrr\nnv set qos egress-scheduler list2 traffic-class 3 bw-percent 40\n"+
				"nv set qos egress-scheduler list2 traffic-class 0 mode dwrr\nnv set qos egress-scheduler list2 traffic-class 0 bw-percent 60\n"+
				"nv set qos egress-scheduler list2 traffic-class 6 mode strict\n"+
				"nv set interface swp5-8 qos egress-scheduler profile list2\n")},
			want: []string{"warning spine02 swp5-8"}, msg: "egress-scheduler profile list2"},
	}
})
