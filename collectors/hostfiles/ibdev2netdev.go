package hostfiles

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/internal/names"
	"github.com/qoslint/qoslint/internal/source"
)

// ibdev2netdev forms (Mellanox/mlnx-tools, last copy `290a843^:sbin/ibdev2netdev`
// and ofed_scripts/ibdev2netdev):
//
//	echo "$d port $port ==> $ethdev ($link_state)"
//	echo "$x $d ($devid - $partid) $devdesc fw $fwver port $port ($ibstate) ==> $eth ($link_state)"   # -v
//	echo "$1 port $2 <===> $3"                                                                      # old style
//
// $ibstate, $partid and $devdesc are printf "%-6s"/"%-11s"/"%-15s" padded, so
// the parenthesised fields may hold trailing spaces; $link_state is Up, Down,
// NA, or empty when the netdev has no dev_id file.
var (
	ibShortRe   = regexp.MustCompile(`^(\S+) port (\d+)$`)
	ibVerboseRe = regexp.MustCompile(`^(.*) fw \S+ port (\d+) \([^()]*\)$`)
	ibRightRe   = regexp.MustCompile(`^(\S+) \(([^()]*)\)$`)
)

// ParseIBDev2Netdev parses `ibdev2netdev` or `ibdev2netdev -v` output into
// one IBDev per line, sorted by netdev (then ibdev and port).
func ParseIBDev2Netdev(file string, data []byte) ([]IBDev, error) {
	var out []IBDev
	for i, raw := range splitLines(data) {
		n := i + 1
		s := normSpace(raw)
		if s == "" {
			continue
		}
		d, err := parseIBDevLine(s)
		if err != "" {
			return nil, source.Errorf(file, n, "%s: %q", err, clip(s))
		}
		d.Line = n
		out = append(out, d)
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.Netdev != y.Netdev {
			return x.Netdev < y.Netdev
		}
		if x.IBDev != y.IBDev {
			return x.IBDev < y.IBDev
		}
		return x.Port < y.Port
	})
	return out, nil
}

// parseIBDevLine returns the parsed line or a reason it is not one.
func parseIBDevLine(s string) (IBDev, string) {
	// "<===>" contains "==>", so the old form is tried first.
	if left, right, ok := strings.Cut(s, " <===> "); ok {
		m := ibShortRe.FindStringSubmatch(left)
		if m == nil {
			return IBDev{}, "not an ibdev2netdev line"
		}
		if !validIfName(right) {
			return IBDev{}, refusedNetdev(right)
		}
		port, ok := atoiRange(m[2], 1, 255)
		if !ok {
			return IBDev{}, "bad port"
		}
		if !validIBName(m[1]) {
			return IBDev{}, "bad ibdev name: want " + names.IBDevRule
		}
		return IBDev{IBDev: m[1], Port: port, Netdev: right}, ""
	}
	idx := strings.LastIndex(s, " ==> ")
	if idx < 0 {
		return IBDev{}, "not an ibdev2netdev line"
	}
	left, right := s[:idx], s[idx+len(" ==> "):]
	rm := ibRightRe.FindStringSubmatch(right)
	if rm == nil {
		return IBDev{}, "want \"==> <netdev> (<state>)\""
	}
	if !validIfName(rm[1]) {
		return IBDev{}, refusedNetdev(rm[1])
	}
	d := IBDev{Netdev: rm[1], State: strings.TrimSpace(rm[2])}
	var portStr string
	if m := ibShortRe.FindStringSubmatch(left); m != nil {
		d.IBDev, portStr = m[1], m[2]
	} else if m := ibVerboseRe.FindStringSubmatch(left); m != nil {
		// -v: "[<pci>] <ibdev> (<devid> - <partid>) <desc>"; $x is empty when
		// the PCI device was not found, and PCI addresses have colons while
		// ibdev names do not.
		f := strings.Fields(m[1])
		if len(f) > 0 && strings.Contains(f[0], ":") {
			f = f[1:]
		}
		if len(f) < 2 || !strings.HasPrefix(f[1], "(") || strings.ContainsAny(f[0], "()") {
			return IBDev{}, "bad ibdev2netdev -v line"
		}
		d.IBDev, portStr = f[0], m[2]
	} else {
		return IBDev{}, "not an ibdev2netdev line"
	}
	port, ok := atoiRange(portStr, 1, 255)
	if !ok {
		return IBDev{}, "bad port"
	}
	if !validIBName(d.IBDev) {
		return IBDev{}, "bad ibdev name: want " + names.IBDevRule
	}
	d.Port = port
	return d, ""
}

// validIfName and validIBName are the names the live audit would send
// (internal/names): a capture that holds any other name cannot have come
// from it, and the name must not reach a command or a path.
func validIfName(s string) bool { return names.Netdev(s) }

func validIBName(s string) bool { return names.IBDev(s) }

// refusedNetdev says why a netdev the live audit would not send is an
// error rather than a line skipped.
func refusedNetdev(nd string) string {
	return fmt.Sprintf("netdev %q refused: want %s", clip(nd), names.NetdevRule)
}
