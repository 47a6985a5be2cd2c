package hostfiles

import (
	"net/netip"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// ParseTrafficClass parses /sys/class/infiniband/<ibdev>/tc/<port>/traffic_class
// (MLNX_OFED "Force DSCP", OFA-KERNEL drivers/infiniband/hw/mlx5/main_ext.c
// traffic_class_show):
//
//	if (tcd->val >= 0) snprintf(buf, PAGE_SIZE, "Global tclass=%d\n", tcd->val);
//	then per rule, in this order: "src_ip=%pI4," "dst_ip=%pI4/%d," "src_ip6=%pI6," "dst_ip6=%pI6," "tclass=%d\n"
//
// An empty file is the driver's initial state (val = -1): Global is -1.
func ParseTrafficClass(file string, data []byte) (*TrafficClass, error) {
	tc := &TrafficClass{File: file, Global: -1}
	first := true
	for i, raw := range splitLines(data) {
		n := i + 1
		s := strings.TrimSpace(raw)
		if s == "" {
			continue
		}
		if g, ok := strings.CutPrefix(s, "Global tclass="); ok {
			if !first {
				return nil, source.Errorf(file, n, "\"Global tclass=\" after the first line")
			}
			v, ok := atoiRange(g, 0, 255)
			if !ok {
				return nil, source.Errorf(file, n, "global tclass %q: want 0..255", clip(g))
			}
			tc.Global = v
			first = false
			continue
		}
		first = false
		rule, msg := parseTClassRule(s)
		if msg != "" {
			return nil, source.Errorf(file, n, "%s: %q", msg, clip(s))
		}
		rule.Line = n
		tc.Rules = append(tc.Rules, rule)
	}
	return tc, nil
}

func parseTClassRule(s string) (TClassRule, string) {
	i := strings.LastIndex(s, ",tclass=")
	if i < 0 {
		return TClassRule{}, "want a \"Global tclass=N\" or \"<match>,tclass=N\" line"
	}
	match, num := s[:i], s[i+len(",tclass="):]
	v, ok := atoiRange(num, 0, 255)
	if !ok {
		return TClassRule{}, "tclass must be 0..255"
	}
	for _, part := range strings.Split(match, ",") {
		k, val, _ := strings.Cut(part, "=")
		if !validTClassMatch(k, val) {
			return TClassRule{}, "bad match " + clip(part)
		}
	}
	return TClassRule{Match: match, TClass: v}, ""
}

// validTClassMatch checks one key=value of a rule. The driver prints IPv4
// dotted (%pI4), dst_ip with "/<bits>", and IPv6 in full form (%pI6).
func validTClassMatch(k, v string) bool {
	switch k {
	case "src_ip":
		a, err := netip.ParseAddr(v)
		return err == nil && a.Is4()
	case "dst_ip":
		if p, err := netip.ParsePrefix(v); err == nil {
			return p.Addr().Is4()
		}
		a, err := netip.ParseAddr(v)
		return err == nil && a.Is4()
	case "src_ip6", "dst_ip6":
		a, err := netip.ParseAddr(v)
		return err == nil && a.Is6() && a.Zone() == ""
	}
	return false
}
