package nvue

import (
	"math"
	"strconv"
	"strings"
)

// Size is a byte count as NVUE prints it: `146.48 KB`, `1.43 MB`, `40000 B`,
// `0 Bytes`. NVUE divides by 1024 and rounds to the digits it shows
// (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
// Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md prints `146.48 KB`
// for "150,000 bytes"), so Tol is half of the last shown digit, in bytes.
type Size struct {
	Bytes, Tol float64
}

// Matches reports whether b bytes would print as s.
func (s Size) Matches(b int) bool { return math.Abs(float64(b)-s.Bytes) <= s.Tol+1e-9 }

var sizeUnits = map[string]float64{
	"b": 1, "byte": 1, "bytes": 1,
	"kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40,
}

// ParseSize reads a size; ok is false for anything else (`inf`, `-`, `50.0%`).
func ParseSize(s string) (Size, bool) {
	f := strings.Fields(strings.TrimSpace(s))
	if len(f) != 2 {
		return Size{}, false
	}
	unit, ok := sizeUnits[strings.ToLower(f[1])]
	if !ok || f[0] == "" || strings.Trim(f[0], "0123456789.") != "" || len(f[0]) > 20 {
		return Size{}, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || math.IsInf(v, 0) {
		return Size{}, false
	}
	decimals := 0
	if i := strings.IndexByte(f[0], '.'); i >= 0 {
		decimals = len(f[0]) - i - 1
	}
	tol := 0.0
	if unit > 1 || decimals > 0 {
		tol = 0.5 * math.Pow(10, -float64(decimals)) * unit
	}
	return Size{Bytes: v * unit, Tol: tol}, true
}
