package configdb

import (
	"hash/maphash"
	"math/bits"
	"strings"
	"sync"
)

// readTables are the tables collectors/sonic/sonicmodel reads: the port,
// metadata, QoS map, queue, scheduler, WRED, buffer and hash tables. They
// are read with the file, as nearly every use of a Config reads them. Any
// other table (a switch's ACLs, BGP neighbours, VLANs, interfaces, flex
// counters and the like, sonic-net/sonic-buildimage
// src/sonic-yang-models/tests/files/sample_config_db.json) is only
// scanned, and read when Table asks for it: a lint pays little for what it
// does not read. A table missing here is still read, on its first use.
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
	file       *string // the file's name
	copy       string  // and text
	start, end int     // the table's value
}

// load reads a table that was only scanned (t may be nil, or read).
func (t *Table) load() {
	if t == nil || t.lazy == nil {
		return
	}
	l := t.lazy
	l.once.Do(func() {
		p := &parser{file: *l.file, fileName: l.file, copy: l.copy, end: l.end}
		// The scan found it plain: it reads so again.
		p.plain(l.start, t)
	})
}

// seed hashes keys while scanning.
var seed = maphash.MakeSeed()

// plain reads the table value at p.copy[off] ('{') when it is plain: an
// object of rows, each an object of fields whose values are strings or
// arrays of strings; no string holding an escape or a control character
// (the file is valid UTF-8, Parse checked); no row key given twice, nor a
// field name in a row. Such a table reads without a note or an error, and
// without the decoder: it is most of every real file. Anything else is
// read by the decoder, which reports it; ok is then false and t (rows the
// reading gathered) is to be dropped. end is the offset after the '}'.
//
// With t nil the table is only scanned: a row key given twice is found
// by the keys' order (each after the one before, in byte order, as
// sonic-cfggen writes them, has no twin), else by the keys' hashes (a
// collision reads as one, and the decoder then reads the table exactly).
func (p *parser) plain(off int, t *Table) (end int, ok bool) {
	d := p.copy[:p.end]
	i := off + 1
	// The lines are counted as the blanks are skipped: a plain table's
	// strings hold no newline, so every one is in ws, and a key's
	// position costs no count of its own (lineCol). line is the line of
	// d[i] (from 0), lineStart that line's first byte.
	line, col := p.lineCol(off)
	line, lineStart := line-1, off-(col-1)
	at := func(off int) position {
		// Lines and columns fit: no device file is 2 GiB.
		return position{file: p.fileName, line: int32(line + 1), col: int32(off - lineStart + 1)}
	}
	ws := func() {
		for i < len(d) {
			switch d[i] {
			case ' ', '\t', '\r':
				i++
			case '\n':
				i++
				line, lineStart = line+1, i
				// An indented file's blanks are mostly runs of spaces
				// after a newline (sonic-cfggen prints with indent=4):
				// eight at a time, in one comparison.
				for i+8 <= len(d) && d[i:i+8] == "        " {
					i += 8
				}
			default:
				return
			}
		}
	}
	// str reads a string, returning its contents' bounds.
	str := func() (a, b int, ok bool) {
		if i >= len(d) || d[i] != '"' {
			return 0, 0, false
		}
		a = i + 1
		j := a
		// Eight bytes at a time while none is a stop (strStop): most
		// names and values are a word or two.
		for j+8 <= len(d) {
			w := uint64(d[j]) | uint64(d[j+1])<<8 | uint64(d[j+2])<<16 | uint64(d[j+3])<<24 |
				uint64(d[j+4])<<32 | uint64(d[j+5])<<40 | uint64(d[j+6])<<48 | uint64(d[j+7])<<56
			if m := stops(w); m != 0 {
				j += bits.TrailingZeros64(m) / 8
				break
			}
			j += 8
		}
		for j < len(d) && !strStop[d[j]] {
			j++
		}
		if j < len(d) && d[j] == '"' {
			i = j + 1
			return a, j, true
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
	// open reads the opening c and whether the value is empty (c+2 is
	// the closing '}' or ']').
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
	fresh := func(set map[uint64]struct{}, a, b int) bool {
		h := maphash.String(seed, d[a:b])
		if _, dup := set[h]; dup {
			return false
		}
		set[h] = struct{}{}
		return true
	}
	if p.hashKeys {
		if p.keyHashes == nil {
			p.keyHashes = map[uint64]struct{}{}
		}
		clear(p.keyHashes)
	}
	// inOrder: every key so far is after the one before it, in byte
	// order; last is the last key, once seen.
	inOrder, last, seen := true, "", false
	rows := p.rowScratch[:0]
	defer func() { p.rowScratch = rows[:0] }()
	ws()
	if i < len(d) && d[i] == '}' {
		if t != nil {
			t.Rows = map[string]*Row{}
		}
		return i + 1, true
	}
	for {
		// The key's position, before a blank after it moves the line on.
		kat := at(i)
		a, b, ok := str()
		if !ok || !colon() {
			return 0, false
		}
		key := d[a:b]
		if seen {
			inOrder = inOrder && last < key
		}
		seen, last = true, key
		var r *Row
		if t == nil {
			switch {
			case p.hashKeys:
				if !fresh(p.keyHashes, a, b) {
					return 0, false
				}
			case !inOrder:
				// Keys out of order: scanned again, hashed.
				p.hashKeys = true
				end, ok = p.plain(off, nil)
				p.hashKeys = false
				return end, ok
			}
		} else {
			// A key given twice is found when the rows fill the table's
			// map, at its end (setRows).
			r = p.newRow()
			r.Key, r.at = key, kat
			rows = append(rows, r)
		}
		empty, ok := open('{')
		if !ok {
			return 0, false
		}
		// The fields are read into the free part of the shared block, so
		// that the row's are cut from it without a copy; a row that
		// outgrows it moves to a new one.
		if len(p.fields) < block/16 {
			p.fields = p.fieldBlock()
		}
		fs := p.fields[:0]
		p.indexed = false
		for !empty {
			fat := at(i)
			a, b, ok := str()
			if !ok || !colon() {
				return 0, false
			}
			// A name given twice: a short row is searched, a long one
			// indexed (p.find).
			name := d[a:b]
			if p.find(fs, name) >= 0 {
				return 0, false
			}
			if p.indexed {
				p.index[name] = len(fs)
			}
			// The field is written in place: a Field is large, and
			// copying one costs more than filling it.
			if len(fs) == cap(fs) {
				// A new block, of room for the row to double.
				var grown []Field
				if 4*len(fs) <= block*2 {
					grown = p.fieldBlock()[:len(fs)]
				} else {
					grown = make([]Field, len(fs), 4*len(fs))
				}
				copy(grown, fs)
				fs, p.fields = grown, grown
			}
			fs = fs[:len(fs)+1]
			f := &fs[len(fs)-1]
			f.Name, f.Value, f.List = name, "", nil
			if t != nil {
				f.at = fat
			}
			if i < len(d) && d[i] == '[' {
				emptyList, _ := open('[')
				l := p.list[:0]
				for !emptyList {
					a, b, ok := str()
					if !ok {
						return 0, false
					}
					l = append(l, d[a:b])
					more, ok := sep(']')
					if !ok {
						return 0, false
					}
					emptyList = !more
				}
				p.list = l[:0]
				if t != nil {
					if len(l) == 0 {
						f.List = []string{}
					} else {
						f.List = p.strings(len(l))
						copy(f.List, l)
						f.Value = strings.Join(f.List, ",")
					}
				}
			} else {
				a, b, ok := str()
				if !ok {
					return 0, false
				}
				f.Value = d[a:b]
			}
			more, ok := sep('}')
			if !ok {
				return 0, false
			}
			empty = !more
		}
		if r != nil && len(fs) > 0 {
			r.Fields = fs[:len(fs):len(fs)]
			p.fields = p.fields[len(fs):cap(p.fields)]
			if len(fs) > maxScan {
				r.index = make(map[string]int32, len(fs))
				for i := range fs {
					r.index[fs[i].Name] = int32(i)
				}
			}
		}
		more, ok := sep('}')
		if !ok {
			return 0, false
		}
		if !more {
			break
		}
	}
	if t != nil && !p.setRows(t, rows, inOrder) {
		return 0, false
	}
	// The next position is counted on from here.
	p.last, p.line, p.lineStart = i, line, lineStart
	return i, true
}

// stops has the high bit of each byte of w (eight bytes of a string,
// the first lowest) that strStop holds, and perhaps of bytes after the
// first such: a byte below 0x20, '"' or '\\' (the bytes of UTF-8 beyond
// ASCII are none of them). It is the classic test for a zero byte,
// (x - 0x01...) &^ x & 0x80..., on w xor each byte, and for a byte
// below n, (x - n*0x01...) &^ x & 0x80... (Bit Twiddling Hacks,
// graphics.stanford.edu/~seander/bithacks.html#ZeroInWord).
func stops(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, bs := w^('"'*ones), w^('\\'*ones)
	return ((q-ones)&^q | (bs-ones)&^bs | (w-0x20*ones)&^w) & highs
}

// strStop are the bytes a plain string's scan stops at: its closing
// quote, and an escape or a control character, which make it not plain.
var strStop = func() (stop [256]bool) {
	for c := range 0x20 {
		stop[c] = true
	}
	stop['"'], stop['\\'] = true, true
	return stop
}()
