// Package configdb reads a SONiC switch's configuration database as JSON:
// the output of `sonic-cfggen -d --print-data`, a copy of
// /etc/sonic/config_db.json, or `show runningconfiguration all`, keeping
// the line and column of every table, row and field so that a finding can
// name the key that decides.
//
// The file is one object {"TABLE": {"key": {"field": "value"}}}; every
// value is a string, lists are comma strings except YANG leaf-lists, which
// are JSON arrays (sonic-net/sonic-buildimage src/sonic-config-engine/
// sonic-cfggen, src/sonic-yang-models/tests/files/sample_config_db.json).
// Multi-part keys are joined with "|" ("Ethernet0|3"). Three other shapes
// are read as the same tables:
//   - the flat redis-dump shape, {"TABLE|key": {...}}
//     (sonic-net/sonic-utilities tests/mock_tables/config_db.json);
//   - `show runningconfiguration all`, which adds "bgpraw" (FRR's
//     running configuration as text, ignored) and, on a multi-ASIC
//     switch, nests each namespace: {"localhost": {...}, "asic0": {...}}
//     (sonic-net/sonic-utilities show/main.py, def all);
//   - references in the old "[TABLE|name]" syntax, which releases before
//     db_migrator's 3_0_3 step wrote (sonic-net/sonic-utilities
//     scripts/db_migrator.py, migrate_qos_db_fieldval_reference_remove):
//     Ref reads both.
package configdb

import (
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/qoslint/qoslint/internal/filebuf"
	"github.com/qoslint/qoslint/internal/source"
)

// Shape is which of the file's shapes was read.
type Shape string

const (
	// Nested is {"TABLE": {"key": {...}}}.
	Nested Shape = "nested"
	// Flat is the redis-dump shape {"TABLE|key": {...}}.
	Flat Shape = "flat"
	// MultiASIC is {"localhost": {...}, "asic0": {...}}.
	MultiASIC Shape = "multi-asic"
)

// Config is one configuration file.
type Config struct {
	File  string
	Shape Shape
	// Namespaces are the file's namespaces in file order: one, named "",
	// for a single-ASIC switch; "localhost" and "asic<N>" on a multi-ASIC
	// one.
	Namespaces []*Namespace
	// Notes are remarks that are not errors: a key given twice (the last
	// wins, as in Python's json), a value that is not a string, "bgpraw"
	// ignored.
	Notes []*source.Error
	// text is the file's buffer, which the strings are cut from, when
	// the Config owns it (ParseOwned): Release gives it back.
	text []byte
	// The blocks the rows, fields and keys are cut from, for Release.
	fieldBlocks []*[]Field
	rowBlocks   []*[]Row
	strBlocks   []*[]string
	listBlocks  []*[]*Row
}

// Release gives the Config's rows, fields and row keys back for the next
// Parse to reuse: a caller done with the Config (collectors/fabric, once
// the switch's model is built, which keeps none of them) calls it, and
// reads nothing of it afterwards: its namespaces are gone, and a row or
// field kept from it is another file's. A Config of ParseOwned gives its
// file's buffer back too (filebuf.Put), for the next file's reading: a
// string read from it is then another file's text, and must have been
// copied (sonicmodel's own). Strings read from a Config of Parse stay
// valid: they are cut from a copy of the file, which is not reused. The
// notes stay, and hold no text of the file.
func (c *Config) Release() {
	if c == nil {
		return
	}
	if c.text != nil {
		filebuf.Put(c.text)
		c.text = nil
	}
	putBlocks(c.fieldBlocks, &fieldBlocks)
	putBlocks(c.rowBlocks, &rowBlocks)
	putBlocks(c.strBlocks, &strBlocks)
	putBlocks(c.listBlocks, &listBlocks)
	for _, ns := range c.Namespaces {
		for _, t := range ns.Tables {
			putRowMap(t.Rows)
			t.Rows = nil
		}
	}
	c.fieldBlocks, c.rowBlocks, c.strBlocks, c.listBlocks, c.Namespaces = nil, nil, nil, nil, nil
}

// Namespace is one namespace's tables.
type Namespace struct {
	Name string
	// Pos is the namespace's key; the zero Pos for "".
	Pos source.Pos
	// Tables are the namespace's tables by name. A table the model does
	// not read may be only scanned until Table (or a Table method) asks
	// for it: read them through Table.
	Tables map[string]*Table
	// Order is the table names in file order.
	Order []string
}

// Table is one table.
type Table struct {
	Name string
	// Pos is the table's key; in the flat shape, the key of its first row.
	Pos source.Pos
	// Rows are the rows by key; nil for a table read with its keys in
	// byte order, as sonic-cfggen writes them, whose rows Row finds in
	// Keys. Read a row through Row.
	Rows map[string]*Row
	// Keys are the row keys in file order.
	Keys []string
	// list is the rows in Keys' order, as the parse gathered them; nil
	// once rows given flat joined (RowList reads Rows then).
	list []*Row
	// nested is whether a nested key "TABLE" gave rows, rather than only
	// flat keys "TABLE|key": a second nested key replaces the table.
	nested bool
	// lazy is a table only scanned: Rows and Keys are read on first use.
	lazy *lazyTable
}

// Row is one entry of a table.
type Row struct {
	// Key is the row's key as written after the table name: "Ethernet0|3".
	Key string
	// at is the key's position (Pos).
	at position
	// Fields are the row's fields in file order; a field given twice is
	// in the place of its first, with the last value. They are one array
	// rather than a map: a row has a handful of fields, which a scan finds
	// faster than a hash, and a file has thousands of rows.
	Fields []Field
	// index finds a field of a long row (more than maxScan fields, such
	// as CABLE_LENGTH's one per port); nil for a short one.
	index map[string]int32
}

// Field is one field of a row.
type Field struct {
	Name string
	// Value is the string value; for a JSON array, its elements joined by
	// ",".
	Value string
	// List holds a JSON array's elements; nil for a string.
	List []string
	// at is the key's position (Pos).
	at position
}

// position is where a row's or a field's key is written: its line and
// column, and the file's name, which every position of a file shares. A
// file has thousands of rows and fields: a source.Pos in each held its own
// copy of the name, 16 bytes of a field's 88.
type position struct {
	file      *string
	line, col int32
}

func (p position) pos() source.Pos {
	pos := source.Pos{Line: int(p.line), Column: int(p.col)}
	if p.file != nil {
		pos.File = *p.file
	}
	return pos
}

// positionOf is pos as a position, for a row or field built rather than
// parsed.
func positionOf(pos source.Pos) position {
	p := position{line: int32(min(pos.Line, math.MaxInt32)), col: int32(min(pos.Column, math.MaxInt32))}
	if pos.File != "" {
		p.file = &pos.File
	}
	return p
}

// Pos is where the row's key is.
func (r *Row) Pos() source.Pos { return r.at.pos() }

// Pos is where the field's name is.
func (f *Field) Pos() source.Pos { return f.at.pos() }

// WithPos is f at pos, for a caller that builds a configuration rather
// than parsing one.
func (f Field) WithPos(pos source.Pos) Field {
	f.at = positionOf(pos)
	return f
}

// Table returns the namespace's table name, nil when absent (or when n is
// nil).
func (n *Namespace) Table(name string) *Table {
	if n == nil {
		return nil
	}
	t := n.Tables[name]
	t.load()
	return t
}

// Row returns the table's row key, nil when absent (or when t is nil).
func (t *Table) Row(key string) *Row {
	if t == nil {
		return nil
	}
	t.load()
	if t.Rows == nil && len(t.list) == len(t.Keys) {
		if i, ok := slices.BinarySearch(t.Keys, key); ok {
			return t.list[i]
		}
		return nil
	}
	return t.Rows[key]
}

// RowList is the table's rows in file order, Keys' order (nil when t is
// nil): a walk of every row without a lookup of each key. The slice is
// the table's: callers must not change it. It is the rows as parsed: a
// caller that builds a table, or changes Keys, gets them from Rows; one
// that replaces a row in Rows reads it there.
func (t *Table) RowList() []*Row {
	if t == nil {
		return nil
	}
	t.load()
	if len(t.Keys) == 0 {
		return nil
	}
	if len(t.list) == len(t.Keys) {
		return t.list
	}
	rows := make([]*Row, len(t.Keys))
	for i, k := range t.Keys {
		rows[i] = t.Rows[k]
	}
	return rows
}

// Len is the number of the table's rows, 0 when t is nil.
func (t *Table) Len() int {
	if t == nil {
		return 0
	}
	t.load()
	return len(t.Keys)
}

// Get returns the row's field name, nil when absent (or when r is nil).
func (r *Row) Get(name string) *Field {
	if r == nil {
		return nil
	}
	if r.index != nil {
		if i, ok := r.index[name]; ok {
			return &r.Fields[i]
		}
		return nil
	}
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			return &r.Fields[i]
		}
	}
	return nil
}

// Names are the row's field names in file order.
func (r *Row) Names() []string {
	if r == nil {
		return nil
	}
	names := make([]string, len(r.Fields))
	for i := range r.Fields {
		names[i] = r.Fields[i].Name
	}
	return names
}

// NewRow is a row of fields, in their order, for a caller that builds a
// configuration rather than parsing one; a name given twice keeps its
// first place and the last field.
func NewRow(key string, pos source.Pos, fields ...Field) *Row {
	r := &Row{Key: key, at: positionOf(pos)}
	for _, f := range fields {
		if g := r.Get(f.Name); g != nil {
			*g = f
			continue
		}
		r.Fields = append(r.Fields, f)
	}
	if len(r.Fields) > maxScan {
		r.index = make(map[string]int32, len(r.Fields))
		for i := range r.Fields {
			r.index[r.Fields[i].Name] = int32(i)
		}
	}
	return r
}

// Set gives the row's field f.Name f's value and position, in its place
// when the row has it, else last.
func (r *Row) Set(f Field) {
	if g := r.Get(f.Name); g != nil {
		*g = f
		return
	}
	*r = *NewRow(r.Key, r.Pos(), append(slices.Clip(r.Fields), f)...)
}

// Namespace returns the namespace name ("" on a single-ASIC switch), nil
// when absent (or when c is nil).
func (c *Config) Namespace(name string) *Namespace {
	if c == nil {
		return nil
	}
	for _, n := range c.Namespaces {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// Sorted is the table's row keys in byte order, for deterministic output.
func (t *Table) Sorted() []string {
	if t == nil {
		return nil
	}
	t.load()
	if t.Rows == nil {
		return slices.Clone(t.Keys)
	}
	return slices.Sorted(maps.Keys(t.Rows))
}

// SplitKey splits a multi-part key at "|": "Ethernet0|3-4" is
// ["Ethernet0", "3-4"].
func SplitKey(key string) []string { return strings.Split(key, "|") }

// Ref reads a reference to another table's row in either syntax: the old
// "[TABLE|name]" gives ("TABLE", "name"), the bare "name" of current
// releases gives ("", "name"); the table is then the one the field's
// schema names (sonic-net/sonic-utilities scripts/db_migrator.py,
// migrate_qos_db_fieldval_reference_remove, strips the brackets and the
// table). A list of references ("profile_list") is split at "," first.
func Ref(v string) (table, name string) {
	inner, ok := strings.CutPrefix(v, "[")
	if !ok {
		return "", v
	}
	inner, ok = strings.CutSuffix(inner, "]")
	if !ok {
		return "", v
	}
	if t, n, ok := strings.Cut(inner, "|"); ok {
		return t, n
	}
	return "", inner
}

// ValueOr is the field's value, def when the field is absent.
func (f *Field) ValueOr(def string) string {
	if f == nil {
		return def
	}
	return f.Value
}

// putBlocks gives blocks back to their pool as they are: the parse that
// takes one writes each row, field, key or list it cuts from it whole
// (newRow empties a row), and reads nothing else of it. Emptying them
// here was a twentieth of a SONiC switch's lint, at some 150 kB of blocks
// per file. What the blocks hold until they are written again is the
// text and blocks of files parsed before, which go back to their pools
// (filebuf, Release) as well: it keeps alive a few files' worth for each
// parse at once, and nothing once the pools drop their blocks.
func putBlocks[T any](blocks []*[]T, pool *sync.Pool) {
	for _, b := range blocks {
		pool.Put(b)
	}
}
