package nvnum

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// FuzzNCCLInt checks strtoll's model against Go's parser where the two
// agree by definition: a whole string of one optional sign and digits (or
// 0x and hex digits) that strconv.ParseInt(s, 0, 64) accepts.
func FuzzNCCLInt(f *testing.F) {
	for _, s := range []string{"106", "0106", "0x68", "08", "-0x10", " +7", "\"106\"", "9223372036854775808", "-9223372036854775808", "0x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := ncclInt(s)
		if !ok && v != 0 && v != math.MaxInt64 && v != math.MinInt64 {
			t.Fatalf("ncclInt(%q) = %d, false: want 0 or a clamped value", s, v)
		}
		if p := NCCLParamInt(s, 42); ok && p != v || s == "" && p != 42 {
			t.Fatalf("NCCLParamInt(%q, 42) = %d, ncclInt = %d, %v", s, p, v, ok)
		}
		if strings.ContainsAny(s, "_oObB") {
			return // Go's base prefixes 0o, 0b and digit separators are not C's
		}
		if want, err := strconv.ParseInt(s, 0, 64); err == nil && (v != want || !ok) {
			t.Fatalf("ncclInt(%q) = %d, %v; strconv says %d", s, v, ok, want)
		}
		// strtoll stops at the first character that is not a digit.
		if ok {
			if v2, ok2 := ncclInt(s + "#x"); v2 != v || !ok2 {
				t.Fatalf("ncclInt(%q) = %d but ncclInt(%q) = %d, %v", s, v, s+"#x", v2, ok2)
			}
		}
	})
}
