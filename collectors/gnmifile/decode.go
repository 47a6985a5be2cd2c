package gnmifile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/qoslint/qoslint/internal/source"
)

// The gNMI messages this package reads, reduced to what ParseCounters
// looks at. They are decoded from the protobuf JSON mapping by hand, so
// the package (and the model that reads its types) does not link the
// generated github.com/openconfig/gnmi/proto/gnmi package, which carries
// the gRPC service stubs and with them google.golang.org/grpc.
//
// The decoder follows protojson's rules for the messages of gnmi.proto
// (github.com/openconfig/gnmi, proto/gnmi/gnmi.proto v0.14.1): a field
// is named by its JSON name or its proto name, an unknown or repeated
// field is an error, null leaves a field unset, two members of the
// TypedValue oneof are an error, 64-bit integers are numbers or decimal
// strings (google.golang.org/protobuf encoding/protojson decode.go,
// unmarshalInt: "Decode number from string."). FuzzAgreesWithProtojson in
// collectors/gnmi holds it to protojson on the same input.

type notification struct {
	timestamp int64
	prefix    *path
	updates   []*update
}

type path struct {
	origin string
	elems  []elem
}

type elem struct {
	name string
	key  map[string]string
}

type update struct {
	path *path
	val  *typedValue
}

// valueKind is the TypedValue oneof member that was set; kindNone when
// none was.
type valueKind int

const (
	kindNone valueKind = iota
	kindString
	kindInt
	kindUint
	kindBool
	kindBytes
	kindFloat
	kindDouble
	kindDecimal
	kindLeaflist
	kindAny
	kindJSON
	kindJSONIETF
	kindASCII
	kindProtoBytes
)

// kindNames are the JSON names of the oneof members, for error text.
var kindNames = [...]string{
	kindNone: "no value", kindString: "stringVal", kindInt: "intVal", kindUint: "uintVal",
	kindBool: "boolVal", kindBytes: "bytesVal", kindFloat: "floatVal", kindDouble: "doubleVal",
	kindDecimal: "decimalVal", kindLeaflist: "leaflistVal", kindAny: "anyVal", kindJSON: "jsonVal",
	kindJSONIETF: "jsonIetfVal", kindASCII: "asciiVal", kindProtoBytes: "protoBytes",
}

func (k valueKind) String() string { return kindNames[k] }

type typedValue struct {
	kind valueKind
	u    uint64
	i    int64
	s    string // stringVal
	b    []byte // jsonVal, jsonIetfVal
}

// SplitFile cuts a gnmi-counters.json file into its notifications, each
// the raw JSON of one object of the top-level array, and the 1-based line
// each one starts on. It checks the array, not the notifications. Errors
// are *source.Error.
func SplitFile(file string, data []byte) ([]json.RawMessage, []int, error) {
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
	var raws []json.RawMessage
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
		raws = append(raws, raw)
		lines = append(lines, lastLine)
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return nil, nil, jsonErr(file, data, err, dec.InputOffset())
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, source.Errorf(file, lineAt(data, dec.InputOffset()),
			"gNMI counters: unexpected data after the array")
	}
	return raws, lines, nil
}

// readNotifications decodes a gnmi-counters.json file into its
// notifications and the line each one starts on. Errors are
// *source.Error.
func readNotifications(file string, data []byte) ([]*notification, []int, error) {
	raws, lines, err := SplitFile(file, data)
	if err != nil {
		return nil, nil, err
	}
	ns := make([]*notification, len(raws))
	for i, raw := range raws {
		ns[i] = &notification{}
		err := checkSurrogates(raw)
		if err == nil {
			err = decodeMessage(raw, notificationFields(ns[i]))
		}
		if err != nil {
			return nil, nil, NotificationError(file, lines[i], i, err)
		}
	}
	return ns, lines, nil
}

// checkSurrogates rejects a \u escape of a UTF-16 surrogate that is not
// the first half of a pair completed by the next escape. encoding/json
// turns such an escape into U+FFFD; protojson rejects it
// (google.golang.org/protobuf internal/encoding/json/decode_string.go,
// parseString: "invalid escape code %q in string"), and so does this
// package, so both read the same files.
func checkSurrogates(raw []byte) error {
	inString := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(raw):
			if raw[i+1] != 'u' || i+6 > len(raw) {
				i++ // a one-character escape, such as \" (json.Valid checked the rest)
				continue
			}
			r := hex4(raw[i+2 : i+6])
			i += 5
			if !utf16.IsSurrogate(r) {
				continue
			}
			if i+7 > len(raw) || raw[i+1] != '\\' || raw[i+2] != 'u' ||
				utf16.DecodeRune(r, hex4(raw[i+3:i+7])) == unicode.ReplacementChar {
				return fmt.Errorf("invalid escape code %q in string", raw[i-5:i+1])
			}
			i += 6
		}
	}
	return nil
}

// hex4 is the value of four hex digits (JSON syntax was checked already).
func hex4(b []byte) rune {
	v, err := strconv.ParseUint(string(b), 16, 16)
	if err != nil {
		return unicode.ReplacementChar
	}
	return rune(v)
}

// NotificationError is the error for the i-th (0-based) notification of
// file, which starts on line and does not decode.
func NotificationError(file string, line, i int, err error) error {
	return source.Errorf(file, line, "gNMI notification %d: %v", i+1, err)
}

// field is one field of a message: its number (duplicates are detected
// by number, so a JSON name and a proto name of one field collide), its
// oneof membership, and the function that decodes its non-null value.
type field struct {
	num   int
	oneof bool
	read  func(raw json.RawMessage) error
}

// fieldSet maps both spellings of each field name to the field.
type fieldSet map[string]*field

func (fs fieldSet) add(jsonName, protoName string, f *field) {
	fs[jsonName] = f
	fs[protoName] = f
}

// decodeMessage decodes a JSON object into the fields of fs.
func decodeMessage(raw json.RawMessage, fs fieldSet) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := openDelim(dec, '{'); err != nil {
		return err
	}
	seen := map[int]bool{}
	oneofSet := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		f := fs[name]
		if f == nil {
			return fmt.Errorf("unknown field %q", name)
		}
		if seen[f.num] {
			return fmt.Errorf("duplicate field %q", name)
		}
		seen[f.num] = true
		if isNull(v) {
			continue
		}
		if f.oneof {
			if oneofSet {
				return fmt.Errorf("error parsing %q, oneof gnmi.TypedValue.value is already set", name)
			}
			oneofSet = true
		}
		if err := f.read(v); err != nil {
			return err
		}
	}
	_, err := dec.Token() // '}'
	return err
}

func openDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("unexpected token %s", describe(tok))
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// decodeList calls each for every element of a JSON array; a null
// element is an error, as it is to protojson.
func decodeList(raw json.RawMessage, each func(json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := openDelim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if isNull(v) {
			return fmt.Errorf("unexpected token null")
		}
		if err := each(v); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

func notificationFields(n *notification) fieldSet {
	fs := fieldSet{}
	fs.add("timestamp", "timestamp", &field{num: 1, read: func(raw json.RawMessage) (err error) {
		n.timestamp, err = readInt(raw, 64, "timestamp")
		return err
	}})
	fs.add("prefix", "prefix", &field{num: 2, read: func(raw json.RawMessage) error {
		n.prefix = &path{}
		return decodeMessage(raw, pathFields(n.prefix))
	}})
	fs.add("update", "update", &field{num: 4, read: func(raw json.RawMessage) error {
		return decodeList(raw, func(v json.RawMessage) error {
			u := &update{}
			n.updates = append(n.updates, u)
			return decodeMessage(v, updateFields(u))
		})
	}})
	fs.add("delete", "delete", &field{num: 5, read: func(raw json.RawMessage) error {
		return decodeList(raw, func(v json.RawMessage) error { return decodeMessage(v, pathFields(&path{})) })
	}})
	fs.add("atomic", "atomic", &field{num: 6, read: readBool})
	return fs
}

func pathFields(p *path) fieldSet {
	fs := fieldSet{}
	fs.add("element", "element", &field{num: 1, read: func(raw json.RawMessage) error {
		return decodeList(raw, func(v json.RawMessage) error { _, err := readString(v, "element"); return err })
	}})
	fs.add("origin", "origin", &field{num: 2, read: func(raw json.RawMessage) (err error) {
		p.origin, err = readString(raw, "origin")
		return err
	}})
	fs.add("elem", "elem", &field{num: 3, read: func(raw json.RawMessage) error {
		return decodeList(raw, func(v json.RawMessage) error {
			e := elem{}
			if err := decodeMessage(v, elemFields(&e)); err != nil {
				return err
			}
			p.elems = append(p.elems, e)
			return nil
		})
	}})
	fs.add("target", "target", &field{num: 4, read: func(raw json.RawMessage) error { _, err := readString(raw, "target"); return err }})
	return fs
}

func elemFields(e *elem) fieldSet {
	fs := fieldSet{}
	fs.add("name", "name", &field{num: 1, read: func(raw json.RawMessage) (err error) {
		e.name, err = readString(raw, "name")
		return err
	}})
	fs.add("key", "key", &field{num: 2, read: func(raw json.RawMessage) error {
		e.key = map[string]string{}
		return decodeStringMap(raw, e.key)
	}})
	return fs
}

// decodeStringMap reads a map<string,string>: a repeated key is an error.
func decodeStringMap(raw json.RawMessage, m map[string]string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := openDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if _, dup := m[k]; dup {
			return fmt.Errorf("duplicate map key %q", k)
		}
		if m[k], err = readString(v, "key"); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

func updateFields(u *update) fieldSet {
	fs := fieldSet{}
	fs.add("path", "path", &field{num: 1, read: func(raw json.RawMessage) error {
		u.path = &path{}
		return decodeMessage(raw, pathFields(u.path))
	}})
	// The deprecated Value message: bytes value = 1; Encoding type = 2.
	fs.add("value", "value", &field{num: 2, read: func(raw json.RawMessage) error {
		vs := fieldSet{}
		vs.add("value", "value", &field{num: 1, read: func(r json.RawMessage) error { _, err := readBytes(r, "value"); return err }})
		vs.add("type", "type", &field{num: 2, read: readEncoding})
		return decodeMessage(raw, vs)
	}})
	fs.add("val", "val", &field{num: 3, read: func(raw json.RawMessage) error {
		u.val = &typedValue{}
		return decodeMessage(raw, typedValueFields(u.val))
	}})
	fs.add("duplicates", "duplicates", &field{num: 4, read: func(raw json.RawMessage) error { _, err := readUint(raw, 32, "duplicates"); return err }})
	return fs
}

func typedValueFields(tv *typedValue) fieldSet {
	fs := fieldSet{}
	member := func(jsonName, protoName string, num int, k valueKind, read func(json.RawMessage) error) {
		fs.add(jsonName, protoName, &field{num: num, oneof: true, read: func(raw json.RawMessage) error {
			tv.kind = k
			return read(raw)
		}})
	}
	member("stringVal", "string_val", 1, kindString, func(raw json.RawMessage) (err error) {
		tv.s, err = readString(raw, "stringVal")
		return err
	})
	member("intVal", "int_val", 2, kindInt, func(raw json.RawMessage) (err error) {
		tv.i, err = readInt(raw, 64, "intVal")
		return err
	})
	member("uintVal", "uint_val", 3, kindUint, func(raw json.RawMessage) (err error) {
		tv.u, err = readUint(raw, 64, "uintVal")
		return err
	})
	member("boolVal", "bool_val", 4, kindBool, readBool)
	member("bytesVal", "bytes_val", 5, kindBytes, func(raw json.RawMessage) error { _, err := readBytes(raw, "bytesVal"); return err })
	member("floatVal", "float_val", 6, kindFloat, func(raw json.RawMessage) error { return readFloat(raw, 32, "floatVal") })
	member("doubleVal", "double_val", 14, kindDouble, func(raw json.RawMessage) error { return readFloat(raw, 64, "doubleVal") })
	member("decimalVal", "decimal_val", 7, kindDecimal, func(raw json.RawMessage) error {
		ds := fieldSet{}
		ds.add("digits", "digits", &field{num: 1, read: func(r json.RawMessage) error { _, err := readInt(r, 64, "digits"); return err }})
		ds.add("precision", "precision", &field{num: 2, read: func(r json.RawMessage) error { _, err := readUint(r, 32, "precision"); return err }})
		return decodeMessage(raw, ds)
	})
	member("leaflistVal", "leaflist_val", 8, kindLeaflist, func(raw json.RawMessage) error {
		ls := fieldSet{}
		ls.add("element", "element", &field{num: 1, read: func(r json.RawMessage) error {
			return decodeList(r, func(v json.RawMessage) error { return decodeMessage(v, typedValueFields(&typedValue{})) })
		}})
		return decodeMessage(raw, ls)
	})
	member("anyVal", "any_val", 9, kindAny, readAny)
	member("jsonVal", "json_val", 10, kindJSON, func(raw json.RawMessage) (err error) {
		tv.b, err = readBytes(raw, "jsonVal")
		return err
	})
	member("jsonIetfVal", "json_ietf_val", 11, kindJSONIETF, func(raw json.RawMessage) (err error) {
		tv.b, err = readBytes(raw, "jsonIetfVal")
		return err
	})
	member("asciiVal", "ascii_val", 12, kindASCII, func(raw json.RawMessage) error { _, err := readString(raw, "asciiVal"); return err })
	member("protoBytes", "proto_bytes", 13, kindProtoBytes, func(raw json.RawMessage) error { _, err := readBytes(raw, "protoBytes"); return err })
	return fs
}

// readAny accepts a google.protobuf.Any in its JSON form: {} or an object
// with an "@type" string. protojson also resolves the type and decodes
// the rest against it; this package has no type registry, and no counter
// is an Any (ParseCounters rejects one at a counter leaf), so the rest
// is only required to be JSON.
func readAny(raw json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return fmt.Errorf("invalid value for anyVal: %s", trunc(raw))
	}
	if len(obj) == 0 {
		return nil
	}
	if _, err := readString(obj["@type"], "@type"); err != nil {
		return fmt.Errorf(`anyVal: missing "@type" field`)
	}
	return nil
}

func invalid(what string, raw json.RawMessage) error {
	return fmt.Errorf("invalid value for %s: %s", what, trunc(bytes.TrimSpace(raw)))
}

func readString(raw json.RawMessage, what string) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", invalid(what, raw)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", invalid(what, raw)
	}
	return s, nil
}

func readBool(raw json.RawMessage) error {
	switch string(bytes.TrimSpace(raw)) {
	case "true", "false":
		return nil
	}
	return invalid("bool", raw)
}

// readBytes decodes base64 as protojson does (unmarshalBytes): standard
// or URL alphabet, with or without padding.
func readBytes(raw json.RawMessage, what string) ([]byte, error) {
	s, err := readString(raw, what)
	if err != nil {
		return nil, err
	}
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	b, err := enc.DecodeString(s)
	if err != nil {
		return nil, invalid(what, raw)
	}
	return b, nil
}

// numberText is the JSON number a field holds, as a number or as a
// string that holds exactly one number and nothing else.
func numberText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil || s != strings.TrimSpace(s) || s == "" {
			return "", false
		}
		raw = []byte(s)
	}
	if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') || !json.Valid(raw) {
		return "", false
	}
	return string(raw), true
}

func readInt(raw json.RawMessage, bits int, what string) (int64, error) {
	s, ok := numberText(raw)
	if ok {
		s, ok = intString(s)
	}
	if ok {
		if n, err := strconv.ParseInt(s, 10, bits); err == nil {
			return n, nil
		}
	}
	return 0, invalid(what, raw)
}

func readUint(raw json.RawMessage, bits int, what string) (uint64, error) {
	s, ok := numberText(raw)
	if ok {
		s, ok = intString(s)
	}
	if ok {
		if n, err := strconv.ParseUint(s, 10, bits); err == nil {
			return n, nil
		}
	}
	return 0, invalid(what, raw)
}

func readFloat(raw json.RawMessage, bits int, what string) error {
	if s, err := readString(raw, what); err == nil {
		switch s {
		case "NaN", "Infinity", "-Infinity":
			return nil
		}
	}
	s, ok := numberText(raw)
	if ok {
		if _, err := strconv.ParseFloat(s, bits); err == nil {
			return nil
		}
	}
	return invalid(what, raw)
}

// readEncoding reads the deprecated Value.type, an Encoding enum: a
// value name or any 32-bit number (proto3 enums are open).
func readEncoding(raw json.RawMessage) error {
	if s, err := readString(raw, "type"); err == nil {
		switch s {
		case "JSON", "BYTES", "PROTO", "ASCII", "JSON_IETF":
			return nil
		}
		return invalid("type", raw)
	}
	_, err := readInt(raw, 32, "type")
	return err
}

// intString writes a JSON number as a decimal integer, or reports that
// it is not one: 1.5e1 is 15, 1.5 is not an integer. It is protojson's
// normalizeToIntString (google.golang.org/protobuf
// internal/encoding/json/decode_number.go), with its 20-digit cap, which
// keeps 1e999999 from building a million-digit string.
func intString(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exps, _ := strings.Cut(strings.ToLower(s), "e")
	intp, frac, _ := strings.Cut(mant, ".")
	intp = strings.TrimPrefix(intp, "0") // JSON allows one leading 0 only
	frac = strings.TrimRight(frac, "0")
	if intp == "" && frac == "" {
		return "0", true
	}
	exp := 0
	if exps != "" {
		e, err := strconv.ParseInt(exps, 10, 32)
		if err != nil {
			return "", false
		}
		exp = int(e)
	}
	var num string
	if exp >= 0 {
		if len(frac) > exp || len(intp)+exp > 20 {
			return "", false
		}
		num = intp + frac + strings.Repeat("0", exp-len(frac))
	} else {
		index := len(intp) + exp
		if len(frac) > 0 || index < 0 || strings.Trim(intp[index:], "0") != "" {
			return "", false
		}
		num = intp[:index]
	}
	if neg {
		return "-" + num, true
	}
	return num, true
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
