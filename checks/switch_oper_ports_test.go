package checks

import (
	"github.com/qoslint/qoslint/checks/judge"

	"strings"
	"testing"
)

// The per-port cases edit spine01's roce-status/<port>.txt, the CL 5.15
// RoCE page's `nv show interface swp16 qos roce status` as collected (no
// prompt), which matches spine01's plain `qos roce` lossless configuration.
func status(dev, port string) string { return dev + "/roce-status/" + port + ".txt" }

var spine01St = func(port string) string { return "devices/" + status("spine01", port) }

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
				!strings.Contains(fs[0].Message, c.msg) || fs[0].Severity != judge.Warning {
				t.Fatalf("findings %+v", fs)
			}
		})
	}
}
