package ibfiles

import (
	"sort"
	"strings"
)

// ibdiagnet2.db_csv is ibdiagnet's own database of the fabric: sections
// framed by START_<NAME> and END_<NAME> lines, each a CSV table with a
// header row. The framing and the section names are those of ibutils2
// ibdiag/src/ibdiag_types.h (SECTION_NODES "NODES", SECTION_PORTS "PORTS",
// SECTION_LINKS "LINKS", SECTION_VL_ARBITRATION_TBL "VL_ARBITRATION_TABLE",
// SECTION_QOS_CONFIG_SL "QOS_CONFIG_SL", ...; no SL2VL section: ibdiagnet
// writes SL2VL tables to ibdiagnet2.slvl, see slvl.go). Readers of real
// files pad-trim values and strip quotes around NodeDesc (e.g. the
// check_ib_link_status script reading PM_INFO with pandas, and a parser of
// OpenSM's smdb noting the db_csv "space padding around values"), so
// fields are trimmed here too. Values are kept as text; typed accessors
// below read the sections whose columns were verified.

// DBCSV is a parsed ibdiagnet2.db_csv.
type DBCSV struct {
	File     string
	Sections map[string]*CSVSection
	// Order is the section names in file order.
	Order []string
}

// CSVSection is one START_/END_ block.
type CSVSection struct {
	Name       string
	Line       int // the START_ line
	Header     []string
	HeaderLine int
	Rows       []CSVRow
}

// CSVRow is one data row, its fields trimmed and unquoted.
type CSVRow struct {
	Fields []string
	Line   int
}

// ParseDBCSV parses ibdiagnet2.db_csv into its sections. Lines outside a
// section must be blank or '#' comments (ibdiagnet heads its files with
// "#" lines); anything else is an error naming its line, as is a section
// left open at the end of the file (a cut-off capture).
func ParseDBCSV(file string, data []byte) (*DBCSV, error) {
	d := &DBCSV{File: file, Sections: map[string]*CSVSection{}}
	var cur *CSVSection
	for i, raw := range splitLines(data) {
		n := i + 1
		s := strings.TrimSpace(raw)
		var err error
		switch {
		case cur == nil && (s == "" || strings.HasPrefix(s, "#")):
		case cur == nil:
			cur, err = d.open(s, n)
		case strings.HasPrefix(s, "END_"):
			if name := strings.TrimPrefix(s, "END_"); name != cur.Name {
				err = errf(file, n, "%s inside section %s (opened line %d)", clip(s), cur.Name, cur.Line)
			}
			cur = nil
		case strings.HasPrefix(s, "START_"):
			err = errf(file, n, "%s inside section %s (opened line %d): END_%s missing", clip(s), cur.Name, cur.Line, cur.Name)
		case s == "":
		default:
			err = cur.add(file, s, n)
		}
		if err != nil {
			return nil, err
		}
	}
	if cur != nil {
		return nil, errf(file, cur.Line, "section %s has no END_%s: file cut off", cur.Name, cur.Name)
	}
	if len(d.Order) == 0 {
		return nil, errf(file, 0, "no START_<SECTION> line: not ibdiagnet2.db_csv")
	}
	return d, nil
}

func (d *DBCSV) open(s string, n int) (*CSVSection, error) {
	name, ok := strings.CutPrefix(s, "START_")
	if !ok || name == "" || strings.ContainsAny(name, " ,\t") {
		return nil, errf(d.File, n, "outside a START_/END_ section: %q", clip(s))
	}
	if old, dup := d.Sections[name]; dup {
		return nil, errf(d.File, n, "section %s again (first at line %d)", name, old.Line)
	}
	sec := &CSVSection{Name: name, Line: n}
	d.Sections[name] = sec
	d.Order = append(d.Order, name)
	return sec, nil
}

func (sec *CSVSection) add(file, s string, n int) error {
	f, msg := splitCSV(s)
	if msg != "" {
		return errf(file, n, "section %s: %s: %q", sec.Name, msg, clip(s))
	}
	if sec.Header == nil {
		sec.Header, sec.HeaderLine = f, n
		return nil
	}
	if len(f) != len(sec.Header) {
		return errf(file, n, "section %s: %d fields, the header (line %d) has %d", sec.Name, len(f), sec.HeaderLine, len(sec.Header))
	}
	sec.Rows = append(sec.Rows, CSVRow{Fields: f, Line: n})
	return nil
}

// splitCSV splits one CSV line: commas outside double quotes separate
// fields, "" inside quotes is a quote, spaces around a field are dropped.
func splitCSV(s string) ([]string, string) {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t")
		var f string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for ; ; i++ {
				if i >= len(s) {
					return nil, "unterminated quote"
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i++
						continue
					}
					break
				}
				b.WriteByte(s[i])
			}
			f = b.String()
			s = strings.TrimLeft(s[i+1:], " \t")
			if s != "" && s[0] != ',' {
				return nil, "text after a closing quote"
			}
		} else {
			j := strings.IndexByte(s, ',')
			if j < 0 {
				j = len(s)
			}
			f = strings.TrimSpace(s[:j])
			if strings.Contains(f, `"`) {
				return nil, "a quote inside an unquoted field"
			}
			s = s[j:]
		}
		out = append(out, f)
		if s == "" {
			return out, ""
		}
		s = s[1:] // the comma
	}
}

// Section returns the named section or an error naming the file.
func (d *DBCSV) Section(name string) (*CSVSection, error) {
	if s := d.Sections[name]; s != nil {
		return s, nil
	}
	return nil, errf(d.File, 0, "no %s section (this ibdiagnet run did not write it)", name)
}

// cols finds each named column; names match case-insensitively because
// ibdiagnet itself spells them both ways (NODES has NodeGUID, PORTS
// NodeGuid). Optional names (prefixed "?") give -1 when absent.
func (d *DBCSV) cols(sec *CSVSection, names ...string) ([]int, error) {
	out := make([]int, len(names))
	for i, name := range names {
		opt := strings.HasPrefix(name, "?")
		name = strings.TrimPrefix(name, "?")
		out[i] = -1
		for j, h := range sec.Header {
			if strings.EqualFold(h, name) {
				out[i] = j
				break
			}
		}
		if out[i] < 0 && !opt {
			return nil, errf(d.File, sec.HeaderLine, "section %s has no %s column", sec.Name, name)
		}
	}
	return out, nil
}

// num reads a decimal or 0x-hex cell in [lo, hi].
func (d *DBCSV) num(sec *CSVSection, r CSVRow, col int, lo, hi int) (int, error) {
	v, ok := atoi(r.Fields[col], lo, hi, true)
	if !ok {
		return 0, errf(d.File, r.Line, "section %s: %s %q: want %d-%d", sec.Name, sec.Header[col], clip(r.Fields[col]), lo, hi)
	}
	return v, nil
}

// guid normalises a GUID cell to lower-case 0x-prefixed hex.
func (d *DBCSV) guid(sec *CSVSection, r CSVRow, col int) (string, error) {
	g, ok := normGUID(r.Fields[col])
	if !ok {
		return "", errf(d.File, r.Line, "section %s: %s %q is not a GUID", sec.Name, sec.Header[col], clip(r.Fields[col]))
	}
	return g, nil
}

func normGUID(s string) (string, bool) {
	h, ok := strings.CutPrefix(strings.ToLower(s), "0x")
	if !ok || h == "" || len(h) > 16 || strings.Trim(h, "0123456789abcdef") != "" {
		return "", false
	}
	return "0x" + strings.Repeat("0", 16-len(h)) + h, true
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
