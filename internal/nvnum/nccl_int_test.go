package nvnum

import (
	"math"
	"testing"
)

// The results below are what glibc's strtoll(s, &end, 0) returned for the
// same strings (value, errno, end-s), checked with a small C program; they
// match NCCL's use of it in ncclLoadParam (src/misc/param.cc).
// ncclInt reads value the way NCCL's integer parameters do: NCCL_PARAM
// (src/include/param.h) calls ncclLoadParam (NVIDIA/nccl src/misc/param.cc),
// which runs `strtoll(str, nullptr, 0)`. So leading white space and one sign
// are skipped, "0x"/"0X" means hexadecimal, a leading "0" octal, and reading
// stops at the first character that is not a digit of that base: "106 # x"
// is 106, "0106" is 70, "0x68" is 104 and "08" is 0.
//
// ok is false when strtoll reads no digit (v is 0) or the number is outside
// int64 (v is clamped, as strtoll does). The two differ for NCCL, and
// NCCLParamInt says which value NCCL then uses. Only the tests need the
// two apart: they hold strtoll's model to Go's parser.
func ncclInt(value string) (v int64, ok bool) {
	n := Strtoll(value)
	return n.V, n.Digits && !n.Overflow
}

func TestNCCLInt(t *testing.T) {
	tests := []struct {
		in    string
		v     int64
		ok    bool
		param int64 // NCCLParamInt(in, -1)
	}{
		{"106", 106, true, 106},
		{"0106", 70, true, 70},
		{"0x68", 104, true, 104},
		{"0X68", 104, true, 104},
		{"08", 0, true, 0}, // octal: stops at the 8
		{"09", 0, true, 0},
		{`"106"`, 0, false, 0}, // no digits: strtoll returns 0 and errno stays 0
		{"abc", 0, false, 0},
		{"", 0, false, -1}, // strlen(str) == 0: the default
		{" 106", 106, true, 106},
		{"\t-0x10", -16, true, -16},
		{"+7", 7, true, 7},
		{"0x", 0, true, 0}, // the x is no part of the number
		{"0xg", 0, true, 0},
		{"-", 0, false, 0},
		{" +-5", 0, false, 0},
		{"106 # RoCE", 106, true, 106},
		{"106\r", 106, true, 106},
		{"1e3", 1, true, 1},
		{"9223372036854775807", math.MaxInt64, true, math.MaxInt64},
		{"9223372036854775808", math.MaxInt64, false, -1}, // ERANGE: the default
		{"-9223372036854775808", math.MinInt64, true, math.MinInt64},
		{"-9223372036854775809", math.MinInt64, false, -1},
		{"0777777777777777777777", math.MaxInt64, true, math.MaxInt64},
		{"01000000000000000000000", math.MaxInt64, false, -1},
		{"0x8000000000000000", math.MaxInt64, false, -1},
		{"-0x8000000000000000", math.MinInt64, true, math.MinInt64},
	}
	for _, tt := range tests {
		v, ok := ncclInt(tt.in)
		if v != tt.v || ok != tt.ok {
			t.Errorf("ncclInt(%q) = %d, %v; want %d, %v", tt.in, v, ok, tt.v, tt.ok)
		}
		if p := NCCLParamInt(tt.in, -1); p != tt.param {
			t.Errorf("NCCLParamInt(%q, -1) = %d; want %d", tt.in, p, tt.param)
		}
	}
}
