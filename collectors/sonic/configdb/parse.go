package configdb

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/qoslint/qoslint/internal/source"
)

// Parse reads one configuration file. file names it in positions and
// errors. A file that is not JSON, whose top level is not an object, or
// whose tables or rows are not objects is an *source.Error at the
// offending byte (line, and the column in the message); anything else odd
// (a key given twice, a value that is not a string, an object where a
// value belongs, "bgpraw") is a Note and the rest is read.
//
// Which shape a top-level key has is decided per key: a key containing "|"
// is a flat row "TABLE|key" (split at the first "|"), any other is a
// nested table. The file is multi-ASIC when every top-level key is
// "localhost" or "asic<N>" and each of their values is an object whose
// keys all look like table names (upper-case letters, digits and "_"
// before any "|", or "bgpraw"): that is what `show runningconfiguration
// all` prints on a multi-ASIC switch, and no SONiC table is named
// "localhost" or "asic0".
//
// A key given twice keeps its first place and the last value, as Python's
// json module does (sonic-cfggen reads the file with it).
//
// A table the model does not read, and which holds nothing to note, is
// only scanned, and read on its first use (Namespace.Table).
func Parse(file string, data []byte) (*Config, error) {
	return parse(file, data, string(data), false)
}

// ParseOwned is Parse of data that the caller hands over: the Config's
// strings are cut from data itself rather than from a copy of it, so data
// must not change afterwards, until Release, which gives it back for
// reuse (filebuf.Put). A reader that reads each file into a buffer of its
// own (collectors/offline) saves a copy of the file per switch, which
// lives as long as the Config.
func ParseOwned(file string, data []byte) (*Config, error) {
	cfg, err := parse(file, data, unsafe.String(unsafe.SliceData(data), len(data)), false)
	if cfg != nil {
		cfg.text = data
	}
	return cfg, err
}

// parse is Parse; text is data as a string, and decoderOnly reads every
// table with the decoder, as FuzzParse's reference.
func parse(file string, data []byte, text string, decoderOnly bool) (*Config, error) {
	p := &parser{file: file, data: data, copy: text, decoderOnly: decoderOnly}
	// Its own allocation: a pointer into the parser would keep the
	// parser's buffers as long as the Config.
	name := file
	p.fileName = &name
	sc := scratchPool.Get().(*scratch)
	p.rowScratch, p.rowIndex, p.scratch, p.list, p.index, p.keyHashes = sc.rows, sc.rowIndex, sc.fields, sc.list, sc.index, sc.keyHashes
	defer func() {
		// Emptied, so that the pool keeps no file's rows or strings.
		clear(p.rowScratch[:cap(p.rowScratch)])
		clear(p.scratch[:cap(p.scratch)])
		clear(p.list[:cap(p.list)])
		clear(p.rowIndex)
		clear(p.index)
		clear(p.keyHashes)
		*sc = scratch{p.rowScratch[:0], p.rowIndex, p.scratch[:0], p.list[:0], p.index, p.keyHashes}
		scratchPool.Put(sc)
	}()
	base := 0
	if bytes.HasPrefix(data, bom) {
		// Editors on Windows write a byte order mark; it carries nothing.
		base = len(bom)
	}
	body := data[base:]
	end := base + len(bytes.TrimRight(body, " \t\r\n"))
	if end == base {
		return nil, p.errAt(base, "empty file: a configuration database is one JSON object")
	}
	if !utf8.Valid(body) {
		line, col, b := source.InvalidUTF8(data)
		return nil, &source.Error{Pos: source.Pos{File: file, Line: line, Column: col},
			Msg: fmt.Sprintf("column %d: byte 0x%02X is not UTF-8: JSON must be UTF-8 (RFC 8259 section 8.1)", col, b)}
	}
	p.body, p.end = base, end
	cfg := &Config{File: file, Shape: Nested}
	p.cfg = cfg
	ok := false
	if !decoderOnly {
		var err error
		if ok, err = p.plainTop(); err != nil {
			return nil, err
		}
		if !ok {
			cfg.Notes = nil
		}
	}
	if !ok {
		p.reset(base, body)
		if err := p.top(); err != nil {
			return nil, err
		}
		// The decoder reads a stream of values and stops after the first.
		if int(p.dec.InputOffset())+p.base < end {
			return nil, p.syntaxError(nil)
		}
	}
	// Namespaces read ahead report their notes late: file order again.
	slices.SortStableFunc(cfg.Notes, func(a, b *source.Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	return cfg, nil
}

// bom is U+FEFF in UTF-8.
var bom = []byte{0xEF, 0xBB, 0xBF}

type parser struct {
	file string
	// fileName is file, shared by every row's and field's position.
	fileName *string
	data     []byte
	// last is the offset of the last position, line its line (from 0),
	// lineStart the offset of that line's first byte.
	last, line, lineStart int
	dec                   *jsontext.Decoder
	base                  int // offset in data of dec's first byte
	// tok is the last token read; it is valid until the next read.
	tok jsontext.Token
	// copy is data as one string, which the strings read are cut from:
	// a copy, so that the caller may reuse data (data itself when the
	// caller hands it over, ParseOwned), and one, so that the thousands
	// of names, values and keys of a file cost no allocation each. It lives as long as any of them, which is as long as the
	// Config; a table only scanned is read from it. Its size is the
	// file's, less than the maps per row and the interned copies it
	// replaced held.
	copy  string
	cfg   *Config
	notes *[]*source.Error
	// body, end are the offsets of the JSON text: after a byte order
	// mark, before trailing blanks.
	body, end int
	// rows and fields are allocated in blocks: a configuration has
	// thousands and lives as a whole.
	rows   []Row
	fields []Field
	strs   []string
	lists  []*Row
	// scratch gathers a row's fields, list a field's elements.
	scratch []Field
	list    []string
	// rowScratch gathers a new table's rows, rowIndex their keys.
	rowScratch []*Row
	rowIndex   map[string]int
	// index finds a name given twice in a long row (indexed).
	index   map[string]int
	indexed bool
	// decoderOnly reads every table with the decoder (FuzzParse's
	// reference); else a plain table is read without it (plain),
	// keyHashes finding a row key given twice in one only scanned whose
	// keys are out of order (hashKeys).
	decoderOnly bool
	keyHashes   map[uint64]struct{}
	hashKeys    bool
}

const block = 128

// scratch are the parser's buffers that no Config keeps, kept for the
// next parse: a fabric's switches are parsed one after another.
type scratch struct {
	rows      []*Row
	rowIndex  map[string]int
	fields    []Field
	list      []string
	index     map[string]int
	keyHashes map[uint64]struct{}
}

var scratchPool = sync.Pool{New: func() any { return &scratch{rowIndex: map[string]int{}} }}

// fieldBlocks, rowBlocks and strBlocks are the blocks rows, fields and
// keys are cut from (block*2 fields, block rows, block*8 strings). A
// Config given back (Release) puts its blocks here, emptied, for the next
// parse: the switches of a fabric are read one after another, and each
// Config is done with once its switch is built.
var (
	fieldBlocks = sync.Pool{New: func() any { b := make([]Field, block*2); return &b }}
	rowBlocks   = sync.Pool{New: func() any { b := make([]Row, block); return &b }}
	strBlocks   = sync.Pool{New: func() any { b := make([]string, block*8); return &b }}
	listBlocks  = sync.Pool{New: func() any { b := make([]*Row, block*8); return &b }}
)

// rowList is a slice of n rows cut from a shared block, for a table's
// rows in file order (RowList).
func (p *parser) rowList(n int) []*Row {
	if n > len(p.lists) {
		if n > block*8 {
			return make([]*Row, n)
		}
		b := listBlocks.Get().(*[]*Row)
		if p.cfg != nil {
			p.cfg.listBlocks = append(p.cfg.listBlocks, b)
		}
		p.lists = *b
	}
	l := p.lists[:n:n]
	p.lists = p.lists[n:]
	return l
}

// rowMaps are emptied tables' maps of rows, by size: rowMaps[i] held more
// than 2^(i-1) rows and at most 2^i. A map of a few rows is one small
// allocation, and is not kept.
var rowMaps [24]sync.Pool

// rowMap is an empty map for n rows: one a released Config held for as
// many, or a new one.
func rowMap(n int) map[string]*Row {
	if n > 8 {
		if i := bits.Len(uint(n - 1)); i < len(rowMaps) {
			if m, ok := rowMaps[i].Get().(map[string]*Row); ok {
				return m
			}
			return make(map[string]*Row, 1<<i)
		}
	}
	return make(map[string]*Row, n)
}

// putRowMap empties m and keeps it for a table of as many rows.
func putRowMap(m map[string]*Row) {
	n := len(m)
	if n <= 8 {
		return
	}
	if i := bits.Len(uint(n - 1)); i < len(rowMaps) {
		clear(m)
		rowMaps[i].Put(m)
	}
}

// fieldBlock is a block of block*2 empty fields, which the Config keeps
// (a table read after the parse, p.cfg nil, keeps its own).
func (p *parser) fieldBlock() []Field {
	b := fieldBlocks.Get().(*[]Field)
	if p.cfg != nil {
		p.cfg.fieldBlocks = append(p.cfg.fieldBlocks, b)
	}
	return *b
}

func (p *parser) newRow() *Row {
	if len(p.rows) == 0 {
		b := rowBlocks.Get().(*[]Row)
		if p.cfg != nil {
			p.cfg.rowBlocks = append(p.cfg.rowBlocks, b)
		}
		p.rows = *b
	}
	r := &p.rows[0]
	p.rows = p.rows[1:]
	// A block given back holds its last file's rows (putBlocks).
	*r = Row{}
	return r
}

// decOptions accept what encoding/json (and Python's json, which
// sonic-cfggen uses) accepts: a key given twice reaches our own notes, and
// an escaped lone surrogate ("\ud800") reads as U+FFFD. Raw invalid UTF-8
// never reaches the decoder: Parse rejects it first.
var decOptions = []jsontext.Options{
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
}

// reset points the parser at data[base:base+len(body)].
func (p *parser) reset(base int, body []byte) {
	p.base = base
	// A bytes.Buffer is read in place, without a copy (jsontext.NewDecoder).
	p.dec = jsontext.NewDecoder(bytes.NewBuffer(body), decOptions...)
}

// pos is the position of data[off]: the newlines between the last
// position and off are counted, as offsets mostly grow a few lines at a
// time (and go back to a table's start when the decoder reads it again).
func (p *parser) pos(off int) source.Pos {
	line, col := p.lineCol(off)
	return source.Pos{File: p.file, Line: line, Column: col}
}

// at is pos as a row's or field's position.
func (p *parser) at(off int) position {
	line, col := p.lineCol(off)
	return position{file: p.fileName, line: int32(min(line, math.MaxInt32)), col: int32(min(col, math.MaxInt32))}
}

// lineCol are the line and column (from 1) of data[off].
func (p *parser) lineCol(off int) (line, col int) {
	off = min(max(off, 0), len(p.copy))
	if off < p.last {
		p.line -= strings.Count(p.copy[off:p.last], "\n")
		p.lineStart = strings.LastIndexByte(p.copy[:off], '\n') + 1
		p.last = off
	}
	if n := strings.Count(p.copy[p.last:off], "\n"); n > 0 {
		p.line += n
		p.lineStart = p.last + strings.LastIndexByte(p.copy[p.last:off], '\n') + 1
	}
	p.last = off
	return p.line + 1, off - p.lineStart + 1
}

// errAt is an error or a note at data[off]; the message leads with the
// column, as Error prints only file:line.
func (p *parser) errAt(off int, format string, a ...any) *source.Error {
	pos := p.pos(off)
	return &source.Error{Pos: pos, Msg: fmt.Sprintf("column %d: ", pos.Column) + fmt.Sprintf(format, a...)}
}

func (p *parser) note(off int, format string, a ...any) {
	n := p.errAt(off, format, a...)
	if p.notes != nil {
		*p.notes = append(*p.notes, n)
		return
	}
	p.cfg.Notes = append(p.cfg.Notes, n)
}

// syntaxError is the error of a file that is not JSON. The decoder's
// SyntaxError offsets differ by the error's kind (the offending byte, or
// past it), so the error is json.Unmarshal's: its Offset counts the bytes
// read including the offending one; at the end of input, the position is
// after the last byte that is not blank, where more was due. Only a bad
// file pays for this second reading.
// decErr is the decoder's error, for a file json.Unmarshal would take.
func (p *parser) syntaxError(decErr error) *source.Error {
	err := json.Unmarshal(p.data[p.body:], new(struct{}))
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return p.errAt(p.body, "invalid JSON: %v", cmp.Or(decErr, err, errors.New("more than one value")))
	}
	off := p.body + int(se.Offset) - 1
	if off+1 >= p.end && strings.HasPrefix(se.Error(), "unexpected end") {
		off = p.end
	} else if !p.names(off, se.Error()) && p.names(off+1, se.Error()) {
		// Built with GOEXPERIMENT=jsonv2, encoding/json's Offset is that
		// of the offending byte itself.
		off++
	}
	return p.errAt(off, "invalid JSON: %v", se)
}

// names reports whether msg is about the byte at off, quoted as
// encoding/json's quoteChar does ("invalid character 'x' ...").
func (p *parser) names(off int, msg string) bool {
	if off < 0 || off >= len(p.data) {
		return false
	}
	var q string
	switch c := p.data[off]; c {
	case '\'':
		q = `'\''`
	case '"':
		q = `'"'`
	default:
		s := strconv.Quote(string(rune(c)))
		q = "'" + s[1:len(s)-1] + "'"
	}
	return strings.Contains(msg, "character "+q)
}

// next reads the next token (p.tok): its kind and the offset of its
// first byte.
func (p *parser) next() (jsontext.Kind, int, error) {
	off := int(p.dec.InputOffset()) + p.base
	for off < len(p.data) {
		c := p.data[off]
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != ':' {
			break
		}
		off++
	}
	tok, err := p.dec.ReadToken()
	if err != nil {
		return 0, off, p.syntaxError(err)
	}
	p.tok = tok
	return tok.Kind(), off, nil
}

// str is the value of the string token just read, which starts at off.
func (p *parser) str(off int) string {
	end := int(p.dec.InputOffset()) + p.base - 1
	if bytes.IndexByte(p.data[off+1:end], '\\') >= 0 {
		return p.tok.String()
	}
	return p.copy[off+1 : end]
}

// key is the next object key, or ok false at the object's end.
func (p *parser) key() (key string, off int, ok bool, err error) {
	kind, off, err := p.next()
	if err != nil {
		return "", off, false, err
	}
	if kind == '}' {
		return "", off, false, nil
	}
	if kind != '"' {
		return "", off, false, p.errAt(off, "invalid JSON: object key %v is not a string", p.text(kind, off))
	}
	return p.str(off), off, true, nil
}

// skip reads the rest of a value whose opening delimiter was read.
func (p *parser) skip() error {
	for depth := 1; depth > 0; {
		kind, _, err := p.next()
		if err != nil {
			return err
		}
		switch kind {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	return nil
}

// describe names a token's JSON kind for a message.
func describe(kind jsontext.Kind) string {
	switch kind {
	case '[', ']':
		return "an array"
	case '{', '}':
		return "an object"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return kind.String()
}

// text is the JSON text of the scalar token just read, which starts at
// off: a string's value, else the literal or number as written.
func (p *parser) text(kind jsontext.Kind, off int) string {
	if kind == '"' {
		return p.str(off)
	}
	return p.copy[off : int(p.dec.InputOffset())+p.base]
}

// isNamespace reports whether a top-level key names a namespace of a
// multi-ASIC switch: "localhost" is the host's, "asic<N>" the ASICs'
// (sonic-net/sonic-buildimage src/sonic-py-common/sonic_py_common/multi_asic.py,
// ASIC_NAME_PREFIX "asic").
func isNamespace(k string) bool {
	if k == "localhost" {
		return true
	}
	n, ok := strings.CutPrefix(k, "asic")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// isTableName reports whether a key looks like a table's (or a flat row's)
// name: SONiC's tables are named in upper case, digits and "_"
// (sonic-net/sonic-buildimage src/sonic-yang-models/yang-models/).
func isTableName(k string) bool {
	if k == bgpraw {
		return true
	}
	t, _, _ := strings.Cut(k, "|")
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// bgpraw is the key under which `show runningconfiguration all` adds FRR's
// running configuration as text (sonic-net/sonic-utilities show/main.py,
// def all).
const bgpraw = "bgpraw"

// pending is a top-level "localhost"/"asic<N>" object read as a namespace
// before the file's shape is known.
type pending struct {
	name       string
	koff       int        // the key's offset
	ns         *Namespace // nil when the value is not a namespace
	notes      []*source.Error
	start, end int // the value's bytes
}

// plainTop reads a single-namespace file without the decoder at its top
// level, whose keys hold no escape and whose first is not a namespace's,
// in JSON the scan accepts (it accepts less than the decoder does). A
// value that is not a plain table (a flat row, "bgpraw", a table that is
// not plain) is read by a decoder of its own. ok false is any other file,
// which top reads from the start; err is what a value's reading found,
// the error top would have returned there, as what came before was plain.
func (p *parser) plainTop() (ok bool, err error) {
	d := p.copy[:p.end]
	i := p.body
	ws := func() {
		for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
			i++
		}
	}
	ws()
	if i >= len(d) || d[i] != '{' {
		return false, nil
	}
	i++
	ws()
	ns := &Namespace{Tables: map[string]*Table{}}
	flat, nested := 0, 0
	if i < len(d) && d[i] == '}' {
		i++
	} else {
		for {
			koff := i
			if i >= len(d) || d[i] != '"' {
				return false, nil
			}
			j := i + 1
			for j < len(d) && d[j] != '"' && d[j] != '\\' && d[j] >= 0x20 {
				j++
			}
			if j >= len(d) || d[j] != '"' {
				return false, nil
			}
			name := d[i+1 : j]
			if isNamespace(name) && flat+nested == 0 {
				// Perhaps multi-ASIC: top decides.
				return false, nil
			}
			i = j + 1
			ws()
			if i >= len(d) || d[i] != ':' {
				return false, nil
			}
			i++
			ws()
			end, read := 0, false
			isTable := name != bgpraw && !strings.Contains(name, "|")
			if isTable {
				nested++
			}
			if isTable && i < len(d) && d[i] == '{' && ns.Tables[name] == nil {
				t := &Table{Name: name, Pos: p.pos(koff), nested: true}
				if readTables[name] {
					end, read = p.plain(i, t)
				} else if end, read = p.plain(i, nil); read {
					t.lazy = &lazyTable{file: p.fileName, copy: p.copy, start: i, end: end}
				}
				if read {
					ns.Tables[name] = t
					ns.Order = append(ns.Order, name)
				}
			}
			if !read {
				// A decoder of the value's own, which stops after it.
				p.reset(i, p.data[i:p.end])
				p.decoderOnly = true
				switch {
				case name == bgpraw:
					err = p.skipBgpraw(koff)
				case !isTable:
					flat++
					err = p.flatRow(ns, name, koff)
				default:
					err = p.nestedTable(ns, name, koff)
				}
				p.decoderOnly = false
				if err != nil {
					return false, err
				}
				end = int(p.dec.InputOffset()) + p.base
			}
			i = end
			ws()
			if i >= len(d) {
				return false, nil
			}
			if d[i] == '}' {
				i++
				break
			}
			if d[i] != ',' {
				return false, nil
			}
			i++
			ws()
		}
	}
	if i != p.end {
		return false, nil
	}
	if flat > 0 && nested == 0 {
		p.cfg.Shape = Flat
	}
	p.cfg.Namespaces = []*Namespace{ns}
	return true, nil
}

func (p *parser) top() error {
	kind, off, err := p.next()
	if err != nil {
		return err
	}
	if kind != '{' {
		return p.errAt(off, "the top level is %s, not an object: a configuration database is {\"TABLE\": {...}}", describe(kind))
	}
	single := &Namespace{Tables: map[string]*Table{}}
	var multi []*pending
	isMulti := true // until a key says otherwise
	flat, nested := 0, 0
	// demote reads the namespaces read so far as tables of the single
	// namespace, in file order: the file is not multi-ASIC after all.
	demote := func() error {
		if !isMulti {
			return nil
		}
		isMulti = false
		dec, base := p.dec, p.base
		for _, m := range multi {
			p.reset(m.start, p.data[m.start:m.end])
			if err := p.nestedTable(single, m.name, m.koff); err != nil {
				return err
			}
			nested++
		}
		p.dec, p.base = dec, base
		multi = nil
		return nil
	}
	for {
		k, koff, ok, err := p.key()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if k == bgpraw {
			if err := p.skipBgpraw(koff); err != nil {
				return err
			}
			continue
		}
		if isMulti && isNamespace(k) {
			m, err := p.namespace(k, koff)
			if err != nil {
				return err
			}
			multi = append(multi, m)
			if m.ns != nil {
				continue
			}
			// Not a namespace: this and those before are tables.
			if err := demote(); err != nil {
				return err
			}
			continue
		}
		if err := demote(); err != nil {
			return err
		}
		if strings.Contains(k, "|") {
			flat++
			err = p.flatRow(single, k, koff)
		} else {
			nested++
			err = p.nestedTable(single, k, koff)
		}
		if err != nil {
			return err
		}
	}
	if isMulti && len(multi) > 0 {
		p.cfg.Shape = MultiASIC
		// A namespace given twice keeps its first place and the last value.
		var kept []*pending
		for _, m := range multi {
			i := slices.IndexFunc(kept, func(k *pending) bool { return k.name == m.name })
			if i < 0 {
				kept = append(kept, m)
				continue
			}
			p.note(m.koff, "namespace %s given twice (first at line %d); the last wins", m.name, kept[i].ns.Pos.Line)
			kept[i] = m
		}
		for _, m := range kept {
			p.cfg.Namespaces = append(p.cfg.Namespaces, m.ns)
			p.cfg.Notes = append(p.cfg.Notes, m.notes...)
		}
		return nil
	}
	if err := demote(); err != nil {
		return err
	}
	if flat > 0 && nested == 0 {
		p.cfg.Shape = Flat
	}
	p.cfg.Namespaces = []*Namespace{single}
	return nil
}

func (p *parser) skipBgpraw(koff int) error {
	kind, _, err := p.next()
	if err != nil {
		return err
	}
	if kind == '{' || kind == '[' {
		if err := p.skip(); err != nil {
			return err
		}
	}
	p.note(koff, "%q (FRR's running configuration, added by `show runningconfiguration all`) ignored", bgpraw)
	return nil
}

// namespace reads a "localhost"/"asic<N>" value as a namespace; m.ns is
// nil when it is not one (not an object, or a key that is not a table
// name), and m.start, m.end are the value's bytes to read it again.
func (p *parser) namespace(name string, koff int) (m *pending, err error) {
	kind, voff, err := p.next()
	if err != nil {
		return nil, err
	}
	m = &pending{name: name, koff: koff, start: voff}
	defer func() {
		if m != nil {
			m.end = int(p.dec.InputOffset()) + p.base
		}
	}()
	if kind != '{' {
		if kind == '[' {
			if err := p.skip(); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	ns := &Namespace{Name: name, Pos: p.pos(koff), Tables: map[string]*Table{}}
	p.notes = &m.notes
	defer func() { p.notes = nil }()
	for {
		k, off, ok, err := p.key()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if !isTableName(k) {
			return m, p.skip()
		}
		switch {
		case k == bgpraw:
			err = p.skipBgpraw(off)
		case strings.Contains(k, "|"):
			err = p.flatRow(ns, k, off)
		default:
			err = p.nestedTable(ns, k, off)
		}
		if err != nil {
			return nil, err
		}
	}
	m.ns = ns
	return m, nil
}

// nestedTable reads the value of the table key name at koff into ns.
func (p *parser) nestedTable(ns *Namespace, name string, koff int) error {
	if t := ns.Tables[name]; t == nil && !p.decoderOnly && p.dec.PeekKind() == '{' {
		if ok, err := p.plainTable(ns, name, koff); ok || err != nil {
			return err
		}
	}
	kind, off, err := p.next()
	if err != nil {
		return err
	}
	if kind != '{' {
		return p.errAt(off, "table %s is %s, not an object of rows", name, describe(kind))
	}
	t := ns.Tables[name]
	switch {
	case t == nil:
		t = &Table{Name: name, Pos: p.pos(koff), nested: true}
		ns.Tables[name] = t
		ns.Order = append(ns.Order, name)
	case t.nested:
		p.note(koff, "table %s given twice (first at line %d); the last wins", name, t.Pos.Line)
		*t = Table{Name: name, Pos: p.pos(koff), nested: true}
	default:
		// Rows given flat before: the nested ones join them.
		t.nested = true
		for {
			k, koff, ok, err := p.key()
			if err != nil || !ok {
				return err
			}
			r, err := p.row(t, k, koff)
			if err != nil {
				return err
			}
			p.addRow(t, r, koff)
		}
	}
	// A new table's rows are gathered first, so that its map is made at
	// its size once.
	rows := p.rowScratch[:0]
	clear(p.rowIndex)
	for {
		k, koff, ok, err := p.key()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		r, err := p.row(t, k, koff)
		if err != nil {
			return err
		}
		if i, ok := p.rowIndex[k]; ok {
			p.note(koff, "row %q of table %s given twice (first at line %d); the last wins", k, name, rows[i].at.line)
			rows[i] = r
			continue
		}
		p.rowIndex[k] = len(rows)
		rows = append(rows, r)
	}
	p.rowScratch = rows[:0]
	p.setRows(t, rows, false)
	return nil
}

// plainTable reads table name, whose '{' is next, when it is plain (see
// plain): a table the model reads at once, any other on its first use. ok
// is false when it is not plain, and the caller reads it.
func (p *parser) plainTable(ns *Namespace, name string, koff int) (ok bool, err error) {
	off := int(p.dec.InputOffset()) + p.base
	for off < p.end && p.data[off] != '{' {
		off++
	}
	t := &Table{Name: name, Pos: p.pos(koff), nested: true}
	read := readTables[name]
	var end int
	if read {
		end, ok = p.plain(off, t)
	} else {
		end, ok = p.plain(off, nil)
	}
	if !ok {
		return false, nil
	}
	// The decoder checks the JSON as it reads it whole (in one pass, not
	// token by token as SkipValue does); plain accepts less than it does,
	// and ends where it does.
	if _, err := p.dec.ReadValue(); err != nil {
		return false, p.syntaxError(err)
	}
	if got := int(p.dec.InputOffset()) + p.base; got != end {
		return false, p.errAt(off, "table %s: read to offset %d, skipped to %d", name, end, got)
	}
	if !read {
		t.lazy = &lazyTable{file: p.fileName, copy: p.copy, start: off, end: end}
	}
	ns.Tables[name] = t
	ns.Order = append(ns.Order, name)
	return true, nil
}

// flatRow reads the value of the top-level key "TABLE|key" at koff.
func (p *parser) flatRow(ns *Namespace, k string, koff int) error {
	name, key, _ := strings.Cut(k, "|")
	t := ns.Tables[name]
	// Rows given flat join a table given nested before.
	t.load()
	if t == nil {
		t = &Table{Name: name, Pos: p.pos(koff), Rows: map[string]*Row{}}
		ns.Tables[name] = t
		ns.Order = append(ns.Order, name)
	}
	r, err := p.row(t, key, koff)
	if err != nil {
		return err
	}
	p.addRow(t, r, koff)
	return nil
}

// addRow adds r to t, in the place of a row of the same key.
func (p *parser) addRow(t *Table, r *Row, koff int) {
	t.keyRows()
	if old := t.Rows[r.Key]; old != nil {
		p.note(koff, "row %q of table %s given twice (first at line %d); the last wins", r.Key, t.Name, old.at.line)
	} else {
		t.Keys = append(t.Keys, r.Key)
	}
	t.Rows[r.Key] = r
	// RowList reads them from Rows now.
	t.list = nil
}

// row reads the value of row key at koff, a row of t.
func (p *parser) row(t *Table, key string, koff int) (*Row, error) {
	kind, off, err := p.next()
	if err != nil {
		return nil, err
	}
	if kind != '{' {
		return nil, p.errAt(off, "row %q of table %s is %s, not an object of fields", key, t.Name, describe(kind))
	}
	r := p.newRow()
	*r = Row{Key: key, at: p.at(koff)}
	// The fields are gathered first, so that the row's are cut from a
	// shared block at their number once.
	fs := p.scratch[:0]
	p.indexed = false
	for {
		name, foff, ok, err := p.key()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		f, ok, err := p.field(t, r, name, foff)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if i := p.find(fs, name); i >= 0 {
			p.note(foff, "field %q of %s|%s given twice (first at line %d); the last wins", name, t.Name, key, fs[i].at.line)
			fs[i] = f
			continue
		}
		if p.indexed {
			p.index[name] = len(fs)
		}
		fs = append(fs, f)
	}
	p.scratch = fs[:0]
	if len(fs) == 0 {
		return r, nil
	}
	r.Fields = p.newFields(len(fs))
	copy(r.Fields, fs)
	if len(fs) > maxScan {
		r.index = make(map[string]int32, len(fs))
		for i := range fs {
			r.index[fs[i].Name] = int32(i)
		}
	}
	return r, nil
}

// newFields is a slice of n fields cut from a shared block: a
// configuration has thousands of short rows, and lives as a whole.
func (p *parser) newFields(n int) []Field {
	if n > len(p.fields) {
		if n > block {
			return make([]Field, n)
		}
		p.fields = p.fieldBlock()
	}
	f := p.fields[:n:n]
	p.fields = p.fields[n:]
	return f
}

// find is the index in fs of the field name, -1 if absent: a scan while
// the row is short, then p.index, which holds a long row's fields.
func (p *parser) find(fs []Field, name string) int {
	if !p.indexed {
		for i := range fs {
			if fs[i].Name == name {
				return i
			}
		}
		if len(fs) < maxScan {
			return -1
		}
		if p.index == nil {
			p.index = make(map[string]int, 2*maxScan)
		}
		clear(p.index)
		p.indexed = true
		for i := range fs {
			p.index[fs[i].Name] = i
		}
		return -1
	}
	if i, ok := p.index[name]; ok {
		return i
	}
	return -1
}

// maxScan is the most fields a row is scanned for a name (given twice,
// or asked for by Get).
const maxScan = 32

// setRows gives a table its rows, in file order, in a map made at its
// size; false when two rows have one key (the map has fewer), which
// nestedTable's rows never have. Rows whose keys are in byte order
// (inOrder, each after the one before) have no key twice, and get no map:
// Row finds a key in Keys. Most tables of a file are so, as sonic-cfggen
// writes its keys sorted, and the model walks most of them rather than
// looking keys up: the maps were an eighth of a SONiC switch's parse.
func (p *parser) setRows(t *Table, rows []*Row, inOrder bool) bool {
	if len(rows) > 0 {
		t.Keys = p.strings(len(rows))
		t.list = p.rowList(len(rows))
		copy(t.list, rows)
	}
	for i, r := range rows {
		t.Keys[i] = r.Key
	}
	if inOrder {
		t.Rows = nil
		return true
	}
	t.Rows = rowMap(len(rows))
	for _, r := range rows {
		t.Rows[r.Key] = r
	}
	return len(t.Rows) == len(rows)
}

// keyRows gives a table whose keys were in order (setRows) its map of
// rows, for rows to join it.
func (t *Table) keyRows() {
	if t.Rows != nil {
		return
	}
	t.Rows = rowMap(len(t.Keys))
	for i, k := range t.Keys {
		t.Rows[k] = t.list[i]
	}
}

// strings is a slice of n strings cut from a shared block: a
// configuration has thousands of short lists, and lives as a whole.
func (p *parser) strings(n int) []string {
	if n > len(p.strs) {
		if n > block*8 {
			return make([]string, n)
		}
		b := strBlocks.Get().(*[]string)
		if p.cfg != nil {
			p.cfg.strBlocks = append(p.cfg.strBlocks, b)
		}
		p.strs = *b
	}
	s := p.strs[:n:n]
	p.strs = p.strs[n:]
	return s
}

// field reads a field's value; ok false when it is skipped.
func (p *parser) field(t *Table, r *Row, name string, foff int) (f Field, ok bool, err error) {
	kind, off, err := p.next()
	if err != nil {
		return f, false, err
	}
	f = Field{Name: name, at: p.at(foff)}
	switch kind {
	case '"':
		f.Value = p.str(off)
		return f, true, nil
	case '{':
		if err := p.skip(); err != nil {
			return f, false, err
		}
		p.note(off, "field %q of %s|%s is an object, not a string: ignored", name, t.Name, r.Key)
		return f, false, nil
	case '[':
		return p.readList(t, r, f)
	}
	f.Value = p.text(kind, off)
	p.note(off, "field %q of %s|%s is %s, not a string: read as %q", name, t.Name, r.Key, describe(kind), f.Value)
	return f, true, nil
}

// list reads a JSON array (a YANG leaf-list) after its '['.
func (p *parser) readList(t *Table, r *Row, f Field) (Field, bool, error) {
	l := p.list[:0]
	for {
		kind, off, err := p.next()
		if err != nil {
			return f, false, err
		}
		switch kind {
		case ']':
			p.list = l[:0]
			if len(l) == 0 {
				f.List = []string{}
				return f, true, nil
			}
			f.List = p.strings(len(l))
			copy(f.List, l)
			f.Value = strings.Join(f.List, ",")
			return f, true, nil
		case '{', '[':
			if err := p.skip(); err != nil {
				return f, false, err
			}
			// The rest of the array, then the field is dropped.
			if err := p.skip(); err != nil {
				return f, false, err
			}
			p.note(off, "field %q of %s|%s holds %s in its list, not strings: ignored", f.Name, t.Name, r.Key, describe(kind))
			return f, false, nil
		case '"':
			l = append(l, p.str(off))
		default:
			s := p.text(kind, off)
			p.note(off, "element of field %q of %s|%s is %s, not a string: read as %q", f.Name, t.Name, r.Key, describe(kind), s)
			l = append(l, s)
		}
	}
}
