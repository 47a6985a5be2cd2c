package checks

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/model"
)

// The packet trimming cases edit spine01 (CL 5.15 YAML, lossless RoCE,
// LLDP to leaf01 swp31 on swp1 and leaf02 swp31 on swp2) into a Spectrum-4
// that trims, with `nv show system forwarding packet-trim` in the layout
// of the docs' global-level example (CumulusNetworks/docs
// content/cumulus-linux-515/.../Packet-Trimming.md), its values changed to
// this configuration's.
var (
	spine01Trim   = dev("spine01", "nv-show-packet-trim.txt")
	spine01Remark = dev("spine01", "nv-show-qos-remark.txt")
	leaf01Trim    = dev("leaf01", "nv-show-packet-trim.txt")
)

func docFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("../collectors/nvue/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// trimShow is the global example as spine01's trimming shows it:
// size 256, switch priority 4 in traffic class 0 (lossless maps every
// priority but 3 and 6 there), traffic class 3 eligible on swp1-32.
func trimShow(t testing.TB, edits ...string) string {
	s := docFixture(t, "packet_trim_show_global.txt")
	s = strings.Replace(s, "size                       1024", "size                       256 ", 1)
	s = strings.Replace(s, "traffic-class              4", "traffic-class              0", 1)
	rows := "   1   swp2-16,18-32,34-48,50-64,swp1s0-1,swp17s0-1,swp33s0-1,swp49s0-1\n" +
		"   2   swp2-16,18-32,34-48,50-64,swp1s0-1,swp17s0-1,swp33s0-1,swp49s0-1\n" +
		"   3   swp2-16,18-32,34-48,50-64,swp1s0-1,swp17s0-1,swp33s0-1,swp49s0-1\n"
	if !strings.Contains(s, rows) {
		t.Fatal("fixture changed")
	}
	s = strings.Replace(s, rows, "   3   swp1-32\n", 1)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			t.Fatalf("show lacks %q", edits[i])
		}
		s = strings.Replace(s, edits[i], edits[i+1], 1)
	}
	return s
}

// sn5600 makes spine01 a Spectrum-4 ("NVIDIA SN5600 (Spectrum-4)").
func sn5600(file string) edit { return replace(file, "model: MSN4700", "model: SN5600") }

// trimCfg adds lines below system forwarding packet-trim (indented for
// it); trimPorts lines below interface swp1-32.
func trimCfg(lines string) edit {
	return replace(spine01Y, "      forwarding:\n", "      forwarding:\n        packet-trim:\n"+lines)
}

func trimSwp(lines string) edit {
	return replace(spine01Y, "        type: swp\n", lines+"        type: swp\n")
}

// trimBase is spine01 trimming cleanly: every check passes.
func trimBase(t testing.TB, showEdits ...string) []edit {
	return []edit{
		sn5600(spine01Y),
		trimCfg("          remark:\n            dscp: 11\n          service-port: swp65\n          size: 256\n          state: enabled\n          switch-priority: 4\n"),
		trimSwp("        packet-trim:\n          egress-eligibility:\n            traffic-class:\n              '3': {}\n"),
		write(spine01Trim, trimShow(t, showEdits...)),
	}
}

func plus(base []edit, more ...edit) []edit { return append(append([]edit(nil), base...), more...) }

var _ = register(packetTrim, func(t testing.TB) []checkCase {
	base := trimBase(t)
	return []checkCase{
		{name: "clean: no trimming"},
		{name: "trimming as documented", edits: base},
		{name: "the default profile adds RoCE's class 3", edits: plus(base, trimLine("          profile: packet-trim-default\n"),
			write(spine01Trim, trimShow(t, "profile                                 ", "profile                                 packet-trim-default",
				"   3   swp1-32", "   1   swp1-32\n   2   swp1-32\n   3   swp1-32")))},
		{name: "Spectrum-3", edits: base[1:], want: []string{"error spine01"}, msg: "supports packet trimming on Spectrum-4 and later"},
		{name: "platform unknown", edits: []edit{appendTo(spine02C, "nv set system forwarding packet-trim profile packet-trim-default\n")},
			// the show not collected, and no port: judged on none; the
			// model notes that the platform is not known
			want: []string{"info spine02"}},
		{name: "eligibility on a bond", edits: []edit{appendTo(spine02C,
			"nv set interface bond1 bond member swp31-32\nnv set interface bond1 packet-trim egress-eligibility traffic-class 3\n"+
				"nv set system forwarding packet-trim profile packet-trim-default\n")},
			want: []string{"error spine02 bond1", "info spine02"}, msg: "specify the bond slave ports"},
		{name: "a lossless RoCE class is paused, not trimmed", edits: plus(base[:2], trimSwp("        packet-trim:\n          egress-eligibility:\n            traffic-class:\n              '1': {}\n"),
			write(spine01Trim, trimShow(t, "   3   swp1-32", "   1   swp1-32")))},
		{name: "lossy RoCE class not eligible", edits: plus(base[:2], replace(spine01Y, "mode: lossless", "mode: lossy"), trimSwp("        packet-trim:\n          egress-eligibility:\n            traffic-class:\n              '1': {}\n"),
			write(spine01Trim, trimShow(t, "   3   swp1-32", "   1   swp1-32"))),
			want: []string{"warning spine01 swp1-32"}, msg: "RoCE's traffic-class 3 is not trim-eligible"},
		{name: "the default profile's classes do not hold RoCE's under lossy-multi-tc", edits: []edit{sn5600(spine01Y),
			replace(spine01Y, "mode: lossless", "mode: lossy-multi-tc"), write(spine01Trim, trimShow(t, "traffic-class              0", "traffic-class              4"))},
			// DSCP 26 → switch priority 4 → traffic class 4 (the trimmed
			// packets' own class), outside 1, 2, 3; the show's eligibility
			// is the configuration's on swp1-32 only where it differs.
			want: []string{"warning spine01 swp1-32", "warning spine01 swp1-32"}, msg: "RoCE's traffic-class 4 is not trim-eligible"},
		{name: "trimmed packets in a class scheduled 0%", edits: plus(base,
			replace(spine01Y, qosTop, qosTop+"      egress-queue-mapping:\n        default-global:\n          switch-priority:\n            '4':\n              traffic-class: 4\n"),
			write(spine01Trim, trimShow(t, "traffic-class              0", "traffic-class              4"))),
			want: []string{"warning spine01 swp1-32"}, msg: "DWRR 0%"},
		{name: "WJH buffer drops on 5.15", edits: plus(base, replace(spine01Y, "      hostname: spine01\n", "      hostname: spine01\n      wjh:\n        channel:\n          buffer:\n            trigger:\n              buffer: {}\n")),
			want: []string{"error spine01"}, msg: "WJH monitor buffer drops"},
		{name: "WJH buffer drops on 5.18 are not judged", edits: plus(base,
			replace(spine01Y, "Cumulus Linux 5.15.0", "Cumulus Linux 5.18.0"),
			replace(spine01Y, "      hostname: spine01\n", "      hostname: spine01\n      wjh:\n        channel:\n          buffer:\n            trigger:\n              buffer: {}\n"))},
		{name: "size differs", edits: plus(base, write(spine01Trim, trimShow(t, "size                       256 ", "size                       1024"))),
			want: []string{"warning spine01"}, msg: "size 1024 but its configuration says 256"},
		{name: "session down", edits: plus(base, write(spine01Trim, trimShow(t, "state                      enabled      enabled",
			"state                      disabled     enabled", "trimmed-packet-counters  166788", "trimmed-packet-counters  0\nsession-down-reason      Failed to create/update span session"))),
			want: []string{"warning spine01"}, msg: "session-down-reason: Failed to create/update span session"},
		{name: "eligibility not applied on swp32", edits: plus(base, write(spine01Trim, trimShow(t, "   3   swp1-32", "   3   swp1-31"))),
			want: []string{"warning spine01 swp32"}, msg: "eligibility traffic-class none on swp32"},
		{name: "show not collected", edits: base[:3], want: []string{"info spine01"}, msg: "not collected"},
	}
})

// portLevel turns spine01's trimming to port-level remark.
var portLevel = replace(spine01Y, "            dscp: 11\n", "            dscp: port-level\n")

// qosTop is the top-level qos key of the clean pod's YAML files, not an
// interface's.
const qosTop = "\n    qos:\n"

func remarkProfile(name, body string) edit {
	return replace(spine01Y, qosTop, qosTop+"      remark:\n        "+name+":\n"+body)
}

// bindRemark binds a remark profile on swp1-32, beside its pfc-watchdog.
func bindRemark(profile string) edit {
	return replace(spine01Y, "        qos:\n          pfc-watchdog:", "        qos:\n          remark:\n            profile: "+profile+"\n          pfc-watchdog:")
}

// trimLine adds one line below spine01's packet-trim (trimBase's).
func trimLine(line string) edit {
	return replace(spine01Y, "        packet-trim:\n          remark:", "        packet-trim:\n"+line+"          remark:")
}

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

var _ = register(packetTrimServicePort, func(t testing.TB) []checkCase {
	base := trimBase(t)
	svc := func(port string) edit {
		return replace(spine01Y, "          service-port: swp65\n", "          service-port: "+port+"\n")
	}
	return []checkCase{
		{name: "clean: no trimming"},
		{name: "service port with nothing on it", edits: base},
		{name: "service port in the RoCE range", edits: plus(base, svc("swp32")),
			want: []string{"error spine01 swp32", "error spine01 swp32"}, msg: "QoS is configured on the packet trimming service port swp32"},
		{name: "the service port the switch names", edits: plus(base, replace(spine01Y, "          service-port: swp65\n", ""),
			write(spine01Trim, trimShow(t, "service-port               swp65", "service-port               swp31"))),
			want: []string{"error spine01 swp31", "error spine01 swp31"}, msg: "QoS is configured on the packet trimming service port swp31"},
		{name: "port not known", edits: plus(base[:3], replace(spine01Y, "          service-port: swp65\n", "")),
			want: []string{"info spine01"}, msg: "not collected"},
		{name: "Spectrum-6", edits: plus(base, svc("swp32"), replace(spine01Y, "model: SN5600", "model: SN6600")),
			want: []string{"info spine01 swp32", "info spine01 swp32"}, msg: "not verified on a Spectrum-6"},
	}
})
