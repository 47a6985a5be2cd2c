package configdb

import (
	"bytes"
	"hash/maphash"
	"strings"
	"sync"
)

// readTables are the tables collectors/sonic/sonicmodel reads: the port,
// metadata, QoS map, queue, scheduler, WRED, buffer and hash tables. They
// are read with the file, as nearly every use of a Config reads them. Any
// other table (a switch's ACLs, BGP neighbours, VLANs, interfaces, flex
// counters and the like: sonic-net/sonic-buildimage
// src/sonic-yang-models/yang-models/ has some ninety) is only scanned, and
// read when Table asks for it: a lint pays little for what it does not
// read. A table missing here is still read, on its first use.
var readTables = map[string]bool{
	"BUFFER_PG": true, "BUFFER_POOL": true, "BUFFER_PROFILE": true,
	"CABLE_LENGTH": true, "DEVICE_METADATA": true, "LOSSLESS_TRAFFIC_PATTERN": true,
	"PFC_WD": true, "PORT": true, "PORT_QOS_MAP": true, "QUEUE": true,
	"SCHEDULER": true, "SWITCH_HASH": true, "WRED_PROFILE": true,
	"DSCP_TO_TC_MAP": true, "DOT1P_TO_TC_MAP": true, "TC_TO_QUEUE_MAP": true,
	"TC_TO_PRIORITY_GROUP_MAP": true, "MAP_PFC_PRIORITY_TO_QUEUE": true,
}

// ReadWithFile reports whether table is read with the file rather than on
// its first use: a builder that reads a table outside them should have it
// added (its test says so).
func ReadWithFile(table string) bool { return readTables[table] }

// lazyTable is a table scanned but not read: its bytes, and what reading
// them needs.
type lazyTable struct {
	once       sync.Once
	file, copy string // the file's name and text
	koff       int    // the table's key
	start, end int    // the table's value
}

// load reads a table that was only scanned (t may be nil, or read).
func (t *Table) load() {
	if t == nil || t.lazy == nil {
		return
	}
	l := t.lazy
	l.once.Do(func() {
		// The parser reads positions in the whole file; only the table's
		// bytes are copied in, the rest stays zero and unread.
		data := make([]byte, l.end)
		copy(data[l.start:], l.copy[l.start:l.end])
		// Line starts are counted in the text: data has only the
		// table's newlines.
		p := &parser{file: l.file, data: data, copy: l.copy, lines: lineStartsOf(l.copy[:l.end]),
			rowIndex: map[string]int{}, eager: true, cfg: &Config{}}
		p.body, p.end = l.start, l.end
		p.reset(l.start, data[l.start:l.end])
		ns := &Namespace{Tables: map[string]*Table{}}
		// scanTable accepted the bytes: reading them cannot fail nor
		// note anything (FuzzParse compares both ways of reading).
		if err := p.nestedTable(ns, t.Name, l.koff); err == nil {
			read := ns.Tables[t.Name]
			t.Rows, t.Keys = read.Rows, read.Keys
		}
		if t.Rows == nil {
			t.Rows = map[string]*Row{}
		}
	})
}

// lineStartsOf is lineStarts of a string.
func lineStartsOf(s string) []int {
	starts := make([]int, 1, strings.Count(s, "\n")+1)
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
}

// seed hashes row keys while scanning.
var seed = maphash.MakeSeed()

// scanTable reports whether the table value at data[off] ('{') is plain:
// an object of rows, each an object of fields whose values are strings or
// arrays of strings; no string holding an escape; no row key given twice;
// no field name given twice in a row of at most maxScan fields. Such a
// table reads without a note, so it may be read later. end is the offset
// after its '}'. Anything else is read now, where the parser reports it.
func (p *parser) scanTable(off int) (end int, ok bool) {
	d := p.data[:p.end]
	i := off + 1
	ws := func() {
		for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
			i++
		}
	}
	// str reads a string without escapes or control characters (the file
	// is valid UTF-8), returning its contents' bounds.
	str := func() (a, b int, ok bool) {
		if i >= len(d) || d[i] != '"' {
			return 0, 0, false
		}
		a = i + 1
		for j := a; j < len(d); j++ {
			switch c := d[j]; {
			case c == '"':
				i = j + 1
				return a, j, true
			case c == '\\' || c < 0x20:
				return 0, 0, false
			}
		}
		return 0, 0, false
	}
	// sep reads ',' before another item, or the closing delimiter c: more
	// is whether an item follows.
	sep := func(c byte) (more, ok bool) {
		ws()
		if i >= len(d) {
			return false, false
		}
		switch d[i] {
		case ',':
			i++
			ws()
			return true, true
		case c:
			i++
			return false, true
		}
		return false, false
	}
	colon := func() bool {
		ws()
		if i >= len(d) || d[i] != ':' {
			return false
		}
		i++
		ws()
		return true
	}
	// open reads the opening c and whether the value is empty (c+2).
	open := func(c byte) (empty, ok bool) {
		if i >= len(d) || d[i] != c {
			return false, false
		}
		i++
		ws()
		if i < len(d) && d[i] == c+2 {
			i++
			return true, true
		}
		return false, true
	}
	if p.keyHashes == nil {
		p.keyHashes = map[uint64]struct{}{}
	}
	clear(p.keyHashes)
	ws()
	if i < len(d) && d[i] == '}' {
		return i + 1, true
	}
	for {
		a, b, ok := str()
		if !ok || !colon() {
			return 0, false
		}
		h := maphash.Bytes(seed, d[a:b])
		if _, dup := p.keyHashes[h]; dup {
			return 0, false
		}
		p.keyHashes[h] = struct{}{}
		empty, ok := open('{')
		if !ok {
			return 0, false
		}
		names := p.fieldSpans[:0]
		for !empty {
			a, b, ok := str()
			if !ok || !colon() || len(names) == maxScan {
				return 0, false
			}
			for _, n := range names {
				if bytes.Equal(d[n[0]:n[1]], d[a:b]) {
					return 0, false
				}
			}
			names = append(names, [2]int{a, b})
			if i < len(d) && d[i] == '[' {
				emptyList, _ := open('[')
				for !emptyList {
					if _, _, ok := str(); !ok {
						return 0, false
					}
					more, ok := sep(']')
					if !ok {
						return 0, false
					}
					emptyList = !more
				}
			} else if _, _, ok := str(); !ok {
				return 0, false
			}
			more, ok := sep('}')
			if !ok {
				return 0, false
			}
			empty = !more
		}
		p.fieldSpans = names[:0]
		more, ok := sep('}')
		if !ok {
			return 0, false
		}
		if !more {
			return i, true
		}
	}
}
