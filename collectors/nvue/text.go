package nvue

import (
	"bytes"
	"slices"

	"github.com/qoslint/qoslint/internal/source"
)

// withNonUTF8 adds an error at every line of a commands file that is not
// UTF-8, in line order. NVUE keeps its configuration as YAML, which is
// UTF-8 (YAML 1.2 §5.2), and prints `nv config show -o commands` from it,
// so such a byte means the file was re-encoded after it was captured (an
// editor saving Latin-1): the line is still read as it is, and the report
// says it is not what the switch printed. A line already reported (an
// error, or a note that it is not configuration) is reported once.
func (r *reading) withNonUTF8(file string, data []byte) {
	if source.CheckUTF8(file, data, "") == nil {
		return
	}
	done := map[int]bool{}
	for _, e := range r.errs {
		done[e.Line] = true
	}
	for _, o := range r.other {
		done[o.line] = true
	}
	n := len(r.errs)
	for i, l := range bytes.Split(data, []byte("\n")) {
		if _, col, b := source.InvalidUTF8(l); col > 0 && !done[i+1] {
			r.errs = append(r.errs, source.Errorf(file, i+1, "byte 0x%02X at column %d is not UTF-8: NVUE prints its configuration as UTF-8 (was the file saved as Latin-1?)", b, col))
		}
	}
	if len(r.errs) > n {
		slices.SortStableFunc(r.errs, source.ComparePos)
	}
}
