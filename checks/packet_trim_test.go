package checks

import (
	"os"
	"strings"
	"testing"
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
