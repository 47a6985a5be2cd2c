package checks

import (
	"strings"
	"testing"
)

// leaf02Status is that view as a port of leaf02 bound to its ROCE_ECN,
// ROCE_MAP and ROCE_PFC profiles shows it: ECN on traffic class 3 alone
// (ROCE_ECN lists only 3), mode lossless-single-ipool, and no reserved
// ingress pool ("combine lossy and lossless traffic on the same ingress
// buffer pool", the RoCE page's single shared buffer pool; the 5.18
// single-ipool `nv show qos roce` example lists none).
func leaf02Status(t testing.TB) string {
	t.Helper()
	s := string(loadBase(t)[spine01St("swp1")].Data)
	for _, r := range [][2]string{
		{"  enabled-tc        0,3      ", "  enabled-tc        3        "},
		{"mode                lossless                Roce Mode", "mode                lossless-single-ipool   Roce Mode"},
		{"    0   lossy-default-ingress  DYNAMIC  2        0,1,2,4,5,6,7      -  ", "    0   lossy-default-ingress  DYNAMIC  2        0,1,2,3,4,5,6,7    -  "},
		{"    1   roce-reserved-ingress  DYNAMIC  3        3                  -              15.16 MB  7.30 MB        7.90 MB\n", ""},
	} {
		if !strings.Contains(s, r[0]) {
			t.Fatalf("the status file lacks %q", r[0])
		}
		s = strings.Replace(s, r[0], r[1], 1)
	}
	return s
}

var _ = register(switchRoCEMode, func(t testing.TB) []checkCase {
	leaf02 := "devices/" + status("leaf02", "swp1")
	return []checkCase{
		{name: "every port's status agrees with its configuration"},
		{name: "a port trusts pcp", edits: []edit{replace(spine01St("swp5"), "trust-mode        pcp,dscp", "trust-mode        pcp     ")},
			want: []string{"warning spine01 swp5"}, msg: "the port reports trust-mode pcp but its configuration says pcp,dscp"},
		{name: "a port's PFC on another priority", edits: []edit{replace(spine01St("swp7"), "pfc-priority      3 ", "pfc-priority      4 ")},
			want: []string{"warning spine01 swp7"}, msg: "PFC on switch-priority 4"},
		{name: "a port's PFC rx off", edits: []edit{replace(spine01St("swp7"), "rx-enabled        yes", "rx-enabled        no ")},
			want: []string{"warning spine01 swp7"}, msg: "PFC rx disable"},
		{name: "a port's ECN classes", edits: []edit{replace(spine01St("swp8"), "enabled-tc        0,3", "enabled-tc        0  ")},
			want: []string{"warning spine01 swp8"}, msg: "ECN on traffic-class 0"},
		{name: "a port's mode", edits: []edit{replace(spine01St("swp9"), "mode                lossless    ", "mode                lossy       ")},
			want: []string{"warning spine01 swp9"}, msg: "the port runs RoCE lossy but its configuration says lossless"},
		{name: "a port's SP to TC row", edits: []edit{replace(spine01St("swp10"), "roce  3            3   ", "roce  3            0   ")},
			want: []string{"warning spine01 swp10"}, msg: "maps switch-priority 3 to traffic-class 0"},
		{name: "a port's scheduler weight", edits: []edit{replace(spine01St("swp10"), "dwrr-50%", "dwrr-30%")},
			want: []string{"warning spine01 swp10"}, msg: "schedules traffic-class 3 dwrr 30%"},
		{name: "a port's CNP queue not strict", edits: []edit{replace(spine01St("swp11"), "strict priority", "dwrr-50%       ")},
			want: []string{"warning spine01 swp11"}, msg: "schedules traffic-class 6 dwrr 50% but its configuration says strict"},
		{name: "a port's reserved ingress pool holds another priority", edits: []edit{replace(spine01St("swp12"),
			"roce-reserved-ingress  DYNAMIC  3        3     ", "roce-reserved-ingress  DYNAMIC  3        4     ")},
			want: []string{"warning spine01 swp12"}, msg: "pool roce-reserved-ingress holds switch-priorities 4, not 3"},
		{name: "a port's reserved egress pool holds another class", edits: []edit{replace(spine01St("swp12"),
			"roce-reserved-egress   DYNAMIC  14       -                  3   ", "roce-reserved-egress   DYNAMIC  14       -                  5   ")},
			want: []string{"warning spine01 swp12"}, msg: "pool roce-reserved-egress holds traffic-class 5, not 3"},
		{name: "a port without the lossless pools", edits: []edit{
			replace(spine01St("swp13"), "    1   roce-reserved-ingress  DYNAMIC  3        3                  -              15.16 MB  7.30 MB        7.90 MB\n", ""),
			replace(spine01St("swp13"), "    3   roce-reserved-egress   DYNAMIC  14       -                  3              inf       7.29 MB        13.47 MB\n", "")},
			want: []string{"warning spine01 swp13"}, msg: "the port has no RoCE lossless pool"},
		// "the interface-level command reflects the actual
		// hardware-programmed value": no rounding rule is published, so
		// a port's thresholds are never compared.
		{name: "a port's thresholds are the ASIC's, not compared", edits: []edit{
			replace(spine01St("swp14"), "min-threshold     153.00 KB", "min-threshold     99.00 KB "),
			replace(spine01St("swp14"), "max-threshold     1.43 MB  ", "max-threshold     2.00 MB  ")}},
		{name: "one port's status missing", edits: []edit{remove(spine01St("swp15"))},
			want: []string{"info spine01"}, msg: "roce-status/<port>.txt of swp15 not collected"},
		{name: "a port the switch does not check is not compared", edits: []edit{
			write(spine01St("swp40"), strings.Replace(string(loadBase(t)[spine01St("swp1")].Data), "trust-mode        pcp,dscp", "trust-mode        pcp     ", 1))}},
		// leaf02's ports are bound to its own profiles: ROCE_ECN enables
		// ECN on traffic class 3 alone, so the port must show 3, not the
		// 0,3 of default-global that its `nv show qos roce` prints.
		{name: "a port bound to profiles shows them", edits: []edit{write(leaf02, leaf02Status(t))},
			want: []string{"info leaf02"}, msg: "roce-status/<port>.txt of swp2-32 not collected"},
		{name: "a port bound to profiles shows default-global's ECN", edits: []edit{write(leaf02, strings.Replace(leaf02Status(t),
			"  enabled-tc        3        ", "  enabled-tc        0,3      ", 1))},
			want: []string{"warning leaf02 swp1", "info leaf02"}},
		{name: "single-ipool has no reserved ingress pool to compare", edits: []edit{write(leaf02, strings.Replace(leaf02Status(t),
			"0,1,2,3,4,5,6,7    -  ", "0,1,2,4,5,6,7      -  ", 1))},
			want: []string{"info leaf02"}},
	}
})

var _ = register(switchRoCEMode, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "lossy", edits: []edit{replace(leaf01Y, "mode: lossless", "mode: lossy"),
			replace(leaf01S, "mode                lossless     lossless", "mode                lossy        lossy")},
			// The edited show still prints pfc-priority 3 and the
			// roce-reserved pools of lossless mode: two drifts at their rows.
			want: []string{"error leaf01", "warning leaf01", "warning leaf01"}, msg: "RoCE mode is lossy"},
		{name: "off (5.14 enable off)", edits: []edit{replace(leaf01Y, "enable: on\n        mode", "enable: off\n        mode")},
			want: []string{"error leaf01", "warning leaf01"}, msg: "RoCE QoS is off"},
		{name: "absent", edits: []edit{replace(spine02C, "nv set qos roce mode lossless\nnv set qos roce state enabled\n", "")},
			// spine02's `nv show qos roce` still reports lossless: drift too.
			want: []string{"error spine02", "warning spine02"}},
		{name: "not applied", edits: []edit{replace(leaf01S, "mode                lossless     lossless", "mode                lossy        lossless")},
			want: []string{"warning leaf01"}, msg: "configuration not applied"},
		{name: "lossless-single-ipool is lossless", edits: []edit{}, want: nil},
	}
})
