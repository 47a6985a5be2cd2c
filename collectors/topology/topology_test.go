package topology

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// ptmBasic is the shape of the "Basic Topology Example" of the PTM page
// (CumulusNetworks/docs, content/cumulus-linux-510/Monitoring-and-Troubleshooting/
// Network-Troubleshooting/Prescriptive-Topology-Manager-PTM.md), with our
// own names.
const ptmBasic = `graph G {
    "spine01":"swp1" -- "leaf01":"swp31";
    "spine01":"swp2" -- "leaf02":"swp31";
    "leaf01":"swp1" -- "gpu01":"ens1f0np0";
}
`

// ptmParams has the page's host-only, global and per-port parameters
// ("Configuration Parameters"), statements without ";".
const ptmParams = `graph G {
          hostnametype="hostname"
          LLDP=""
          BFD="upMinTx=300,requiredMinRx=100"
          BFD1="upMinTx=200,requiredMinRx=200"
          "leaf01":"swp31" -- "spine01.example.com":"swp1" [BFD="bfdtmpl=BFD1", LLDP="lldptmpl=LLDP1"]
          "leaf01":"swp32" -- "spine02":"swp1"
}`

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []Edge
	}{
		{"ptm basic", ptmBasic, []Edge{
			{A: Endpoint{"spine01", "swp1"}, B: Endpoint{"leaf01", "swp31"}, Line: 2},
			{A: Endpoint{"spine01", "swp2"}, B: Endpoint{"leaf02", "swp31"}, Line: 3},
			{A: Endpoint{"leaf01", "swp1"}, B: Endpoint{"gpu01", "ens1f0np0"}, Line: 4}}},
		{"ptm parameters", ptmParams, []Edge{
			{A: Endpoint{"leaf01", "swp31"}, B: Endpoint{"spine01.example.com", "swp1"}, Line: 6},
			{A: Endpoint{"leaf01", "swp32"}, B: Endpoint{"spine02", "swp1"}, Line: 7}}},
		{"bare IDs, comments, node and attribute statements",
			"# plan\nstrict graph pod {\n  // leaves\n  node [shape=box]\n  leaf01; /* a\nnode */ leaf01:swp1 -- gpu01:ens1f0np0:n\n}\n",
			[]Edge{{A: Endpoint{"leaf01", "swp1"}, B: Endpoint{"gpu01", "ens1f0np0"}, Line: 6}}},
		{"digraph", `digraph { "a":"p1" -> "b":"p2" }`, []Edge{{A: Endpoint{"a", "p1"}, B: Endpoint{"b", "p2"}, Line: 1}}},
		{"empty graph", "graph G {}", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("topology.dot", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Edges, tc.want) {
				t.Errorf("edges %+v, want %+v", got.Edges, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, msg string
		line          int
	}{
		{"no graph", "leaf01:swp1 -- gpu01:eth1", "expected a DOT graph", 1},
		{"not closed", "graph G {\n \"a\":\"p\" -- \"b\":\"q\"\n", "graph not closed", 2},
		{"no port", "graph G {\n\n \"a\" -- \"b\":\"q\"\n}", "PTM needs \"node\":\"port\" at both ends", 3},
		{"port twice", "graph G {\n \"a\":\"p\" -- \"b\":\"q\"\n \"c\":\"r\" -- \"a\":\"p\"\n}", "port a:p is already cabled at line 2", 3},
		{"loop", "graph G {\n \"a\":\"p\" -- \"a\":\"p\"\n}", "joins a:p to itself", 2},
		{"wrong edge op", "graph G {\n \"a\":\"p\" -> \"b\":\"q\"\n}", "does not match the graph type", 2},
		{"open string", "graph G {\n \"a\":\"p -- b\n}", "string not closed", 2},
		{"open comment", "graph G {\n/* x\n}", "comment /* not closed", 2},
		{"open attributes", "graph G {\n \"a\":\"p\" -- \"b\":\"q\" [BFD=\"x\"\n}", "attribute list [ not closed", 2},
		{"subgraph", "graph G {\n subgraph s { }\n}", "subgraph is not supported", 2},
		{"bad char", "graph G {\n leaf-01:swp1 -- b:q\n}", "unexpected character", 2},
		{"trailing", "graph G { }\n}", "after the graph's closing }", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("topology.dot", []byte(tc.in))
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *source.Error", err)
			}
			if se.Pos.File != "topology.dot" || se.Pos.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("got %s:%d: %s, want line %d: %s", se.Pos.File, se.Pos.Line, se.Msg, tc.line, tc.msg)
			}
		})
	}
}

// FuzzParse: any input gives edges with both ends named, or a
// *source.Error at a line of the input; never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{ptmBasic, ptmParams, "graph G {}", `digraph { "a":"p1" -> "b":"p2" }`,
		"# c\nstrict graph g { node [x=1]; a; /* c */ a:p -- b:q:n -- c:r [k=\"v\\\"\"] }"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tp, err := Parse("topology.dot", data)
		if err != nil {
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("not a *source.Error: %v", err)
			}
			if n := 1 + countLines(data); se.Pos.Line < 1 || se.Pos.Line > n {
				t.Fatalf("line %d outside the input (%d lines)", se.Pos.Line, n)
			}
			return
		}
		for _, e := range tp.Edges {
			if e.A.Node == "" || e.A.Port == "" || e.B.Node == "" || e.B.Port == "" || e.Line < 1 {
				t.Fatalf("incomplete edge %+v", e)
			}
		}
	})
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
