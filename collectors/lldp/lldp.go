// Package lldp reads what lldpd saw on each port: the output of
// `lldpcli -f json0 show neighbors details`, or of its `-f json` form.
//
// Both shapes are lldpd's json writer (lldpd/lldpd src/client/json_writer.c),
// checked against lldpd's own integration test
// (lldpd/lldpd tests/integration/test_lldpcli.py, test_json0_output and
// test_json_output):
//
//   - json0 keeps every element a list and every leaf an object:
//     {"lldp":[{"interface":[{"name":"eth0","via":"LLDP","rid":"1",
//     "chassis":[{"id":[{"type":"mac","value":"..."}],"name":[{"value":"ns-2"}],...}],
//     "port":[{"id":[{"type":"mac","value":"..."}],"descr":[{"value":"eth1"}],"ttl":[{"value":"120"}]}]}]}]}
//   - json (json_element_cleanup) collapses a one-element list into its
//     element and a {"value": x} object into x, and moves an object with a
//     string "name" under a new object keyed by that name:
//     {"lldp":{"interface":{"eth0":{"via":"LLDP","chassis":{"ns-2":{"id":{"type":"mac","value":"..."},...}},
//     "port":{"id":{...},"descr":"eth1","ttl":"120"}}}}}; with several
//     neighbours "interface" stays a list of such one-key objects.
//
// An interface element is one neighbour (src/client/display.c
// display_interfaces prints one per remote port), so a port may appear
// more than once.
package lldp

import (
	"sort"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// Neighbor is one remote system seen on a local port.
type Neighbor struct {
	// Interface is the local port the neighbour was seen on.
	Interface string
	Via       string // LLDP, CDPv1, CDPv2, EDP, FDP, SONMP
	// ChassisIDType and ChassisID are the chassis ID TLV ("mac",
	// "ifname", "local", ... as src/lib/atoms/chassis.c names them);
	// SysName the system name, "" when the neighbour sent none (ConnectX
	// firmware LLDP sends none).
	ChassisIDType, ChassisID string
	SysName                  string
	// PortIDType and PortID are the port ID TLV ("mac", "ifname",
	// "local", ... as src/lib/atoms/port.c names them); PortDescr the port
	// description, "" when absent. lldpd advertises the MAC as port ID
	// and the ifname as description unless `configure lldp portidsubtype
	// ifname` (src/daemon/interfaces.c interfaces_helper_port_name_desc).
	PortIDType, PortID string
	PortDescr          string
	// Line is where the neighbour's interface element starts.
	Line int
}

// Neighbors is one lldp.json.
type Neighbors struct {
	File      string
	Neighbors []Neighbor
}

// Parse reads `lldpcli -f json0 show neighbors details` or its -f json
// form. Neighbours come out sorted by local interface, then line. An
// error is a *source.Error at the line of the offending element.
func Parse(file string, data []byte) (*Neighbors, error) {
	root, err := parseTree(file, data)
	if err != nil {
		return nil, err
	}
	if root.kind != 'o' {
		return nil, source.Errorf(file, root.line, `want a JSON object with "lldp", got %s`, root.describe())
	}
	top := root.get("lldp")
	if top == nil {
		return nil, source.Errorf(file, root.line, `no "lldp" element: not lldpcli show neighbors output`)
	}
	out := &Neighbors{File: file, Neighbors: []Neighbor{}}
	p := parser{file: file}
	for _, l := range items(top) {
		if l.kind != 'o' {
			return nil, source.Errorf(file, l.line, `lldp: want an object, got %s`, l.describe())
		}
		ifs := l.get("interface")
		if ifs == nil {
			continue // no neighbour at all: lldpcli prints "lldp": [{}]
		}
		for _, it := range items(ifs) {
			ns, err := p.interfaces(it)
			if err != nil {
				return nil, err
			}
			out.Neighbors = append(out.Neighbors, ns...)
		}
	}
	sort.SliceStable(out.Neighbors, func(a, b int) bool {
		x, y := out.Neighbors[a], out.Neighbors[b]
		if x.Interface != y.Interface {
			return x.Interface < y.Interface
		}
		return x.Line < y.Line
	})
	return out, nil
}

type parser struct{ file string }

// items is the elements of a list, or the value itself where -f json
// collapsed a one-element list.
func items(n *node) []*node {
	if n.kind == 'a' {
		return n.vals
	}
	return []*node{n}
}

// interfaces reads one element of "interface": a json0 object with its
// "name", or a -f json object keyed by interface name (one key each,
// normally; a collapsed single interface is such an object too).
func (p parser) interfaces(it *node) ([]Neighbor, error) {
	if it.kind != 'o' {
		return nil, source.Errorf(p.file, it.line, "interface: want an object, got %s", it.describe())
	}
	if name := it.get("name"); name != nil {
		s, ok := text(name)
		if !ok || s == "" {
			return nil, source.Errorf(p.file, name.line, "interface name: want a non-empty string, got %s", name.describe())
		}
		n, err := p.neighbor(s, it, it.line)
		return []Neighbor{n}, err
	}
	if len(it.keys) == 0 {
		return nil, source.Errorf(p.file, it.line, "interface element without a name")
	}
	var out []Neighbor
	for i, k := range it.keys {
		body := it.vals[i]
		if k == "" || body.kind != 'o' {
			return nil, source.Errorf(p.file, body.line, "interface %q: want an object, got %s", clip(k), body.describe())
		}
		n, err := p.neighbor(k, body, body.line)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// neighbor reads the chassis and port of one interface element.
func (p parser) neighbor(ifname string, body *node, line int) (Neighbor, error) {
	n := Neighbor{Interface: ifname, Line: line}
	if v := body.get("via"); v != nil {
		n.Via, _ = text(v)
	}
	ch := body.get("chassis")
	if ch == nil {
		return n, source.Errorf(p.file, line, "interface %s: neighbour without chassis", clip(ifname))
	}
	chs := items(ch)
	if len(chs) == 0 || chs[0].kind != 'o' {
		return n, source.Errorf(p.file, ch.line, "interface %s: chassis: want an object, got %s", clip(ifname), ch.describe())
	}
	c := chs[0]
	if nm := c.get("name"); nm != nil {
		n.SysName, _ = text(nm)
	} else if len(c.keys) == 1 && c.vals[0].kind == 'o' && c.vals[0].get("id") != nil {
		// -f json moved the system name out as the key.
		n.SysName, c = c.keys[0], c.vals[0]
	}
	var err error
	if n.ChassisIDType, n.ChassisID, err = p.typedID(ifname, "chassis", c); err != nil {
		return n, err
	}
	pt := body.get("port")
	if pt == nil {
		return n, source.Errorf(p.file, line, "interface %s: neighbour without port", clip(ifname))
	}
	pts := items(pt)
	if len(pts) == 0 || pts[0].kind != 'o' {
		return n, source.Errorf(p.file, pt.line, "interface %s: port: want an object, got %s", clip(ifname), pt.describe())
	}
	if n.PortIDType, n.PortID, err = p.typedID(ifname, "port", pts[0]); err != nil {
		return n, err
	}
	if d := pts[0].get("descr"); d != nil {
		n.PortDescr, _ = text(d)
	}
	return n, nil
}

// typedID reads an "id" element: {"type": t, "value": v}, in a list in
// json0. The value is kept as printed; a MAC is lowercased.
func (p parser) typedID(ifname, what string, parent *node) (typ, val string, err error) {
	id := parent.get("id")
	if id == nil {
		return "", "", source.Errorf(p.file, parent.line, "interface %s: %s without id", clip(ifname), what)
	}
	ids := items(id)
	if len(ids) == 0 || ids[0].kind != 'o' {
		return "", "", source.Errorf(p.file, id.line, "interface %s: %s id: want an object with type and value, got %s", clip(ifname), what, id.describe())
	}
	t, ok1 := text(ids[0].get("type"))
	v, ok2 := text(ids[0].get("value"))
	if !ok1 || !ok2 || v == "" {
		return "", "", source.Errorf(p.file, ids[0].line, "interface %s: %s id: want a type and a non-empty value", clip(ifname), what)
	}
	if t == "mac" {
		v = strings.ToLower(v)
	}
	return t, v, nil
}

// text is a string leaf: "x" (-f json), or [{"value": "x"}] (json0).
func text(n *node) (string, bool) {
	for depth := 0; n != nil && depth < 4; depth++ {
		switch n.kind {
		case 's':
			return n.str, true
		case 'a':
			if len(n.vals) == 0 {
				return "", false
			}
			n = n.vals[0]
		case 'o':
			n = n.get("value")
		default:
			return "", false
		}
	}
	return "", false
}
