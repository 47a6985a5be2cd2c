// Package ibfiles parses what an InfiniBand fabric says about its QoS:
// OpenSM's opensm.conf (the intent, on the subnet manager's host), and per
// HCA port `ibstat`, `smpquery sl2vl`, `smpquery vlarb` and `smpquery
// portinfo` (what the port holds). Values stay as the device printed them;
// the SM's defaults and their fall-back order are model semantics
// (model/ib.go).
package ibfiles

import (
	"strconv"

	"github.com/qoslint/qoslint/internal/source"
)

// splitLines is source.Lines: index i is line i+1.
func splitLines(data []byte) []string { return source.Lines(data) }

// atoi parses a decimal in [lo, hi]; OpenSM's strtoul(…, 0) also takes hex
// (0x..), which infiniband-diags prints for VL arbitration, so base 0 is
// accepted where hex is allowed.
func atoi(s string, lo, hi int, hex bool) (int, bool) {
	base := 10
	if hex {
		base = 0
	}
	if s == "" || len(s) > 12 || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	v, err := strconv.ParseInt(s, base, 32)
	if err != nil || int(v) < lo || int(v) > hi {
		return 0, false
	}
	return int(v), true
}

func clip(s string) string {
	const max = 60
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

func errf(file string, line int, format string, a ...any) error {
	return source.Errorf(file, line, format, a...)
}
