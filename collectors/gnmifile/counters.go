package gnmifile

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// IfQueue names an egress queue of an interface.
type IfQueue struct {
	Interface string
	Queue     string
}

// IfPrio names a switch priority of an interface.
type IfPrio struct {
	Interface string
	Priority  int
}

// QueueCounters are one egress queue's counters.
type QueueCounters struct {
	TransmitPkts        uint64
	TransmitOctets      uint64
	ECNMarkedPkts       uint64
	WREDDroppedPkts     uint64
	NoBufferDroppedPkts uint64 // no-buffer-uc-dropped-pkts
	// Pos is the first notification that carried one of these counters.
	Pos source.Pos
}

// PrioCounters are one switch priority's PFC counters.
type PrioCounters struct {
	InPausePkts      uint64
	OutPausePkts     uint64
	InPauseDuration  uint64
	OutPauseDuration uint64
	Pos              source.Pos
}

// Counters is the flat view of a gnmi-counters.json file.
type Counters struct {
	Queues     map[IfQueue]QueueCounters
	Priorities map[IfPrio]PrioCounters
}

// QueueKeys lists the queues sorted by interface then queue.
func (c *Counters) QueueKeys() []IfQueue {
	return slices.SortedFunc(maps.Keys(c.Queues), func(a, b IfQueue) int {
		return cmp.Or(cmp.Compare(a.Interface, b.Interface), cmp.Compare(a.Queue, b.Queue))
	})
}

// PrioKeys lists the priorities sorted by interface then priority.
func (c *Counters) PrioKeys() []IfPrio {
	return slices.SortedFunc(maps.Keys(c.Priorities), func(a, b IfPrio) int {
		return cmp.Or(cmp.Compare(a.Interface, b.Interface), cmp.Compare(a.Priority, b.Priority))
	})
}

// leaf kinds, indexes into the field tables below.
var queueLeaves = map[string]func(*QueueCounters) *uint64{
	"transmit-pkts":             func(q *QueueCounters) *uint64 { return &q.TransmitPkts },
	"transmit-octets":           func(q *QueueCounters) *uint64 { return &q.TransmitOctets },
	"ecn-marked-pkts":           func(q *QueueCounters) *uint64 { return &q.ECNMarkedPkts },
	"wred-dropped-pkts":         func(q *QueueCounters) *uint64 { return &q.WREDDroppedPkts },
	"no-buffer-uc-dropped-pkts": func(q *QueueCounters) *uint64 { return &q.NoBufferDroppedPkts },
}

// prioLeaves are relative to switch-priority[priority]/state.
var prioLeaves = map[string]func(*PrioCounters) *uint64{
	"counters/in-pause-pkts":  func(p *PrioCounters) *uint64 { return &p.InPausePkts },
	"counters/out-pause-pkts": func(p *PrioCounters) *uint64 { return &p.OutPausePkts },
	"in-pause-duration":       func(p *PrioCounters) *uint64 { return &p.InPauseDuration },
	"out-pause-duration":      func(p *PrioCounters) *uint64 { return &p.OutPauseDuration },
}

// parser carries the per-leaf timestamps that decide which duplicate wins.
type parser struct {
	file string
	c    *Counters
	ts   map[string]int64
}

// ParseCounters reads a gnmi-counters.json file (see the package comment).
// Errors are *source.Error naming file and the line of the offending
// notification.
func ParseCounters(file string, data []byte) (*Counters, error) {
	ns, lines, err := readNotifications(file, data)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, c: &Counters{Queues: map[IfQueue]QueueCounters{}, Priorities: map[IfPrio]PrioCounters{}}, ts: map[string]int64{}}
	for i, n := range ns {
		for _, u := range n.updates {
			if err := p.update(n, u, lines[i]); err != nil {
				return nil, err
			}
		}
	}
	return p.c, nil
}

func (p *parser) update(n *notification, u *update, line int) error {
	es := elems(n.prefix, u.path)
	// qos interfaces interface[interface-id] ...
	if len(es) < 4 || es[0].name != "qos" || es[1].name != "interfaces" || es[2].name != "interface" {
		return nil // another subtree: not ours to judge
	}
	ifname, ok := es[2].key["interface-id"]
	if !ok {
		return nil
	}
	where := pathText{n.prefix, u.path} // rendered only in errors
	if err := checkKey("interface-id", ifname); err != nil {
		return source.Errorf(p.file, line, "%s: %v", where, err)
	}
	pos := source.Pos{File: p.file, Line: line}
	rest := es[3:]
	switch {
	case len(rest) >= 3 && rest[0].name == "output" && rest[1].name == "queues" && rest[2].name == "queue":
		q, ok := rest[2].key["name"]
		if !ok {
			return nil
		}
		if err := checkKey("queue name", q); err != nil {
			return source.Errorf(p.file, line, "%s: %v", where, err)
		}
		set := leafSetter(p, p.c.Queues, IfQueue{Interface: ifname, Queue: q}, queueLeaves,
			"q\x00"+ifname+"\x00"+q, func(c *QueueCounters) { c.Pos = pos })
		return p.leaves(names(rest[3:]), u, where, line, set, n.timestamp)
	case len(rest) >= 1 && rest[0].name == "switch-priority":
		ps, ok := rest[0].key["priority"]
		if !ok {
			return nil
		}
		prio, err := strconv.Atoi(ps)
		if err != nil || prio < 0 || prio > 7 || strconv.Itoa(prio) != ps {
			return source.Errorf(p.file, line, "%s: switch priority %q is not 0..7", where, ps)
		}
		set := leafSetter(p, p.c.Priorities, IfPrio{Interface: ifname, Priority: prio}, prioLeaves,
			"p\x00"+ifname+"\x00"+ps, func(c *PrioCounters) { c.Pos = pos })
		return p.leaves(names(rest[1:]), u, where, line, set, n.timestamp)
	}
	return nil
}

// leafSetter is the setter p.leaves applies to the list entry key of m (a
// queue or a switch priority): it stores a known leaf's value unless it
// comes from an older sample than the one kept (timestamps are kept per
// tsKey and leaf); init fills a new entry (its position).
func leafSetter[K comparable, C any](p *parser, m map[K]C, key K, fields map[string]func(*C) *uint64, tsKey string, init func(*C)) func(string, uint64, int64) bool {
	return func(leaf string, v uint64, ts int64) bool {
		f := fields[leaf]
		if f == nil {
			return false
		}
		c, seen := m[key]
		if !seen {
			init(&c)
		}
		if p.newer(tsKey+"\x00"+leaf, ts) {
			*f(&c) = v
		}
		m[key] = c
		return true
	}
}

// pathText prints prefix + path when an error needs it.
type pathText struct{ prefix, p *path }

func (t pathText) String() string { return pathString(t.prefix, t.p) }

// newer records ts for a leaf and reports whether it replaces the value
// seen so far (a tie goes to the later notification).
func (p *parser) newer(k string, ts int64) bool {
	old, seen := p.ts[k]
	if seen && ts < old {
		return false
	}
	p.ts[k] = ts
	return true
}

func checkKey(what, v string) error {
	if v == "" || v == "*" {
		return fmt.Errorf("%s %q is not a concrete key", what, v)
	}
	return nil
}

func names(es []elem) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.name
	}
	return out
}

// leaves applies an update below a queue or priority: rel is the path
// after the list entry ("state", "transmit-pkts"...). set returns false
// for a leaf it does not know; such leaves are skipped, and so is their
// value, whatever its type.
func (p *parser) leaves(rel []string, u *update, where pathText, line int, set func(string, uint64, int64) bool, ts int64) error {
	if len(rel) == 0 || rel[0] != "state" {
		return nil
	}
	leaf := strings.Join(rel[1:], "/")
	if obj, ok := jsonObject(u.val); ok {
		return p.object(leaf, obj, where, line, set, ts)
	}
	v, err := uintValue(u.val)
	if err != nil {
		if set(leaf, 0, minTS) { // known leaf with a bad value: an error
			return source.Errorf(p.file, line, "%s: %v", where, err)
		}
		return nil
	}
	set(leaf, v, ts)
	return nil
}

// minTS never wins against a real timestamp, so probing a leaf with it
// cannot replace a value (but it does create the entry, which the error
// that follows discards).
const minTS = -1 << 63

// object walks a JSON object value at container path base ("" for state).
func (p *parser) object(base string, obj map[string]json.RawMessage, where pathText, line int, set func(string, uint64, int64) bool, ts int64) error {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		leaf := StripModule(k)
		if base != "" {
			leaf = base + "/" + leaf
		}
		raw := bytes.TrimSpace(obj[k])
		if len(raw) > 0 && raw[0] == '{' {
			var sub map[string]json.RawMessage
			if err := json.Unmarshal(raw, &sub); err != nil {
				return source.Errorf(p.file, line, "%s: %s: %v", where, k, err)
			}
			if err := p.object(leaf, sub, where, line, set, ts); err != nil {
				return err
			}
			continue
		}
		v, err := jsonUint(raw)
		if err != nil {
			if set(leaf, 0, minTS) {
				return source.Errorf(p.file, line, "%s: %s: %v", where, k, err)
			}
			continue
		}
		set(leaf, v, ts)
	}
	return nil
}

// jsonObject returns a JSON value's object, if it is one.
func jsonObject(tv *typedValue) (map[string]json.RawMessage, bool) {
	raw := jsonBytes(tv)
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, false // uintValue reports it
	}
	return obj, true
}

func jsonBytes(tv *typedValue) []byte {
	if tv != nil && (tv.kind == kindJSON || tv.kind == kindJSONIETF) {
		return tv.b
	}
	return nil
}

// uintValue reads a counter from any of the encodings a target may use.
func uintValue(tv *typedValue) (uint64, error) {
	if tv == nil {
		tv = &typedValue{}
	}
	switch tv.kind {
	case kindUint:
		return tv.u, nil
	case kindInt:
		if tv.i < 0 {
			return 0, fmt.Errorf("negative counter %d", tv.i)
		}
		return uint64(tv.i), nil
	case kindString:
		return parseUint(tv.s)
	case kindJSON, kindJSONIETF:
		return jsonUint(bytes.TrimSpace(tv.b))
	case kindNone:
		return 0, fmt.Errorf("no value")
	default:
		return 0, fmt.Errorf("a counter cannot be a %s", tv.kind)
	}
}

// jsonUint accepts a JSON number or a JSON string holding a decimal (RFC
// 7951 §6.1 quotes 64-bit integers).
func jsonUint(raw []byte) (uint64, error) {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, fmt.Errorf("bad JSON string %s", trunc(raw))
		}
		return parseUint(s)
	}
	if !json.Valid(raw) {
		return 0, fmt.Errorf("bad JSON value %s", trunc(raw))
	}
	return parseUint(string(raw))
}

func parseUint(s string) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("counter %s is not an unsigned 64-bit integer", trunc([]byte(strconv.Quote(s))))
	}
	return v, nil
}

func trunc(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}
