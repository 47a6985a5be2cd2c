package gnmifile

import (
	"sort"
	"strings"
)

// pathString renders prefix + path as /a/b[k=v]/c with keys sorted, the
// way collectors/gnmi's PathString renders the protobuf path, so an error
// names the path as the rest of qoslint writes it. The origin, when set,
// leads as "origin:".
func pathString(prefix, p *path) string {
	var b strings.Builder
	for _, pp := range []*path{prefix, p} {
		if pp != nil && pp.origin != "" {
			b.WriteString(pp.origin + ":")
			break
		}
	}
	n := b.Len()
	for _, pp := range []*path{prefix, p} {
		if pp == nil {
			continue
		}
		for _, e := range pp.elems {
			b.WriteString("/" + e.name)
			keys := make([]string, 0, len(e.key))
			for k := range e.key {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				b.WriteString("[" + k + "=" + e.key[k] + "]")
			}
		}
	}
	if b.Len() == n {
		b.WriteString("/")
	}
	return b.String()
}

// elems joins prefix and path elements, dropping YANG module prefixes
// ("openconfig-qos:qos") so both spellings match.
func elems(prefix, p *path) []elem {
	var out []elem
	for _, pp := range []*path{prefix, p} {
		if pp == nil {
			continue
		}
		for _, e := range pp.elems {
			out = append(out, elem{name: StripModule(e.name), key: e.key})
		}
	}
	return out
}

// StripModule drops a YANG module prefix from a path element or JSON
// member name ("openconfig-qos:qos" is "qos").
func StripModule(s string) string {
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		return s[i+1:]
	}
	return s
}
