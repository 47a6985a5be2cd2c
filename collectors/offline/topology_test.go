package offline

import (
	"testing"
	"testing/fstest"
)

// TestCollectTopology: topology.dot at the root is read when present, an
// error names its line, and its absence is no error and no note.
func TestCollectTopology(t *testing.T) {
	base := fstest.MapFS{"devices/leaf01/nv-config-commands.txt": {Data: []byte("nv set qos roce mode lossless\n")}}
	c := CollectFS(base, inv(t))
	if c.Topology != nil {
		t.Errorf("topology %+v without topology.dot", c.Topology)
	}
	for _, n := range c.Notes {
		if n.Pos.File == "topology.dot" {
			t.Errorf("note about the absent topology.dot: %v", n)
		}
	}
	good := fstest.MapFS{"topology.dot": {Data: []byte("graph G {\n  \"leaf01\":\"swp1\" -- \"gpu01\":\"ens1f0np0\";\n}\n")}}
	for k, v := range base {
		good[k] = v
	}
	c = CollectFS(good, inv(t))
	if c.Topology == nil || len(c.Topology.Edges) != 1 || c.Topology.Edges[0].Line != 2 || c.Topology.File != "topology.dot" {
		t.Fatalf("topology %+v", c.Topology)
	}
	good["topology.dot"] = &fstest.MapFile{Data: []byte("graph G {\n  \"leaf01\" -- \"gpu01\":\"ens1f0np0\";\n}\n")}
	c = CollectFS(good, inv(t))
	var found bool
	for _, e := range c.Errors {
		if e.Error() == `topology.dot:2: edge leaf01 -- gpu01: PTM needs "node":"port" at both ends` {
			found = true
		}
	}
	if c.Topology != nil || !found {
		t.Errorf("topology %+v, errors %v", c.Topology, c.Errors)
	}
}
