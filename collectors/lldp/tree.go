package lldp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/qoslint/qoslint/internal/source"
)

// node is one JSON value with the line it starts on, so that an element
// lldpcli printed can be named by its line in an error or as evidence.
// Object keys keep their order (lldpcli may repeat none, but the -f json
// form keys objects by interface and system name).
type node struct {
	line  int
	kind  byte // 'o' object, 'a' array, 's' string, 'b' bool, 'n' number, '0' null
	str   string
	keys  []string
	vals  []*node // object values (same index as keys) or array items
	truth bool
}

func (n *node) get(key string) *node {
	if n == nil || n.kind != 'o' {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// maxDepth bounds the nesting the tree builder follows: lldpcli's deepest
// element (a MED location inside an interface) is far below it, and
// deeper input is not lldpcli's.
const maxDepth = 64

// treeReader turns JSON into nodes, counting lines as the decoder's
// offset grows. It reads with jsontext, which tokenizes without an
// interface value per token and validates as it goes: encoding/json's
// validating pass and Decoder.Token were a tenth of a lint's time at
// TestLintScale's size. A file that is not JSON is read again by
// encoding/json for its error (syntaxError), as before.
type treeReader struct {
	file    string
	data    []byte
	dec     *jsontext.Decoder
	lineOff int
	line    int
	// nodes are allocated in blocks: a tree lives and goes as a whole.
	nodes []node
}

// decOptions accept what encoding/json accepts: a key given twice (the
// first is kept, as get finds it first) and an escaped lone surrogate
// ("\ud800"), read as U+FFFD. Raw invalid UTF-8 never reaches the
// decoder: parseTree rejects it first.
var decOptions = []jsontext.Options{
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
}

func parseTree(file string, data []byte) (*node, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, source.Errorf(file, 1, "empty lldpcli output")
	}
	if !utf8.Valid(data) {
		// lldpcli escapes every invalid byte as \uFFFD (src/client/json_writer.c
		// json_string_dump), so raw invalid UTF-8 is not its output.
		if e := source.CheckUTF8(file, data, "lldpcli JSON"); e != nil {
			return nil, e
		}
	}
	// A bytes.Buffer is read in place, without a copy (jsontext.NewDecoder).
	r := &treeReader{file: file, data: data, dec: jsontext.NewDecoder(bytes.NewBuffer(data), decOptions...), line: 1}
	tok, line, err := r.next()
	if err != nil {
		return nil, r.syntaxError(err)
	}
	root, err := r.value(tok, line, 0)
	if err != nil {
		return nil, err
	}
	// One value and nothing after it, as json.Unmarshal requires.
	if _, err := r.dec.ReadToken(); err != io.EOF {
		return nil, r.syntaxError(err)
	}
	return root, nil
}

// syntaxError is the error of a file that is not JSON: encoding/json's,
// at the line of its offset, so that the message is the one lldp always
// gave. Only a bad file pays for this second reading; decErr is the
// decoder's error, for a file json.Unmarshal would take.
func (r *treeReader) syntaxError(decErr error) error {
	var raw json.RawMessage
	err := json.Unmarshal(r.data, &raw)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return source.Errorf(r.file, lineAt(r.data, int(se.Offset)-1), "invalid JSON: %v", se)
	case err != nil:
		return source.Errorf(r.file, 1, "invalid JSON: %v", err)
	case decErr == nil:
		decErr = errors.New("more than one value")
	}
	return source.Errorf(r.file, r.line, "invalid JSON: %v", decErr)
}

func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// next returns the next token, valid until the next read, and the line
// it starts on.
func (r *treeReader) next() (jsontext.Token, int, error) {
	off := int(r.dec.InputOffset())
	for off < len(r.data) {
		c := r.data[off]
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != ':' {
			break
		}
		off++
	}
	for ; r.lineOff < off && r.lineOff < len(r.data); r.lineOff++ {
		if r.data[r.lineOff] == '\n' {
			r.line++
		}
	}
	tok, err := r.dec.ReadToken()
	return tok, r.line, err
}

func (r *treeReader) newNode(line int) *node {
	if len(r.nodes) == 0 {
		r.nodes = make([]node, 32)
	}
	n := &r.nodes[0]
	r.nodes = r.nodes[1:]
	n.line = line
	return n
}

func (r *treeReader) value(tok jsontext.Token, line, depth int) (*node, error) {
	if depth > maxDepth {
		// A file that is not JSON further on says so first, as when
		// encoding/json validated the whole file before the tree.
		if !json.Valid(r.data) {
			return nil, r.syntaxError(nil)
		}
		return nil, source.Errorf(r.file, line, "JSON nested deeper than %d levels: not lldpcli output", maxDepth)
	}
	n := r.newNode(line)
	switch kind := tok.Kind(); kind {
	case '{', '[':
		return r.container(n, kind, depth)
	case '"':
		n.kind, n.str = 's', r.str(tok)
	case 't', 'f':
		n.kind, n.truth = 'b', kind == 't'
	case '0':
		// The number as written, as json.Number kept it.
		n.kind, n.str = 'n', tok.String()
	case 'n':
		n.kind = '0'
	default:
		return nil, source.Errorf(r.file, line, "unexpected JSON token %v", tok)
	}
	return n, nil
}

func (r *treeReader) container(n *node, open jsontext.Kind, depth int) (*node, error) {
	n.kind = 'a'
	end := jsontext.Kind(']')
	if open == '{' {
		n.kind, end = 'o', '}'
	}
	for {
		tok, line, err := r.next()
		if err != nil {
			return nil, r.syntaxError(err)
		}
		if tok.Kind() == end {
			return n, nil
		}
		if n.kind == 'o' {
			// The decoder checked that a key is a string.
			n.keys = append(n.keys, r.str(tok))
			if tok, line, err = r.next(); err != nil {
				return nil, r.syntaxError(err)
			}
		}
		v, err := r.value(tok, line, depth+1)
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
}

// str is a string token's value: lldpd's element names and the values
// every neighbour repeats are shared rather than allocated each time.
func (r *treeReader) str(tok jsontext.Token) string {
	s := tok.String()
	if k, ok := common[s]; ok {
		return k
	}
	return strings.Clone(s)
}

func (n *node) describe() string {
	switch n.kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	case 's':
		return fmt.Sprintf("string %q", clip(n.str))
	case 'b':
		return fmt.Sprint(n.truth)
	case 'n':
		return "number " + clip(n.str)
	}
	return "null"
}

func clip(s string) string {
	if len(s) > 40 {
		s = s[:40]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		return s + "..."
	}
	return s
}

// common are the element names lldpcli prints for every neighbour
// (lldpd/lldpd src/client/display.c display_chassis, display_port,
// display_interface) and the values most neighbours repeat (the ID
// subtypes of src/lib/atoms/chassis.c and port.c, the capabilities, the
// protocol): read only, shared by every file.
var common = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{
		"lldp", "interface", "name", "via", "rid", "age", "chassis", "id", "type", "value", "descr",
		"mgmt-ip", "mgmt-iface", "capability", "enabled", "port", "ttl", "mfs", "auto-negotiation",
		"supported", "advertised", "current", "vlan", "vlan-id", "pvid", "ppvid", "pi", "power",
		"lldp-med", "unknown-tlvs",
		"mac", "ifname", "local", "ip", "ifalias", "LLDP", "CDPv1", "CDPv2", "EDP", "FDP", "SONMP",
		"Bridge", "Router", "Station", "Wlan", "Repeater", "Telephone", "Docsis", "Other", "120",
	} {
		m[s] = s
	}
	return m
}()
