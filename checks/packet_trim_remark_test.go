package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/model"
)

var _ = register(packetTrimRemark, func(t testing.TB) []checkCase {
	base := trimBase(t)
	show := func(edits ...string) edit { return write(spine01Trim, trimShow(t, edits...)) }
	plShow := show("dscp                     11", "dscp                     port-level")
	// rows adds the port-level remark rows in the layout of the docs'
	// port-level example.
	rows := func(profile, dscp string) edit {
		return show("dscp                     11", "dscp                     port-level",
			"No Data", "    Profile                       Interface  SP  DSCP\n    ----------------------------  ---------  --  ----\n"+
				fmt.Sprintf("    %-28s  %-9s  %-2s  %s", profile, "swp1", "4", dscp))
	}
	def := trimLine("          profile: packet-trim-default\n")
	sp4 := "          switch-priority:\n            '4':\n              dscp: 11\n"
	return []checkCase{
		{name: "clean: no trimming"},
		{name: "global remark", edits: base},
		{name: "port level, profiles bound", edits: plus(base, portLevel, rows("net", "11"), remarkProfile("net", sp4), bindRemark("net"),
			write(spine01Remark, "Profile  Rewrite  Summary\n-------  -------  -------------------------------------\nnet               SP->PCP/DSCP mapping configuration: 4\n"))},
		{name: "port level without profiles", edits: plus(base, portLevel, plShow),
			want: []string{"warning spine01 swp1-32"}, msg: "has no qos remark profile"},
		{name: "port level with the default profile: the documented profile per neighbour", edits: plus(base, portLevel, plShow, def,
			write(spine01Remark, docFixture(t, "qos_remark_show_lossy_multi_tc.txt"))),
			// swp3-32: spine01's lldp.json shows nothing cabled there, info.
			want: []string{"warning spine01 swp1-2", "info spine01 swp3-32"}, msg: "towards a switch: lossy-multi-tc-network-group"},
		{name: "host-group towards the leaves", edits: plus(base, portLevel, rows(model.RemarkHostGroup, "21"), def, bindRemark(model.RemarkHostGroup),
			write(spine01Remark, docFixture(t, "qos_remark_show_lossy_multi_tc.txt"))),
			want: []string{"warning spine01 swp1-2"}, msg: "faces a switch"},
		{name: "rewrite set", edits: plus(base, portLevel, rows("net", "11"), remarkProfile("net", "          rewrite: l3\n"+sp4), bindRemark("net"),
			write(spine01Remark, "Profile  Rewrite  Summary\n-------  -------  -------------------------------------\nnet      l3       SP->PCP/DSCP mapping configuration: 4\n")),
			want: []string{"warning spine01 swp1-32"}, msg: "Do not configure the rewrite type"},
		{name: "profile without the trimmed priority", edits: plus(base, portLevel, rows("net", "11"),
			remarkProfile("net", "          switch-priority:\n            '3':\n              dscp: 11\n"), bindRemark("net"),
			write(spine01Remark, "Profile  Rewrite  Summary\n-------  -------  -------------------------------------\nnet               SP->PCP/DSCP mapping configuration: 3\n")),
			want: []string{"warning spine01 swp1-32"}, msg: "maps no DSCP for switch-priority 4"},
		{name: "profile not defined", edits: plus(base, portLevel, rows("nope", "11"), bindRemark("nope")),
			want: []string{"warning spine01 swp1-32"}, msg: "not defined"},
		{name: "remark DSCP lands in a class leaf01 schedules 0%", edits: plus(base,
			replace(spine01Y, "            dscp: 11\n", "            dscp: 32\n"), show("dscp                     11", "dscp                     32"),
			replace(leaf01Y, qosTop, qosTop+"      egress-queue-mapping:\n        default-global:\n          switch-priority:\n            '4':\n              traffic-class: 4\n")),
			want: []string{"warning spine01 swp1"}, msg: "leaf01:swp31 classifies to switch-priority 4, traffic-class 4"},
		{name: "the documented profiles on a leaf: host-group down, network-group up", edits: []edit{sn5600(leaf01Y),
			replace(leaf01Y, "mode: lossless", "mode: lossy-multi-tc"),
			replace(leaf01Y, "      forwarding:\n", "      forwarding:\n        packet-trim:\n          remark:\n            dscp: port-level\n"),
			replace(leaf01Y, "      swp1-16:\n        description: rail0-gpu-downlinks\n",
				"      swp1-16:\n        description: rail0-gpu-downlinks\n      swp1-30:\n        qos:\n          remark:\n            profile: lossy-multi-tc-host-group\n"),
			replace(leaf01Y, "      swp31:\n        description: uplink-spine01\n      swp32:\n        description: uplink-spine02\n",
				"      swp31-32:\n        qos:\n          remark:\n            profile: lossy-multi-tc-network-group\n      swp31:\n        description: uplink-spine01\n      swp32:\n        description: uplink-spine02\n"),
			write(leaf01Trim, strings.Replace(docFixture(t, "packet_trim_show_port_level.txt"), "swp1s0     4   21  \n    lossy-multi-tc-network-group  swp33s0    4   11",
				"swp1       4   21  \n    lossy-multi-tc-network-group  swp31      4   11", 1)),
			write(dev("leaf01", "nv-show-qos-remark.txt"), docFixture(t, "qos_remark_show_lossy_multi_tc.txt"))}},
		{name: "CL 5.14 lossy-multi-tc without bindings is not verified", edits: []edit{sn5600(leaf01Y),
			replace(leaf01Y, "mode: lossless", "mode: lossy-multi-tc"),
			replace(leaf01Y, "      forwarding:\n", "      forwarding:\n        packet-trim:\n          remark:\n            dscp: port-level\n"),
			write(leaf01Trim, docFixture(t, "packet_trim_show_port_level.txt")),
			write(dev("leaf01", "nv-show-qos-remark.txt"), docFixture(t, "qos_remark_show_lossy_multi_tc.txt"))},
			// the swp1s0/swp33s0 rows of the docs' example name ports this
			// leaf does not bind
			// and, per neighbour, the profile the port would need
			want: []string{"warning leaf01 swp1s0", "warning leaf01 swp33s0", "info leaf01 swp1-4", "info leaf01 swp5-30", "info leaf01 swp31-32"}, msg: "binds none there"},
		{name: "remark row differs", edits: plus(base, portLevel, remarkProfile("net", sp4), bindRemark("net"), rows("net", "12"),
			write(spine01Remark, "Profile  Rewrite  Summary\n-------  -------  -------------------------------------\nnet               SP->PCP/DSCP mapping configuration: 4\n")),
			want: []string{"warning spine01 swp1"}, msg: "remarks switch-priority 4 to DSCP 12 on swp1 but its configuration says 11"},
		{name: "a profile the configuration lacks", edits: plus(base,
			write(spine01Remark, docFixture(t, "qos_remark_show_lossy_multi_tc.txt"))),
			want: []string{"warning spine01", "warning spine01"}, msg: "does not define it"},
		{name: "remark show not collected", edits: plus(base, portLevel, rows("net", "11"), remarkProfile("net", sp4), bindRemark("net")),
			want: []string{"info spine01"}, msg: "not collected"},
	}
})
