// Package nvrange is NVUE's range grammar for names and numbers, the one
// vocabulary every layer reads (collectors name the ports they ask, the
// model expands keys, checks and render print ranges back). It imports the
// standard library only.
package nvrange

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// NVUE writes object keys and values as comma lists of ranges: "swp1-4,swp6",
// "swp1-2,32" (a bare number keeps the previous prefix, as `nv config show -o
// commands` compresses it), "10,21,36", "0-3,5-7". Sources: CumulusNetworks/docs
// content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md
// (`dscp 10,21,36`, `traffic-pool default-lossy switch-priority 0-3,5-7`,
// `interface swp1-4,swp6`) and NVUE-CLI.md's `nv config show -o commands`
// output (`nv set interface swp1-2,32 type swp`).

// ExpandInts expands "0-3,5,7" into sorted unique integers within [lo, hi].
func ExpandInts(s string, lo, hi int) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("empty element in %q", s)
		}
		a, b, isRange := strings.Cut(part, "-")
		first, err := strconv.Atoi(a)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", a)
		}
		last := first
		if isRange {
			if last, err = strconv.Atoi(b); err != nil {
				return nil, fmt.Errorf("%q is not a number", b)
			}
		}
		if first > last {
			return nil, fmt.Errorf("range %q runs backwards", part)
		}
		if first < lo || last > hi {
			return nil, fmt.Errorf("%q is outside %d-%d", part, lo, hi)
		}
		for i := first; i <= last; i++ {
			if !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	sort.Ints(out)
	return out, nil
}

// maxRangeLen bounds one range so a typo like swp1-99999999 cannot exhaust
// memory; no switch has more ports than this.
const maxRangeLen = 4096

// ExpandNames expands "swp1-4,swp6", "swp1-2,32", "eth0,swp19-22" and
// breakouts "swp1s0-3" into sorted unique names. Names without a trailing
// number ("lo", "default-global") stand for themselves.
func ExpandNames(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	prefix := ""
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("empty element in %q", s)
		}
		first, last, hasRange := strings.Cut(part, "-")
		p, n, ok := splitTrailingNumber(first)
		switch {
		case ok && p == "" && prefix != "":
			p = prefix // "swp1-2,32": 32 is swp32
		case !ok && hasRange:
			// not a numeric range: "default-global", "roce-lossless"
			add(part)
			prefix = ""
			continue
		case !ok:
			add(part)
			prefix = ""
			continue
		}
		prefix = p
		if !hasRange {
			add(p + strconv.Itoa(n))
			continue
		}
		end, err := strconv.Atoi(last)
		if err != nil {
			// "swp1-eth3" or a name containing a dash after digits
			add(part)
			continue
		}
		if end < n || end-n > maxRangeLen {
			return nil, fmt.Errorf("bad range %q", part)
		}
		for i := n; i <= end; i++ {
			add(p + strconv.Itoa(i))
		}
	}
	SortNames(out)
	return out, nil
}

// splitTrailingNumber splits "swp12" into "swp", 12 and "swp1s3" into
// "swp1s", 3.
func splitTrailingNumber(s string) (string, int, bool) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || len(s)-i > 9 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i:])
	if err != nil {
		return s, 0, false
	}
	return s[:i], n, true
}

// SortNames orders interface names naturally: swp2 before swp10.
func SortNames(names []string) {
	sort.Slice(names, func(i, j int) bool { return NaturalLess(names[i], names[j]) })
}

// NaturalLess compares names with their numbers as numbers: swp2 < swp10.
func NaturalLess(a, b string) bool {
	for a != "" && b != "" {
		ca, cb := a[0], b[0]
		if isDigit(ca) && isDigit(cb) {
			na, ra := leadingNumber(a)
			nb, rb := leadingNumber(b)
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
			continue
		}
		if ca != cb {
			return ca < cb
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func leadingNumber(s string) (uint64, string) {
	var n uint64
	i := 0
	for i < len(s) && isDigit(s[i]) && i < 18 {
		n = n*10 + uint64(s[i]-'0')
		i++
	}
	return n, s[i:]
}

// CompressNames is ExpandNames' inverse, the way NVUE prints ranges:
// swp1,swp2,swp3,swp5 → "swp1-3,swp5".
func CompressNames(names []string) string {
	if len(names) == 1 {
		// The one name as it is: a SONiC switch's ports each have a QoS
		// of their own, so most of its port groups are one port.
		return names[0]
	}
	// Names mostly come in order (a switch's ports, a group of them):
	// then there is nothing to sort, nor a copy to sort. Each before the
	// next has one order, the sort's; names naturally equal (swp01,
	// swp1) are sorted, as before.
	size, inOrder := len(names), true
	for i, name := range names {
		size += len(name)
		inOrder = inOrder && (i == 0 || NaturalLess(names[i-1], name))
	}
	sorted := names
	if !inOrder {
		sorted = append([]string(nil), names...)
		SortNames(sorted)
	}
	// The text is written at its size once: a SONiC switch's port names
	// (Ethernet0, Ethernet4, ...) do not compress, and a slice of parts
	// grown name by name, then joined, was half of the work.
	var b strings.Builder
	b.Grow(size)
	first := true
	part := func(s string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(s)
	}
	for i := 0; i < len(sorted); {
		p, n, ok := splitTrailingNumber(sorted[i])
		if !ok {
			part(sorted[i])
			i++
			continue
		}
		j := i + 1
		for j < len(sorted) {
			q, m, ok := splitTrailingNumber(sorted[j])
			if !ok || q != p || m != n+(j-i) {
				break
			}
			j++
		}
		if j-i == 1 {
			part(sorted[i])
		} else {
			part(p)
			b.WriteString(strconv.Itoa(n))
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(n + (j - i - 1)))
		}
		i = j
	}
	return b.String()
}

// CompressInts prints sorted ints as NVUE does: 0,1,2,4 → "0-2,4".
func CompressInts(v []int) string {
	s := append([]int(nil), v...)
	sort.Ints(s)
	var parts []string
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[j-1]+1 {
			j++
		}
		switch j - i {
		case 1:
			parts = append(parts, strconv.Itoa(s[i]))
		case 2:
			parts = append(parts, strconv.Itoa(s[i]), strconv.Itoa(s[i+1]))
		default:
			parts = append(parts, fmt.Sprintf("%d-%d", s[i], s[j-1]))
		}
		i = j
	}
	return strings.Join(parts, ",")
}
