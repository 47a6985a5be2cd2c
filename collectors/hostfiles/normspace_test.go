package hostfiles

import (
	"strings"
	"testing"
)

// TestNormSpaceAsFields: the fast path returns what strings.Fields joined
// by one space does, Unicode spaces included.
func TestNormSpaceAsFields(t *testing.T) {
	for _, s := range []string{"", " ", "a", " a", "a ", "a b", "a  b", "a\tb", "a \tb", "ab cd ef", "a\u00a0b", "é b", "x\u2003y", "a b ", "\ta", "a\nb", "a b\r", "\t\tDevCap:\tMaxPayload 128 bytes", "  a  ", "\ta b", "a \u00a0 b ", "\t\u2003x", "a\t\t b\tc"} {
		if got, want := normSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("%q: %q want %q", s, got, want)
		}
	}
}
