package offline

import (
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRoceStatusFolder: each roce-status/<port>.txt is read and parsed;
// a file that is not one port's view is an input error at its line, that
// port is marked unreadable, and the other ports are still read.
func TestRoceStatusFolder(t *testing.T) {
	doc, err := os.ReadFile("../nvue/testdata/roce_status_515.txt") // has the prompt: swp16
	if err != nil {
		t.Fatal(err)
	}
	view := doc[strings.IndexByte(string(doc), '\n')+1:]
	global, err := os.ReadFile("../../examples/clean-pod/devices/spine01/nv-show-qos-roce.txt")
	if err != nil {
		t.Fatal(err)
	}
	const dir = "devices/leaf01/roce-status/"
	fsys := fstest.MapFS{
		"devices/leaf01/nv-config-commands.txt": {Data: []byte("nv set qos roce mode lossless\n")},
		dir + "swp1.txt":                        {Data: view},
		dir + "swp16.txt":                       {Data: doc},
		dir + "swp2.txt":                        {Data: doc},    // swp16's output
		dir + "swp3.txt":                        {Data: global}, // nv show qos roce
		dir + "swp4.txt":                        {Data: []byte("Error: The requested item does not exist.\n")},
		dir + "swp1-4.txt":                      {Data: view},
		dir + "notes.md":                        {Data: []byte("x")},
		dir + "old/swp1.txt":                    {Data: view},
		"devices/leaf02/x.txt":                  {Data: []byte("x")},
		"devices/leaf03/x.txt":                  {Data: []byte("x")},
		"devices/gpu01/x.txt":                   {Data: []byte("x")},
		"devices/gpu02/x.txt":                   {Data: []byte("x")},
		"devices/leaf02/y/z.txt":                {Data: []byte("x")},
	}
	c := CollectFS(fsys, inv(t))
	var errs []string
	for _, e := range c.Errors {
		if e.Device == "leaf01" && strings.HasPrefix(e.File, dir) {
			errs = append(errs, e.Error())
		}
	}
	slices.Sort(errs)
	want := []string{
		"leaf01: " + dir + "notes.md: not a port's status: roce-status holds one <port>.txt per port, the output of `nv show interface <port> qos roce status`",
		"leaf01: " + dir + "old: not a port's status: roce-status holds one <port>.txt per port, the output of `nv show interface <port> qos roce status`",
		"leaf01: " + dir + `swp1-4.txt: port "swp1-4" in the file name refused: want a single NVUE interface: a Linux interface name that starts with a letter and names no range, so no '-' after a digit`,
		"leaf01: " + dir + "swp2.txt:1: the output is `nv show interface swp16 qos roce status`, not swp2's",
		"leaf01: " + dir + "swp3.txt:3: `enable` is a row of `nv show qos roce`, not of `nv show interface swp3 qos roce status`",
		"leaf01: " + dir + "swp4.txt:1: not `nv show qos roce` output, nor `nv show interface <if> qos roce status`: no leaf table and no RoCE section",
	}
	if !slices.Equal(errs, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
	var sc = c.Switches[0]
	if sc.Name != "leaf01" {
		t.Fatalf("first switch %s", sc.Name)
	}
	var ports []string
	for p := range sc.RoceStatus {
		ports = append(ports, p)
	}
	slices.Sort(ports)
	if !slices.Equal(ports, []string{"swp1", "swp16", "swp2", "swp3", "swp4"}) {
		t.Errorf("ports %q", ports)
	}
	for _, p := range []string{"swp2", "swp3", "swp4"} {
		if sc.RoceStatus[p] != nil {
			t.Errorf("%s read although its file is not its view", p)
		}
	}
	if s := sc.RoceStatus["swp1"]; s == nil || !s.PerInterface || s.File != dir+"swp1.txt" || len(s.Pools) != 4 {
		t.Errorf("swp1 = %+v", s)
	}
	if s := sc.RoceStatus["swp16"]; s == nil || s.Interface != "swp16" {
		t.Errorf("swp16 = %+v", s)
	}
	// The other switches have no folder: a note each, and a nil map.
	notes := 0
	for _, n := range c.Notes {
		if strings.Contains(n.Error(), "roce-status not collected") {
			notes++
		}
	}
	for _, s := range c.Switches[1:] {
		if s.RoceStatus != nil {
			t.Errorf("%s: %v", s.Name, s.RoceStatus)
		}
	}
	if notes != len(c.Switches)-1 {
		t.Errorf("%d roce-status notes for %d switches without the folder", notes, len(c.Switches)-1)
	}
}

// TestRoceStatusSameText: ports that print the same text share one parse,
// each under its own file's name; a text that fails fails at each file.
func TestRoceStatusSameText(t *testing.T) {
	doc, err := os.ReadFile("../nvue/testdata/roce_status_515.txt")
	if err != nil {
		t.Fatal(err)
	}
	view := doc[strings.IndexByte(string(doc), '\n')+1:]
	bad := []byte("Error: The requested item does not exist.\n")
	const dir = "devices/leaf01/roce-status/"
	fsys := fstest.MapFS{
		"devices/leaf01/nv-config-commands.txt": {Data: []byte("nv set qos roce mode lossless\n")},
		dir + "swp1.txt":                        {Data: view},
		dir + "swp2.txt":                        {Data: view},
		dir + "swp3.txt":                        {Data: bad},
		dir + "swp4.txt":                        {Data: bad},
	}
	c := CollectFS(fsys, inv(t))
	st := c.Switches[0].RoceStatus
	a, b := st["swp1"], st["swp2"]
	if a == nil || b == nil || a.File != dir+"swp1.txt" || b.File != dir+"swp2.txt" || a.Leaves["mode"] != b.Leaves["mode"] || a.Leaves["mode"].Line == 0 {
		t.Fatalf("swp1 %+v\nswp2 %+v", a, b)
	}
	var errs []string
	for _, e := range c.Errors {
		if strings.HasPrefix(e.File, dir) {
			errs = append(errs, e.File)
		}
	}
	if !slices.Equal(errs, []string{dir + "swp3.txt", dir + "swp4.txt"}) {
		t.Errorf("errors at %q, want swp3's and swp4's", errs)
	}
}
