// Package topology reads the cabling plan of a fabric: topology.dot in the
// format of Cumulus Linux's Prescriptive Topology Manager (ptmd), a
// Graphviz DOT undirected graph whose edges join "node":"port" endpoints
// (CumulusNetworks/docs,
// content/cumulus-linux-510/Monitoring-and-Troubleshooting/Network-Troubleshooting/Prescriptive-Topology-Manager-PTM.md,
// "Basic Topology Example" and "Configuration Parameters"):
//
//	graph G {
//	    hostnametype="hostname"
//	    BFD="upMinTx=150,requiredMinRx=250"
//	    "spine1":"swp1" -- "leaf1":"swp1";
//	    "leaf1":"swp5s0" -- "server1":"eth1" [LLDP="match_type=portdescr"]
//	}
//
// Statements end with ";" or with the line; graph parameters (key="value")
// and per-edge attributes in [...] tune ptmd's LLDP and BFD matching and
// are ignored here. This is a hand parser of that subset of DOT rather than
// a full DOT library (gonum.org/v1/gonum/graph/formats/dot): the subset is a
// few dozen lines, a full grammar would accept constructs PTM never uses
// (subgraphs, HTML IDs) only to reject them afterwards, and the parser
// keeps every edge's line for evidence, which the general libraries do not
// expose per edge.
package topology

import (
	"github.com/qoslint/qoslint/internal/source"
)

// Endpoint is one end of a planned cable: a device and its interface, as
// the plan spells them.
type Endpoint struct{ Node, Port string }

func (e Endpoint) String() string { return e.Node + ":" + e.Port }

// Edge is one planned cable, at the line of its first endpoint.
type Edge struct {
	A, B Endpoint
	Line int
}

// Topology is a parsed topology.dot.
type Topology struct {
	File  string
	Edges []Edge
}

// Parse reads a PTM topology.dot. Every planned port must be cabled once:
// a port on two edges is an error naming both lines.
func Parse(file string, data []byte) (*Topology, error) {
	toks, err := lex(file, data)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, toks: toks}
	t := &Topology{File: file}
	if err := p.graph(t); err != nil {
		return nil, err
	}
	if err := checkPorts(file, t.Edges); err != nil {
		return nil, err
	}
	return t, nil
}

// checkPorts rejects a port planned on two cables: the plan contradicts
// itself, and the cabling check could not say which one is meant.
func checkPorts(file string, edges []Edge) error {
	seen := map[Endpoint]int{}
	for _, e := range edges {
		if e.A == e.B {
			return source.Errorf(file, e.Line, "edge joins %s to itself", e.A)
		}
		for _, ep := range []Endpoint{e.A, e.B} {
			if l, ok := seen[ep]; ok {
				return source.Errorf(file, e.Line, "port %s is already cabled at line %d", ep, l)
			}
			seen[ep] = e.Line
		}
	}
	return nil
}

type parser struct {
	file string
	toks []token
	i    int
	// directed is true in a digraph, whose edges are "->".
	directed bool
}

func (p *parser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	line := 1
	if n := len(p.toks); n > 0 {
		line = p.toks[n-1].line
	}
	return token{kind: tEOF, line: line}
}

func (p *parser) next() token {
	t := p.peek()
	if p.i < len(p.toks) {
		p.i++
	}
	return t
}

func (p *parser) errorf(t token, format string, a ...any) error {
	return source.Errorf(p.file, t.line, format, a...)
}

// graph parses `[strict] (graph|digraph) [ID] { stmt* }`.
func (p *parser) graph(t *Topology) error {
	tok := p.next()
	if tok.is(tID, "strict") {
		tok = p.next()
	}
	switch {
	case tok.is(tID, "graph"):
	case tok.is(tID, "digraph"):
		p.directed = true
	default:
		return p.errorf(tok, "expected a DOT graph (graph G { ... }), found %s", tok)
	}
	if p.peek().kind == tID {
		p.next()
	}
	if tok = p.next(); tok.kind != tLBrace {
		return p.errorf(tok, "expected { after the graph header, found %s", tok)
	}
	for {
		tok = p.peek()
		switch tok.kind {
		case tRBrace:
			p.next()
			if rest := p.peek(); rest.kind != tEOF {
				return p.errorf(rest, "unexpected %s after the graph's closing }", rest)
			}
			return nil
		case tEOF:
			return p.errorf(tok, "graph not closed: missing }")
		case tSemi:
			p.next()
		default:
			if err := p.stmt(t); err != nil {
				return err
			}
		}
	}
}

// stmt parses one statement: an attribute (k=v), an attribute statement
// (graph/node/edge [...]), a node statement, or an edge chain.
func (p *parser) stmt(t *Topology) error {
	first := p.next()
	if first.kind != tID {
		return p.errorf(first, "expected a statement, found %s", first)
	}
	if !first.quoted && first.text == "subgraph" {
		return p.errorf(first, "subgraph is not supported in a PTM topology")
	}
	if p.peek().kind == tEq {
		p.next()
		if v := p.next(); v.kind != tID {
			return p.errorf(v, "expected a value after %s=, found %s", first.text, v)
		}
		return nil
	}
	if !first.quoted && (first.text == "graph" || first.text == "node" || first.text == "edge") && p.peek().kind == tLBracket {
		return p.attrs()
	}
	ends := []Endpoint{}
	ep, err := p.endpoint(first)
	if err != nil {
		return err
	}
	ends = append(ends, ep)
	for p.peek().kind == tEdge {
		op := p.next()
		if op.text == "->" != p.directed {
			return p.errorf(op, "edge operator %s does not match the graph type", op.text)
		}
		ep, err := p.endpoint(p.next())
		if err != nil {
			return err
		}
		ends = append(ends, ep)
	}
	if p.peek().kind == tLBracket {
		if err := p.attrs(); err != nil {
			return err
		}
	}
	if len(ends) == 1 {
		return nil // a node statement: the plan's cables are its edges
	}
	for i := 1; i < len(ends); i++ {
		if ends[i-1].Port == "" || ends[i].Port == "" {
			return p.errorf(first, "edge %s -- %s: PTM needs \"node\":\"port\" at both ends", ends[i-1].Node, ends[i].Node)
		}
		t.Edges = append(t.Edges, Edge{A: ends[i-1], B: ends[i], Line: first.line})
	}
	return nil
}

// endpoint parses ID [: port [: compass]] starting at tok.
func (p *parser) endpoint(tok token) (Endpoint, error) {
	if tok.kind != tID {
		return Endpoint{}, p.errorf(tok, "expected a node, found %s", tok)
	}
	if tok.text == "" {
		return Endpoint{}, p.errorf(tok, "empty node name")
	}
	e := Endpoint{Node: tok.text}
	if p.peek().kind != tColon {
		return e, nil
	}
	p.next()
	port := p.next()
	if port.kind != tID || port.text == "" {
		return Endpoint{}, p.errorf(port, "expected a port after %q:, found %s", tok.text, port)
	}
	e.Port = port.text
	if p.peek().kind == tColon { // DOT compass point, meaningless here
		p.next()
		if c := p.next(); c.kind != tID {
			return Endpoint{}, p.errorf(c, "expected a compass point, found %s", c)
		}
	}
	return e, nil
}

// attrs skips an attribute list [k=v, ...] (ptmd's BFD and LLDP tuning).
func (p *parser) attrs() error {
	open := p.next()
	for {
		tok := p.next()
		switch tok.kind {
		case tRBracket:
			return nil
		case tEOF, tLBrace, tRBrace, tLBracket:
			return p.errorf(open, "attribute list [ not closed")
		}
	}
}
