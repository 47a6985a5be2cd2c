// Package nvnum reads numbers from text the way NVIDIA's software does:
// NCCL's integer parameters (C's strtoll) and mlxconfig's values. The host
// parsers, the model's builders and the checks (which judge the values a
// Kubernetes manifest or a fix sets) all read them, so it is vocabulary: it
// imports the standard library only.
package nvnum

import "math"

// NCCLParamInt is the value an NCCL integer parameter with default def takes
// when its variable is set to value, per ncclLoadParam (src/misc/param.cc):
//
//	if (str && strlen(str) > 0) {
//	  errno = 0;
//	  value = strtoll(str, nullptr, 0);
//	  if (errno) { value = deftVal; INFO(... "Invalid value %s for %s, using default %lld." ...
//
// The default is kept only for an empty value and for a number out of range
// (ERANGE). A value with no leading number, such as `"106"` with its quotes
// or "abc", is not an error for glibc's strtoll (it returns 0 and leaves
// errno alone, checked against glibc 2.x), so NCCL uses 0 and logs "set by
// environment to 0". The same code is in NCCL_PARAM of 2019's
// src/include/param.h.
func NCCLParamInt(value string, def int64) int64 {
	if value == "" {
		return def
	}
	n := Strtoll(value)
	if n.Overflow {
		return def
	}
	return n.V
}

// Num is what strtoll reads: V, the base it chose, whether it read any
// digit and whether it would set ERANGE.
type Num struct {
	V                int64
	Base             uint64
	Digits, Overflow bool
}

// Strtoll is C's strtoll(s, &end, 0) in the "C" locale (NCCL never calls
// setlocale).
func Strtoll(s string) Num {
	i := 0
	for i < len(s) && cSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	switch {
	case i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && DigitVal(s[i+2]) < 16:
		// Without a hex digit after it, the x is not part of the
		// number: "0x" and "0xg" read as 0.
		base, i = 16, i+2
	case i < len(s) && s[i] == '0':
		base = 8
	}
	// Accumulate the magnitude; the limit is 2^63 for a negative number
	// (LLONG_MIN) and 2^63-1 otherwise.
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	var mag uint64
	digits, overflow := false, false
	for ; i < len(s); i++ {
		d := DigitVal(s[i])
		if d >= base {
			break
		}
		digits = true
		if overflow || mag > (limit-d)/base {
			overflow = true
			continue
		}
		mag = mag*base + d
	}
	n := Num{Base: base, Digits: digits, Overflow: overflow}
	switch {
	case !digits:
	case overflow && neg:
		n.V = math.MinInt64
	case overflow:
		n.V = math.MaxInt64
	case neg:
		n.V = int64(-mag) // -(2^63) wraps to MinInt64, as wanted
	default:
		n.V = int64(mag)
	}
	return n
}

// cSpace is isspace in the "C" locale.
func cSpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

// DigitVal is the value of c as a digit of any base up to 36; 99 if none.
func DigitVal(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c >= 'a' && c <= 'z':
		return uint64(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return uint64(c-'A') + 10
	}
	return 99
}
