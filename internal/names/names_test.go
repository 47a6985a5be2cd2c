package names

import "testing"

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		netdev, ibdev, device, nvue bool
	}{
		{"ens1f0np0", true, true, true, true},
		{"mlx5_0", true, true, true, true},
		{"swp1-16", true, true, true, true},
		{"swp1-2,32", false, false, false, true},
		{"vlan10-v0", true, true, true, true},
		{"eth1.100", true, true, true, true},
		{"gpu01", true, true, true, true},
		{"0abc", true, true, true, false},             // NVUE names start with a letter
		{"abcdefghijklmnop", false, true, true, true}, // 16 bytes: over IFNAMSIZ-1
		{"eth0:1", false, false, false, false},        // dev_valid_name refuses ':'
		{"swp40;reboot", false, false, false, false},
		{"eth`id`", false, false, false, false},
		{"$(reboot)", false, false, false, false},
		{"-i", false, false, false, false},
		{".", false, false, false, false},
		{"..", false, false, false, false},
		{"_x", false, false, false, false},
		{"a b", false, false, false, false},
		{"a/b", false, false, false, false},
		{"", false, false, false, false},
		{"swp1\n", false, false, false, false},
		{"café", false, false, false, false},
	} {
		if got := Netdev(tc.name); got != tc.netdev {
			t.Errorf("Netdev(%q) = %v, want %v", tc.name, got, tc.netdev)
		}
		if got := IBDev(tc.name); got != tc.ibdev {
			t.Errorf("IBDev(%q) = %v, want %v", tc.name, got, tc.ibdev)
		}
		if got := Device(tc.name); got != tc.device {
			t.Errorf("Device(%q) = %v, want %v", tc.name, got, tc.device)
		}
		if got := NVUEInterface(tc.name); got != tc.nvue {
			t.Errorf("NVUEInterface(%q) = %v, want %v", tc.name, got, tc.nvue)
		}
	}
}

// TestNVUEPort: one interface, never a range or a list NVUE would expand
// into several views, and nothing a shell or nv would read as more than a
// name.
func TestNVUEPort(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"swp1", true},
		{"swp32s0", true},
		{"bond1", true},
		{"peerlink", true},
		{"uplink-a", true}, // a dash after a letter is no range
		{"bond_1.100", true},
		{"swp1-3", false},    // a range
		{"swp32s0-3", false}, // a range of split ports
		{"swp1,swp5", false}, // a list
		{"vlan10-v0", false},
		{"0swp", false},
		{"-swp1", false},
		{"swp1 qos", false},
		{"swp1;reboot", false},
		{"swp1\n", false},
		{"swp$(id)", false},
		{"abcdefghijklmnop", false}, // 16 bytes
		{"", false},
	} {
		if got := NVUEPort(tc.name); got != tc.ok {
			t.Errorf("NVUEPort(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
