package nvue

import "strings"

// NVUE's `nv show` tables are fixed-width text: a header row, a row of dash
// runs (one per column, two spaces apart) and the rows (CumulusNetworks/docs
// content/cumulus-linux-5*/.../RDMA-over-Converged-Ethernet-RoCE.md). Cells
// may be empty (`enable` with only an applied value) and may contain single
// spaces (`146.48 KB`, `ecn, absolute`, `strict priority`), so columns come
// from the dash runs, not from splitting on whitespace.

type column struct{ start, end int }

// isDashRow reports whether s is a table's separator row.
func isDashRow(s string) bool {
	t := strings.TrimSpace(s)
	return strings.Contains(t, "--") && strings.Trim(t, "- ") == ""
}

// isRule reports whether s underlines a section title (`=====`).
func isRule(s string) bool {
	t := strings.TrimSpace(s)
	return len(t) >= 3 && strings.Trim(t, "=") == ""
}

func dashColumns(s string) []column {
	var cols []column
	for i := 0; i < len(s); {
		if s[i] != '-' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '-' {
			j++
		}
		cols = append(cols, column{i, j})
		i = j
	}
	return cols
}

// cells splits a row into one string per column. Text runs are separated by
// two or more spaces; a run belongs to the first column whose dashes end
// after the run starts (a run starting in the gap before a column is that
// column's). Runs in the same column are kept with the text between them, as
// in a description with a double space.
func cells(s string, cols []column) []string {
	if len(cols) == 0 {
		return nil
	}
	out := make([]string, len(cols))
	// The bounds of each column's text, on the stack for a table as wide
	// as NVUE prints (a row is read once; its cells are what stays).
	var bounds [2 * 16]int
	b := bounds[:]
	if len(cols) > len(bounds)/2 {
		b = make([]int, 2*len(cols))
	}
	first, last := b[:len(cols)], b[len(cols):2*len(cols)]
	for i := range first {
		first[i] = -1
	}
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(s) && !(s[j] == ' ' && (j+1 == len(s) || s[j+1] == ' ')) {
			j++
		}
		c := len(cols) - 1
		for k, col := range cols {
			if i < col.end {
				c = k
				break
			}
		}
		if first[c] < 0 {
			first[c] = i
		}
		last[c] = j
		i = j
	}
	for c := range cols {
		if first[c] >= 0 {
			out[c] = s[first[c]:last[c]]
		}
	}
	return out
}

// columnIndex returns the column whose header cell is one of names, or -1.
func columnIndex(header []string, names ...string) int {
	for i, h := range header {
		for _, n := range names {
			if strings.EqualFold(strings.TrimSpace(h), n) {
				return i
			}
		}
	}
	return -1
}

func indentOf(s string) int {
	return len(s) - len(strings.TrimLeft(s, " "))
}

// leafTable locates the operational/applied table every `nv show` view
// opens with: its dash row, columns, and the index of each value column
// (-1 when the header has none).
type leafTable struct {
	dash        int
	cols        []column
	op, applied int
}

// findLeafTable finds the first leaf table in lines[from:]. Without a
// header row the columns are key, operational and applied, in that order;
// a header that names neither value column is no leaf table.
func findLeafTable(lines []string, from int) (leafTable, bool) {
	d := -1
	for i := from; i < len(lines); i++ {
		if isDashRow(lines[i]) {
			d = i
			break
		}
	}
	if d < 0 {
		return leafTable{}, false
	}
	lt := leafTable{dash: d, cols: dashColumns(lines[d]), op: 1, applied: -1}
	if len(lt.cols) < 2 {
		return leafTable{}, false
	}
	if len(lt.cols) > 2 {
		lt.applied = 2
	}
	if h := headerAbove(lines, from, d); h >= 0 {
		header := cells(lines[h], lt.cols)
		lt.op, lt.applied = columnIndex(header, "operational"), columnIndex(header, "applied")
		if lt.op < 0 && lt.applied < 0 {
			return leafTable{}, false
		}
	}
	return lt, true
}
