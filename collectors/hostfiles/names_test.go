package hostfiles

import (
	"strings"
	"testing"
)

// TestIBDev2NetdevRefusesUnsafeNames: a name the live audit would never
// send (internal/names) is an error at its line, never a NIC.
func TestIBDev2NetdevRefusesUnsafeNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		line int
		msg  string
	}{
		{"mlx5_0 port 1 ==> ens1f0np0 (Up)\nmlx5_1 port 1 ==> ens`id` (Up)\n", 2, "refused"},
		{"mlx5_0 port 1 ==> a;reboot (Down)\n", 1, "refused"},
		{"mlx5_0 port 1 <===> $(id)\n", 1, "refused"},
		{"mlx5_0 port 1 ==> eth0:1 (Up)\n", 1, "refused"},
		{"mlx5;0 port 1 ==> ens1f0np0 (Up)\n", 1, "bad ibdev name"},
	} {
		devs, err := ParseIBDev2Netdev("ib.txt", []byte(tc.in))
		if err == nil || devs != nil || !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "ib.txt:"+string(rune('0'+tc.line))+":") {
			t.Errorf("%q: %v %v, want an error at line %d saying %q", tc.in, devs, err, tc.line, tc.msg)
		}
	}
}
