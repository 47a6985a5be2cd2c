package checks

import (
	"github.com/qoslint/qoslint/checks/judge"

	"strings"
	"testing"
)

// One finding per device lists every missing input and each check it
// would have fed, however many checks skipped it.
func TestNotCollectedMerged(t *testing.T) {
	f := fabric(t, remove(dev("gpu01", "mlnx_qos-ens1f0np0.txt")), remove(dev("gpu01", "ip-link.json")),
		// `mlnx_qos -i ens1f0np0 | grep -v prio:` style: trust dscp, no block.
		write(dev("gpu02", "mlnx_qos-ens1f0np0.txt"), "DCBX mode: OS controlled\nPriority trust state: dscp\nCable len: 7\nPFC configuration:\n"+
			"\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0\n"))
	var got []string
	for _, fd := range Run(f) {
		if fd.Severity == judge.Info {
			got = append(got, fd.Check+" "+fd.Device+": "+fd.Message)
		}
	}
	want := []string{
		"not-collected gpu01: mlnx_qos-ens1f0np0.txt not collected: host-trust (trust), host-dscp-map (dscp2prio), host-pfc (PFC), host-ets (ETS) not checked; ip-link.json not collected: mtu (host MTU) not checked",
		"not-collected gpu02: dscp2prio block of mlnx_qos-ens1f0np0.txt not collected: host-dscp-map (dscp2prio) not checked",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// not-collected has no rule of its own: its cases run every check and keep
// the merged finding.
var _ = register(NotCollected, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "mlnx_qos and ip-link missing", edits: []edit{remove(dev("gpu01", "mlnx_qos-ens1f0np0.txt")), remove(dev("gpu01", "ip-link.json"))},
			want: []string{"info gpu01"}, msg: "mlnx_qos-ens1f0np0.txt not collected: host-trust (trust), host-dscp-map (dscp2prio), host-pfc (PFC), host-ets (ETS) not checked"},
	}
})
