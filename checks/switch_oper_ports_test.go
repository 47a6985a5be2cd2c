package checks

import (
	"strings"
	"testing"
)

// The per-port cases edit spine01's roce-status/<port>.txt, the CL 5.15
// RoCE page's `nv show interface swp16 qos roce status` as collected (no
// prompt), which matches spine01's plain `qos roce` lossless configuration.
func status(dev, port string) string { return dev + "/roce-status/" + port + ".txt" }

var spine01St = func(port string) string { return "devices/" + status("spine01", port) }

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

var _ = register(switchDSCPMap, func(t testing.TB) []checkCase {
	return []checkCase{
		{name: "every port's roce and cnp rows agree"},
		{name: "a port's roce row", edits: []edit{replace(spine01St("swp5"), "roce  3    26    3", "roce  3    26    0")},
			want: []string{"warning spine01 swp5"}, msg: "the port maps DSCP 26 to switch-priority 0 but its configuration says 3"},
		{name: "a port's cnp row", edits: []edit{replace(spine01St("swp6"), "cnp   6    48    6", "cnp   6    48    0")},
			want: []string{"warning spine01 swp6"}, msg: "maps DSCP 48 to switch-priority 0"},
		{name: "a port's status missing", edits: []edit{remove(spine01St("swp32"))},
			want: []string{"info spine01"}, msg: "of swp32 not collected"},
		// A mapping profile bound on swp5-8 moves 26 to priority 1: those
		// ports' roce rows must show 1, the others keep default-global's 3.
		{name: "a profile bound on some ports, applied", edits: append(spine01EdgeMap(),
			applied("swp5"), applied("swp6"), applied("swp7"), applied("swp8")),
			want: []string{"error spine01 swp5-8"}},
		{name: "a profile bound on some ports, not applied on one", edits: append(spine01EdgeMap(),
			applied("swp5"), applied("swp6"), applied("swp8")),
			want: []string{"error spine01 swp5-8", "warning spine01 swp7"}, msg: "DSCP 26 maps to switch-priority 1"},
	}
})

// spine01EdgeMap binds a mapping profile moving DSCP 26 to switch priority 1
// on spine01's swp5-8.
func spine01EdgeMap() []edit {
	y := dev("spine01", "nv-config.yaml")
	return []edit{
		replace(y, "    interface:\n", "    interface:\n      swp5-8:\n        qos:\n          mapping:\n            profile: edge\n"),
		replace(y, "    qos:\n      roce:\n", "    qos:\n      mapping:\n        edge:\n          dscp:\n            '26':\n              switch-priority: 1\n      roce:\n"),
	}
}

// applied is a port's status after spine01EdgeMap took effect.
func applied(port string) edit {
	return replace(spine01St(port), "roce  3    26    3", "roce  3    26    1")
}

// Each disagreement of a port's status is anchored at its own row of that
// port's file and names the port.
func TestOperPortRows(t *testing.T) {
	for _, c := range []struct {
		name, port, old, new, msg string
		check                     *Check
		line                      int
	}{
		{"ECN classes", "swp3", "enabled-tc        0,3", "enabled-tc        3  ", "ECN on traffic-class 3", switchRoCEMode, 5},
		{"PFC priority", "swp3", "pfc-priority      3 ", "pfc-priority      2 ", "PFC on switch-priority 2", switchRoCEMode, 14},
		{"trust", "swp4", "trust-mode        pcp,dscp", "trust-mode        dscp    ", "trust-mode dscp", switchRoCEMode, 18},
		{"mode", "swp4", "mode                lossless    ", "mode                lossy       ", "runs RoCE lossy", switchRoCEMode, 19},
		{"cnp ETS row", "swp20", "cnp   6            6 ", "cnp   6            0 ", "switch-priority 6 to traffic-class 0", switchRoCEMode, 32},
		{"pool row", "swp21", "roce-reserved-egress   DYNAMIC  14       -                  3   ", "roce-reserved-egress   DYNAMIC  14       -                  0,6 ", "traffic-class 0,6, not 3", switchRoCEMode, 42},
		{"DSCP row", "swp22", "cnp   6    48    6", "cnp   6    48    3", "DSCP 48 to switch-priority 3", switchDSCPMap, 25},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := spine01St(c.port)
			fs := c.check.Run(fabric(t, replace(file, c.old, c.new)))
			if len(fs) != 1 || fs[0].Interface != c.port || fs[0].Source.File != file || fs[0].Source.Line != c.line ||
				!strings.Contains(fs[0].Message, c.msg) || fs[0].Severity != Warning {
				t.Fatalf("findings %+v", fs)
			}
		})
	}
}
