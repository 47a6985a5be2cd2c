package offline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/collectors/capture"
	"github.com/qoslint/qoslint/internal/layout"
)

// Both configuration forms of one switch: saying the same thing, the YAML
// is read and nothing is said; the command form unreadable, its line is
// the error.
func TestBothConfigurationForms(t *testing.T) {
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("../nvue/testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	fsys := fstest.MapFS{
		"devices/leaf01/nv-config.yaml":         {Data: read("roce_514.yaml")},
		"devices/leaf01/nv-config-commands.txt": {Data: read("roce_514.commands")},
		"devices/leaf02/nv-config.yaml":         {Data: read("roce_515.yaml")},
		"devices/leaf02/nv-config-commands.txt": {Data: append(read("roce_515.commands"), "nv set qos roce mode 'lossy\n"...)},
	}
	i := inv(t)
	i.Switches, i.Hosts = i.Switches[:2], nil
	c := CollectFS(fsys, i)
	var errs []string
	for _, e := range c.Errors {
		errs = append(errs, e.Error())
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "leaf02: devices/leaf02/nv-config-commands.txt:") {
		t.Errorf("errors:\n%s", strings.Join(errs, "\n"))
	}
	for _, sc := range c.Switches {
		if sc.Config == nil || sc.Config.Format != "yaml" {
			t.Errorf("%s: not read from the YAML", sc.Name)
		}
	}
	for _, n := range c.Notes {
		if strings.Contains(n.File, layout.NVUECommandsFile) {
			t.Errorf("a note about the unread command form: %v", n)
		}
	}
}

// A capture's manifest is checked before the devices are read: a failed
// device is one error with its cause and is not read (no "folder not
// found"), the others are read.
func TestCollectWithManifest(t *testing.T) {
	m := &capture.Manifest{Schema: capture.Schema, Version: "v0", Started: "2025-01-01T00:00:00Z", Finished: "2025-01-01T00:00:09Z",
		Devices: []capture.Device{
			{Name: "leaf01", Kind: "switch", Status: capture.StatusComplete, Files: []capture.Entry{
				capture.NewEntry("devices/leaf01/nv-config-commands.txt", "nv config show -o commands", []byte("nv set qos roce mode lossless\n")),
			}},
			{Name: "leaf02", Kind: "switch", Status: capture.StatusFailed, Cause: "dial tcp 192.0.2.12:22: connection refused"},
		}}
	data, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		layout.CaptureFile:                      {Data: data},
		"devices/leaf01/nv-config-commands.txt": {Data: []byte("nv set qos roce mode lossless\n")},
	}
	i := inv(t)
	i.Switches, i.Hosts = i.Switches[:2], nil
	c := CollectFS(fsys, i)
	if len(c.Errors) != 1 || c.Errors[0].Error() != "leaf02: .qoslint/capture.json:24: not collected: dial tcp 192.0.2.12:22: connection refused; the device is not checked" {
		t.Errorf("errors %v", c.Errors)
	}
	if len(c.Switches) != 1 || c.Switches[0].Name != "leaf01" || c.Switches[0].Config == nil {
		t.Errorf("switches %+v", c.Switches)
	}
}
