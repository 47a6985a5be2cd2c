package gnmi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sort"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/qoslint/qoslint/internal/source"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// MarshalFile renders notifications as a gnmi-counters.json file (see the
// package comment). It does not modify ns.
func MarshalFile(ns []*gpb.Notification) ([]byte, error) {
	type item struct {
		key string
		js  []byte
	}
	items := make([]item, 0, len(ns))
	for _, n := range ns {
		n = proto.Clone(n).(*gpb.Notification)
		sort.SliceStable(n.Update, func(i, j int) bool {
			return PathString(nil, n.Update[i].GetPath()) < PathString(nil, n.Update[j].GetPath())
		})
		raw, err := protojson.MarshalOptions{UseProtoNames: false}.Marshal(n)
		if err != nil {
			return nil, err
		}
		// protojson randomises its whitespace per build; compact it away.
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil {
			return nil, err
		}
		var first *gpb.Path
		if len(n.Update) > 0 {
			first = n.Update[0].GetPath()
		}
		items = append(items, item{key: PathString(n.GetPrefix(), first), js: c.Bytes()})
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].key != items[j].key {
			return items[i].key < items[j].key
		}
		return bytes.Compare(items[i].js, items[j].js) < 0
	})
	// One notification per line: a line number names a notification, and
	// a diff of two collections shows which counters moved.
	var out bytes.Buffer
	out.WriteString("[")
	for i, it := range items {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString("\n  ")
		out.Write(it.js)
	}
	out.WriteString("\n]\n")
	return out.Bytes(), nil
}

// ReadFile decodes a gnmi-counters.json file into its notifications and
// the 1-based line each one starts on. Errors are *source.Error.
func ReadFile(file string, data []byte) ([]*gpb.Notification, []int, error) {
	// qoslint writes this file with encoding/json, which writes only
	// UTF-8, and JSON exchanged between systems is UTF-8 (RFC 8259 §8.1):
	// any other byte means the file was edited or damaged.
	if e := source.CheckUTF8(file, data, "JSON"); e != nil {
		return nil, nil, e
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, jsonErr(file, data, err, dec.InputOffset())
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, nil, source.Errorf(file, lineAt(data, dec.InputOffset()),
			"gNMI counters: want a JSON array of notifications, got %s", describe(tok))
	}
	var ns []*gpb.Notification
	var lines []int
	// Count lines incrementally: one lineAt per notification would be
	// quadratic in the file size.
	lastOff, lastLine := int64(0), 1
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, jsonErr(file, data, err, dec.InputOffset())
		}
		start := dec.InputOffset() - int64(len(raw))
		lastLine += bytes.Count(data[lastOff:start], []byte{'\n'})
		lastOff = start
		line := lastLine
		n := &gpb.Notification{}
		if err := protojson.Unmarshal(raw, n); err != nil {
			return nil, nil, source.Errorf(file, line, "gNMI notification %d: %v", len(ns)+1, err)
		}
		ns = append(ns, n)
		lines = append(lines, line)
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return nil, nil, jsonErr(file, data, err, dec.InputOffset())
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, source.Errorf(file, lineAt(data, dec.InputOffset()),
			"gNMI counters: unexpected data after the array")
	}
	return ns, lines, nil
}

func describe(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return "'" + t.String() + "'"
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	default:
		return "a number"
	}
}

func jsonErr(file string, data []byte, err error, off int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		if len(data) == 0 {
			return source.Errorf(file, 1, "gNMI counters: empty file")
		}
		return source.Errorf(file, lineAt(data, int64(len(data))), "gNMI counters: unexpected end of file")
	}
	return source.Errorf(file, lineAt(data, off), "gNMI counters: %v", err)
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int64) int {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off == int64(len(data)) && off > 0 && data[off-1] == '\n' {
		off-- // the end of the file is on its last line, not after it
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}
