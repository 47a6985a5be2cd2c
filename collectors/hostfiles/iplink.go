package hostfiles

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// ParseIPLink parses `ip -j link show` (or `ip -j -p link show`): a JSON
// array with one object per interface. Only ifname, mtu, operstate and
// link_type (and the address, as MAC) are kept; Link.Line is the line of the object's '{'. Sorted by name.
func ParseIPLink(file string, data []byte) ([]Link, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, source.Errorf(file, 1, "empty ip -j link output")
	}
	// Unmarshal checks the whole input before decoding, so its syntax
	// error offsets count from the start of the file; the Decoder's do not.
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, source.Errorf(file, lineOf(data, int(se.Offset)-1), "invalid JSON: %v", se)
		}
		return nil, source.Errorf(file, 1, "invalid JSON: %v", err)
	}
	w := &jsonWalker{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	w.dec.UseNumber()
	links, err := w.links()
	if err != nil {
		return nil, err
	}
	sort.SliceStable(links, func(a, b int) bool {
		if links[a].Name != links[b].Name {
			return links[a].Name < links[b].Name
		}
		return links[a].Line < links[b].Line
	})
	return links, nil
}

// jsonWalker reads the already validated JSON token by token, so that every
// value's line is known.
type jsonWalker struct {
	file string
	data []byte
	dec  *json.Decoder
	// Token offsets only grow, so lines are counted incrementally: a
	// large `ip -j link` (hosts with many VFs) stays linear.
	lineOff, line int
}

// lineAt returns the 1-based line of offset off, which must not be before
// the previous call's.
func (w *jsonWalker) lineAt(off int) int {
	if w.line == 0 {
		w.line = 1
	}
	for ; w.lineOff < off && w.lineOff < len(w.data); w.lineOff++ {
		if w.data[w.lineOff] == '\n' {
			w.line++
		}
	}
	return w.line
}

// next returns the next token and the line it starts on.
func (w *jsonWalker) next() (json.Token, int, error) {
	off := int(w.dec.InputOffset())
	for off < len(w.data) {
		switch w.data[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
			continue
		}
		break
	}
	line := w.lineAt(off)
	tok, err := w.dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, line, source.Errorf(w.file, line, "invalid JSON: %v", err)
	}
	return tok, line, nil
}

func (w *jsonWalker) links() ([]Link, error) {
	tok, line, err := w.next()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('[') {
		return nil, source.Errorf(w.file, line, "want a JSON array of interfaces, got %s", tokKind(tok))
	}
	links := []Link{}
	for {
		tok, line, err := w.next()
		if err != nil {
			return nil, err
		}
		if tok == json.Delim(']') {
			return links, nil
		}
		if tok != json.Delim('{') {
			return nil, source.Errorf(w.file, line, "want an interface object, got %s", tokKind(tok))
		}
		l, err := w.link(line)
		if err != nil {
			return nil, err
		}
		links = append(links, l)
	}
}

// link reads one interface object after its '{'.
func (w *jsonWalker) link(start int) (Link, error) {
	l := Link{Line: start}
	var hasName, hasMTU, hasState bool
	for {
		tok, _, err := w.next()
		if err != nil {
			return l, err
		}
		if tok == json.Delim('}') {
			break
		}
		key, _ := tok.(string)
		val, vline, err := w.next()
		if err != nil {
			return l, err
		}
		switch key {
		case "ifname", "operstate":
			s, ok := val.(string)
			if !ok || s == "" {
				return l, source.Errorf(w.file, vline, "%s: want a non-empty string, got %s", key, tokKind(val))
			}
			if key == "ifname" {
				l.Name, hasName = s, true
			} else {
				l.OperState, hasState = s, true
			}
		case "link_type":
			// iproute2 prints ll_type_n2a() of the device type (lib/ll_types.c:
			// ARPHRD_ETHER "ether", ARPHRD_INFINIBAND "infiniband" for IPoIB).
			if s, ok := val.(string); ok {
				l.LinkType = s
			}
		case "address":
			// The link-layer address (ip/ipaddress.c print_linkinfo prints
			// "address" with ll_addr_n2a, colon-separated hex): for an
			// Ethernet port its MAC, which an LLDP neighbour may send as its
			// port ID instead of a name.
			if s, ok := val.(string); ok {
				l.MAC = strings.ToLower(s)
			}
		case "mtu":
			num, ok := val.(json.Number)
			mtu, ok2 := atoiRange(string(num), 0, 1<<31-1)
			if !ok || !ok2 {
				return l, source.Errorf(w.file, vline, "mtu: want a non-negative integer, got %s", tokKind(val))
			}
			l.MTU, hasMTU = mtu, true
		default:
			if err := w.skip(val); err != nil {
				return l, err
			}
		}
	}
	switch {
	case !hasName:
		return l, source.Errorf(w.file, start, "interface object without ifname")
	case !hasMTU:
		return l, source.Errorf(w.file, start, "interface %s without mtu", l.Name)
	case !hasState:
		return l, source.Errorf(w.file, start, "interface %s without operstate", l.Name)
	}
	return l, nil
}

// skip consumes the rest of a value whose first token is tok.
func (w *jsonWalker) skip(tok json.Token) error {
	if tok != json.Delim('{') && tok != json.Delim('[') {
		return nil
	}
	for depth := 1; depth > 0; {
		t, _, err := w.next()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

func tokKind(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		if v == '[' {
			return "an array"
		}
		return fmt.Sprintf("%q", string(v))
	case string:
		return fmt.Sprintf("string %q", clip(v))
	case json.Number:
		return "number " + clip(string(v))
	case bool:
		return fmt.Sprintf("%v", v)
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", t)
}
