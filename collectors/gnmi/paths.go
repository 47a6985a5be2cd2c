package gnmi

import (
	"fmt"
	"sort"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/qoslint/qoslint/collectors/gnmifile"
)

// SubscribePaths are the QoS counter leaves Collect subscribes to. Cumulus
// accepts "*" for a whole key but no regex (CL docs "gNMI Streaming", 5.15
// QoS metrics).
var SubscribePaths = []string{
	"/qos/interfaces/interface[interface-id=*]/output/queues/queue[name=*]/state/transmit-pkts",
	"/qos/interfaces/interface[interface-id=*]/output/queues/queue[name=*]/state/transmit-octets",
	"/qos/interfaces/interface[interface-id=*]/output/queues/queue[name=*]/state/ecn-marked-pkts",
	"/qos/interfaces/interface[interface-id=*]/output/queues/queue[name=*]/state/wred-dropped-pkts",
	"/qos/interfaces/interface[interface-id=*]/output/queues/queue[name=*]/state/no-buffer-uc-dropped-pkts",
	"/qos/interfaces/interface[interface-id=*]/switch-priority[priority=*]/state/counters/in-pause-pkts",
	"/qos/interfaces/interface[interface-id=*]/switch-priority[priority=*]/state/counters/out-pause-pkts",
	"/qos/interfaces/interface[interface-id=*]/switch-priority[priority=*]/state/in-pause-duration",
	"/qos/interfaces/interface[interface-id=*]/switch-priority[priority=*]/state/out-pause-duration",
}

// ParsePath turns "/a/b[k=v]/c" into a *gpb.Path. Key values may not hold
// '/' or ']' (none of the QoS keys do); there is no parser in the gnmi
// module (openconfig/gnmi v0.14.1 path/path.go only flattens).
func ParsePath(s string) (*gpb.Path, error) {
	p := &gpb.Path{}
	for _, seg := range strings.Split(strings.Trim(s, "/"), "/") {
		if seg == "" {
			continue
		}
		name, rest, _ := strings.Cut(seg, "[")
		if name == "" {
			return nil, fmt.Errorf("empty element name in %q", s)
		}
		e := &gpb.PathElem{Name: name}
		for rest != "" {
			kv, after, ok := strings.Cut(rest, "]")
			if !ok {
				return nil, fmt.Errorf("unterminated key in %q", seg)
			}
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("bad key %q in %q", kv, seg)
			}
			if e.Key == nil {
				e.Key = map[string]string{}
			}
			e.Key[k] = v
			if after != "" && !strings.HasPrefix(after, "[") {
				return nil, fmt.Errorf("junk %q after key in %q", after, seg)
			}
			rest = strings.TrimPrefix(after, "[")
		}
		p.Elem = append(p.Elem, e)
	}
	return p, nil
}

// PathString renders prefix + path as /a/b[k=v]/c with keys sorted, so it
// can serve as a sort key. The origin, when set, leads as "origin:".
func PathString(prefix, p *gpb.Path) string {
	var b strings.Builder
	if o := prefix.GetOrigin(); o != "" {
		b.WriteString(o + ":")
	} else if o := p.GetOrigin(); o != "" {
		b.WriteString(o + ":")
	}
	n := b.Len()
	for _, pp := range []*gpb.Path{prefix, p} {
		for _, e := range pp.GetElem() {
			b.WriteString("/" + e.GetName())
			keys := make([]string, 0, len(e.GetKey()))
			for k := range e.GetKey() {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				b.WriteString("[" + k + "=" + e.GetKey()[k] + "]")
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
func elems(prefix, p *gpb.Path) []*gpb.PathElem {
	var out []*gpb.PathElem
	for _, pp := range []*gpb.Path{prefix, p} {
		for _, e := range pp.GetElem() {
			out = append(out, &gpb.PathElem{Name: gnmifile.StripModule(e.GetName()), Key: e.GetKey()})
		}
	}
	return out
}

// Match reports whether the subscription path sub (keys may be "*") covers
// the data path prefix+p: sub's elements are a prefix of the data's, with
// equal names and, for every key of sub, "*" or an equal value.
func Match(sub, prefix, p *gpb.Path) bool {
	s, d := elems(nil, sub), elems(prefix, p)
	if len(s) > len(d) {
		return false
	}
	for i, e := range s {
		if e.GetName() != d[i].GetName() {
			return false
		}
		for k, v := range e.GetKey() {
			if v != "*" && d[i].GetKey()[k] != v {
				return false
			}
		}
	}
	return true
}
