package memfs

import (
	"testing"
	"testing/fstest"
)

func TestFS(t *testing.T) {
	m := New(map[string][]byte{
		"devices/leaf01/nv-config.yaml":                           []byte("- set: {}\n"),
		"devices/gpu01/sysfs/class/net/eth0/ecn/roce_np/enable/3": []byte("1\n"),
		"devices/gpu01/empty":                                     nil,
		"../escape":                                               []byte("x"),
	})
	// fstest.TestFS checks every fs interface against the files it lists.
	if err := fstest.TestFS(m, "devices/leaf01/nv-config.yaml", "devices/gpu01/sysfs/class/net/eth0/ecn/roce_np/enable/3", "devices/gpu01/empty"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Open("../escape"); err == nil {
		t.Error("an invalid path was kept")
	}
	if es, err := New(nil, "devices").ReadDir("devices"); err != nil || len(es) != 0 {
		t.Errorf("an empty listed directory: %v %v", es, err)
	}
}
