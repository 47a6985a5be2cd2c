package preview

import "testing"

// A write reads back as the file then prints it: RDMA-CM's
// default_roce_mode its type and a newline (cma_configfs.c
// default_roce_mode_show), and it refuses anything else.
func TestSysfsContent(t *testing.T) {
	for _, tc := range []struct {
		base, value, want string
		ok                bool
	}{
		{"default_roce_mode", "RoCE v2", "RoCE v2\n", true},
		{"default_roce_mode", "IB/RoCE v1", "IB/RoCE v1\n", true},
		{"default_roce_mode", "2", "", false},
		{"traffic_class", "106", "Global tclass=106\n", true},
		{"3", "1", "1\n", true},
	} {
		got, err := sysfsContent(tc.base, tc.value)
		if (err == nil) != tc.ok || string(got) != tc.want {
			t.Errorf("sysfsContent(%s, %q) = %q, %v; want %q", tc.base, tc.value, got, err, tc.want)
		}
	}
}
