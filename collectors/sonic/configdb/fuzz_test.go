package configdb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// FuzzParse: no panic; an error is a *source.Error inside the file; a
// result's positions are inside the file. The seeds are the real files
// (up to 125 kB), and the fuzzer minimizes every new interesting input
// for up to 60 s by default, which stalls it at 0 execs/s; run it as
//
//	go test -run XXX -fuzz FuzzParse -fuzzminimizetime 50x ./collectors/sonic/configdb
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds: %v", err)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"localhost": {"PORT": {"Ethernet0": {"mtu": 9100}}}, "asic0": {"bgpraw": "x"}}`))
	f.Add([]byte("\ufeff{\"PORT|Ethernet0\": {\"lanes\": [\"0\", [1], {}]}}"))
	// Row keys out of byte order, and given twice, in a table read and
	// in one only scanned (plain, setRows).
	f.Add([]byte(`{"PORT": {"b": {}, "a": {"x": "1"}, "b": {}}, "VLAN": {"a": {}, "c": {}, "b": {}, "c": {}}, "VLAN|0": {}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Split(data, []byte{'\n'})
		inside := func(what string, p source.Pos) {
			// Column len+1 is the end of a truncated last line.
			if p.File != "f.json" || p.Line < 1 || p.Line > len(lines) || p.Column < 1 || p.Column > len(lines[p.Line-1])+1 {
				t.Fatalf("%s at %+v, outside the file's %d lines", what, p, len(lines))
			}
		}
		// A key's position is its opening quote, followed by the key as
		// written (where the file holds no escape).
		escapes := bytes.IndexByte(data, '\\') >= 0
		key := func(what string, p source.Pos, names ...string) {
			inside(what, p)
			line := lines[p.Line-1]
			if escapes || p.Column > len(line) {
				return
			}
			at := line[p.Column-1:]
			for _, n := range names {
				if bytes.HasPrefix(at, []byte(`"`+n)) {
					return
				}
			}
			t.Fatalf("%s at %+v: %q there, not the key %q", what, p, at, names)
		}
		c, err := Parse("f.json", data)
		// Tables scanned, and read without the decoder, read as the decoder reads them.
		full, ferr := parse("f.json", data, string(data), true)
		if got, want := dump(c, err), dump(full, ferr); got != want {
			t.Fatalf("Parse differs from the decoder's reading:\n%s\nwant\n%s", got, want)
		}
		// ParseOwned reads a buffer of its own as Parse reads a copy.
		if got, want := dump(ParseOwned("f.json", bytes.Clone(data))), dump(c, err); got != want {
			t.Fatalf("ParseOwned differs from Parse:\n%s\nwant\n%s", got, want)
		}
		if err != nil {
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v, want *source.Error", err, err)
			}
			inside("error", se.Pos)
			return
		}
		if len(c.Namespaces) == 0 {
			t.Fatal("no namespace")
		}
		for _, n := range c.Notes {
			inside("note", n.Pos)
		}
		for _, ns := range c.Namespaces {
			if ns.Name != "" {
				key("namespace", ns.Pos, ns.Name)
			}
			if len(ns.Order) != len(ns.Tables) {
				t.Fatalf("%d tables, %d in Order", len(ns.Tables), len(ns.Order))
			}
			for _, tn := range ns.Order {
				tbl := ns.Table(tn)
				key("table", tbl.Pos, tn)
				if tbl.Rows != nil && len(tbl.Keys) != len(tbl.Rows) {
					t.Fatalf("table %s: %d rows, %d keys", tn, len(tbl.Rows), len(tbl.Keys))
				}
				list := tbl.RowList()
				if len(list) != len(tbl.Keys) {
					t.Fatalf("table %s: RowList has %d rows, %d keys", tn, len(list), len(tbl.Keys))
				}
				// Row finds each key's row, no key is given twice, and
				// a key not given has no row.
				for i, rk := range tbl.Keys {
					if list[i] != tbl.Row(rk) {
						t.Fatalf("table %s: RowList's row %d is not %q's", tn, i, rk)
					}
					if absent := rk + "\x00"; !slices.Contains(tbl.Keys, absent) && tbl.Row(absent) != nil {
						t.Fatalf("table %s: a row for %q, which is not given", tn, absent)
					}
				}
				for _, rk := range tbl.Keys {
					r := tbl.Row(rk)
					key("row", r.Pos(), rk, tn+"|"+rk)
					for i, f := range r.Fields {
						key("field", f.Pos(), f.Name)
						if r.Get(f.Name) != &r.Fields[i] {
							t.Fatalf("row %s: field %q given twice, or Get does not find it", rk, f.Name)
						}
					}
				}
			}
		}
	})
}

// BenchmarkParse reads the largest real file.
func BenchmarkParse(b *testing.B) {
	files, _ := filepath.Glob("testdata/*.json")
	var data []byte
	for _, path := range files {
		d, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(d) > len(data) {
			data = d
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("config_db.json", data); err != nil {
			b.Fatal(err)
		}
	}
}

// dump prints all of a parse: the error, or the shape, the notes and every
// namespace, table, row and field with its position.
func dump(c *Config, err error) string {
	if err != nil {
		return "error " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", c.File, c.Shape)
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "note %v %s\n", n.Pos, n.Msg)
	}
	for _, ns := range c.Namespaces {
		fmt.Fprintf(&b, "ns %q %v %q\n", ns.Name, ns.Pos, ns.Order)
		for _, tn := range ns.Order {
			tbl := ns.Table(tn)
			fmt.Fprintf(&b, " table %s %v %d\n", tn, tbl.Pos, tbl.Len())
			for _, rk := range tbl.Keys {
				r := tbl.Row(rk)
				fmt.Fprintf(&b, "  row %q %q %v\n", rk, r.Key, r.Pos())
				for _, f := range r.Fields {
					fmt.Fprintf(&b, "   %q=%q %q %v %v\n", f.Name, f.Value, f.List, f.List == nil, f.Pos())
				}
			}
		}
	}
	return b.String()
}

// BenchmarkParseSample reads sonic-yang-models' sample configuration, whose
// tables are mostly ones the model does not read (ACLs, BGP, VLANs, ...):
// the share of a real file that is only scanned.
func BenchmarkParseSample(b *testing.B) {
	data, err := os.ReadFile("testdata/sample_config_db.SAMPLE_CONFIG_DB_JSON.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("config_db.json", data); err != nil {
			b.Fatal(err)
		}
	}
}
