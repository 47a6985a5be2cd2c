package nvue

import (
	"bytes"
	"sort"

	"github.com/qoslint/qoslint/collectors/source"
)

// withNonUTF8 adds to errs an error at every line of a commands file that
// is not UTF-8, in line order. NVUE keeps its configuration as YAML, which
// is UTF-8 (YAML 1.2 §5.2), and prints `nv config show -o commands` from
// it, so such a byte means the file was re-encoded after it was captured
// (an editor saving Latin-1): the line is still read as it is, and the
// report says it is not what the switch printed.
func withNonUTF8(file string, data []byte, errs []*source.Error) []*source.Error {
	n := len(errs)
	for i, l := range bytes.Split(data, []byte("\n")) {
		if _, col, b := source.InvalidUTF8(l); col > 0 {
			errs = append(errs, source.Errorf(file, i+1, "byte 0x%02X at column %d is not UTF-8: NVUE prints its configuration as UTF-8 (was the file saved as Latin-1?)", b, col))
		}
	}
	if len(errs) > n {
		sort.SliceStable(errs, func(a, b int) bool { return errs[a].Line < errs[b].Line })
	}
	return errs
}
