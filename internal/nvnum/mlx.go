package nvnum

import (
	"regexp"
	"strconv"
	"strings"
)

// MlxNum is the number a value stands for: `48` → 48, `True(1)` → 1,
// `ETH(2)` → 2; ok is false for anything else (`Array[0..7]`, "").
func MlxNum(v string) (int, bool) {
	if n, err := strconv.Atoi(v); err == nil {
		return n, true
	}
	if m := mlxEnumRe.FindStringSubmatch(v); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n, true
		}
	}
	if h, ok := strings.CutPrefix(v, "0x"); ok {
		if n, err := strconv.ParseInt(h, 16, 32); err == nil {
			return int(n), true
		}
	}
	return 0, false
}

// mlxEnumRe is an enum value as mlxconfig prints it, its number in parentheses.
var mlxEnumRe = regexp.MustCompile(`^[A-Za-z0-9_]*\(([0-9]{1,9})\)$`)
