package hostfiles

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/qoslint/qoslint/internal/source"
)

// splitLines is source.Lines: index i is line i+1.
func splitLines(data []byte) []string { return source.Lines(data) }

// normSpace collapses every run of whitespace to one space and trims the
// ends. mlnx_qos indents with tabs, copies of its output use 8 spaces, and
// web mirrors collapse both, so parsing works on this normal form.
func normSpace(s string) string {
	// Most lines are in normal form once their indent is cut (lspci's
	// thousands of tab-indented lines per host): returned as a substring,
	// with no allocation; the others are built in one allocation rather
	// than strings.Fields' slice and its Join (together a twentieth of a
	// lint's allocations at TestLintScale's size).
	i, j := 0, len(s)
	for i < j && asciiSpace(s[i]) {
		i++
	}
	for j > i && asciiSpace(s[j-1]) {
		j--
	}
	s = s[i:j]
	normal := true
	for k := 0; k < len(s) && normal; k++ {
		c := s[k]
		switch {
		case c >= utf8.RuneSelf:
			// strings.Fields splits at Unicode spaces too.
			return strings.Join(strings.Fields(s), " ")
		case asciiSpace(c):
			normal = c == ' ' && !asciiSpace(s[k+1])
		}
	}
	if normal {
		return s
	}
	// Words copied whole, each after one space (s has no space at
	// either end).
	var b strings.Builder
	b.Grow(len(s))
	for k := 0; k < len(s); {
		w := k
		for w < len(s) && !asciiSpace(s[w]) {
			w++
		}
		b.WriteString(s[k:w])
		for w < len(s) && asciiSpace(s[w]) {
			w++
		}
		if w < len(s) {
			b.WriteByte(' ')
		}
		k = w
	}
	return b.String()
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// atoiRange parses a plain decimal and checks it is within [lo, hi]. A '-'
// is accepted only when lo < 0, so "-0" is not a DSCP. It rejects "+1",
// "0x1" and spaces, which no tool we parse prints.
func atoiRange(s string, lo, hi int) (int, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	for i, c := range s {
		if (c < '0' || c > '9') && !(i == 0 && c == '-' && len(s) > 1 && lo < 0) {
			return 0, false
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, false
	}
	return v, true
}

// lineOf returns the 1-based line of byte offset off in data.
func lineOf(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	n := 1
	for _, b := range data[:off] {
		if b == '\n' {
			n++
		}
	}
	return n
}

// clip shortens input quoted in an error message, so that a binary or
// minified file does not make one error line megabytes long.
func clip(s string) string {
	const max = 60
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}
