package gnmi_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/gnmi"
	"github.com/qoslint/qoslint/internal/source"
)

const file = "devices/leaf01/gnmi-counters.json"

// Leaf-level updates with the prefix holding the list keys: the shape of
// real targets (libs.md §3.4), with each value encoding the parser accepts.
const mixed = `[
  {"timestamp":"5","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp1"}},{"name":"output"},{"name":"queues"},{"name":"queue","key":{"name":"3"}},{"name":"state"}]},
   "update":[{"path":{"elem":[{"name":"transmit-pkts"}]},"val":{"uintVal":"18446744073709551615"}},
             {"path":{"elem":[{"name":"transmit-octets"}]},"val":{"intVal":"4096"}},
             {"path":{"elem":[{"name":"ecn-marked-pkts"}]},"val":{"jsonVal":"Nw=="}},
             {"path":{"elem":[{"name":"wred-dropped-pkts"}]},"val":{"jsonIetfVal":"IjEyIg=="}},
             {"path":{"elem":[{"name":"no-buffer-uc-dropped-pkts"}]},"val":{"stringVal":"2"}},
             {"path":{"elem":[{"name":"some-future-leaf"}]},"val":{"boolVal":true}}]},
  {"timestamp":"5","update":[{"path":{"origin":"openconfig","elem":[{"name":"openconfig-qos:qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp1"}},{"name":"switch-priority","key":{"priority":"3"}},{"name":"state"},{"name":"counters"},{"name":"in-pause-pkts"}]},"val":{"uintVal":"11"}}]},
  {"timestamp":"5","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp2"}},{"name":"switch-priority","key":{"priority":"0"}}]},
   "update":[{"path":{"elem":[{"name":"state"}]},"val":{"jsonIetfVal":"eyJjb3VudGVycyI6eyJpbi1wYXVzZS1wa3RzIjoiMSIsIm91dC1wYXVzZS1wa3RzIjoyfSwiaW4tcGF1c2UtZHVyYXRpb24iOjMsIm9wZW5jb25maWctcW9zOm91dC1wYXVzZS1kdXJhdGlvbiI6IjQifQ=="}}]},
  {"timestamp":"5","prefix":{"elem":[{"name":"interfaces"},{"name":"interface","key":{"name":"swp1"}}]},"update":[{"path":{"elem":[{"name":"mtu"}]},"val":{"stringVal":"not a number"}}]}
]
`

// jsonIetfVal above is {"counters":{"in-pause-pkts":"1","out-pause-pkts":2},"in-pause-duration":3,"openconfig-qos:out-pause-duration":"4"}.

func TestParseCountersEncodings(t *testing.T) {
	c, err := gnmi.ParseCounters(file, []byte(mixed))
	if err != nil {
		t.Fatal(err)
	}
	q := c.Queues[gnmi.IfQueue{Interface: "swp1", Queue: "3"}]
	want := gnmi.QueueCounters{
		TransmitPkts: 1<<64 - 1, TransmitOctets: 4096, ECNMarkedPkts: 7, WREDDroppedPkts: 12, NoBufferDroppedPkts: 2,
		Pos: source.Pos{File: file, Line: 2},
	}
	if q != want {
		t.Errorf("queue = %+v\nwant    %+v", q, want)
	}
	p := c.Priorities[gnmi.IfPrio{Interface: "swp1", Priority: 3}]
	if p.InPausePkts != 11 || p.Pos.Line != 9 {
		t.Errorf("swp1 prio 3 = %+v", p)
	}
	p = c.Priorities[gnmi.IfPrio{Interface: "swp2", Priority: 0}]
	if p != (gnmi.PrioCounters{InPausePkts: 1, OutPausePkts: 2, InPauseDuration: 3, OutPauseDuration: 4, Pos: source.Pos{File: file, Line: 10}}) {
		t.Errorf("swp2 prio 0 (container JSON) = %+v", p)
	}
	if len(c.Queues) != 1 || len(c.Priorities) != 2 {
		t.Errorf("unexpected entries: %v %v", c.QueueKeys(), c.PrioKeys())
	}
}

func TestParseCountersLaterTimestampWins(t *testing.T) {
	in := `[
  {"timestamp":"20","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp1"}},{"name":"output"},{"name":"queues"},{"name":"queue","key":{"name":"0"}},{"name":"state"}]},"update":[{"path":{"elem":[{"name":"transmit-pkts"}]},"val":{"uintVal":"200"}}]},
  {"timestamp":"10","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp1"}},{"name":"output"},{"name":"queues"},{"name":"queue","key":{"name":"0"}},{"name":"state"}]},"update":[{"path":{"elem":[{"name":"transmit-pkts"}]},"val":{"uintVal":"100"}}]}
]`
	c, err := gnmi.ParseCounters(file, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Queues[gnmi.IfQueue{Interface: "swp1", Queue: "0"}].TransmitPkts; got != 200 {
		t.Errorf("transmit-pkts = %d, want the newer 200", got)
	}
}

func TestParseCountersEmpty(t *testing.T) {
	for _, in := range []string{"[]", "[\n]\n", " [ ] "} {
		c, err := gnmi.ParseCounters(file, []byte(in))
		if err != nil || len(c.Queues) != 0 || len(c.Priorities) != 0 {
			t.Errorf("%q: %v %v", in, c, err)
		}
	}
}

const queuePrefix = `"prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp1"}},{"name":"output"},{"name":"queues"},{"name":"queue","key":{"name":"3"}},{"name":"state"}]}`

func queueNote(val string) string {
	return `{"timestamp":"1",` + queuePrefix + `,"update":[{"path":{"elem":[{"name":"transmit-pkts"}]},"val":` + val + `}]}`
}

func TestParseCountersErrors(t *testing.T) {
	ok := queueNote(`{"uintVal":"1"}`)
	prio := func(p string) string {
		return `{"update":[{"path":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp1"}},{"name":"switch-priority","key":{"priority":"` + p + `"}},{"name":"state"},{"name":"in-pause-duration"}]},"val":{"uintVal":"1"}}]}`
	}
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "", 1, "empty file"},
		{"object", `{"update":[]}`, 1, "want a JSON array"},
		{"null", "null", 1, "want a JSON array"},
		{"truncated", "[\n  " + ok + ",\n", 2, "unexpected end"},
		{"syntax", "[\n  " + ok + ",\n  {\"timestamp\":1,,}\n]", 3, "gNMI counters"},
		{"unknown field", "[\n  " + ok + ",\n  {\"timestamp\":\"1\",\"bogus\":1}\n]", 3, "notification 2"},
		{"trailing", "[\n  " + ok + "\n]\n[]", 4, "after the array"},
		{"negative int", "[\n  " + queueNote(`{"intVal":"-1"}`) + "\n]", 2, "negative counter"},
		{"bool", "[\n\n  " + queueNote(`{"boolVal":true}`) + "\n]", 3, "cannot be"},
		{"float json", "[\n  " + queueNote(`{"jsonVal":"MS41"}`) + "\n]", 2, "not an unsigned"},
		{"bad string", "[\n  " + queueNote(`{"stringVal":"12x"}`) + "\n]", 2, "not an unsigned"},
		{"no value", "[\n  " + queueNote(`{}`) + "\n]", 2, "no value"},
		{"priority 8", "[\n  " + ok + ",\n  " + prio("8") + "\n]", 3, "not 0..7"},
		{"priority 03", "[\n  " + prio("03") + "\n]", 2, "not 0..7"},
		{"wildcard key", "[\n  " + strings.Replace(ok, `"swp1"`, `"*"`, 1) + "\n]", 2, "not a concrete key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := gnmi.ParseCounters(file, []byte(tc.in))
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("err = %v (%T), want *source.Error", err, err)
			}
			if se.File != file || se.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("got %s:%d %q; want line %d containing %q", se.File, se.Line, se.Msg, tc.line, tc.msg)
			}
		})
	}
}

func TestMarshalFileSortsAndRoundTrips(t *testing.T) {
	ns, _, err := gnmi.ReadFile(file, []byte(mixed))
	if err != nil {
		t.Fatal(err)
	}
	// Reversed input must give the same bytes.
	rev := append(ns[:0:0], ns...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	a, err := gnmi.MarshalFile(ns)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := gnmi.MarshalFile(rev)
	if string(a) != string(b) {
		t.Errorf("order-dependent output:\n%s\n%s", a, b)
	}
	c1, err := gnmi.ParseCounters(file, []byte(mixed))
	if err != nil {
		t.Fatal(err)
	}
	c2, err := gnmi.ParseCounters(file, a)
	if err != nil {
		t.Fatal(err)
	}
	// Positions move with the layout; the values must not.
	if !reflect.DeepEqual(strip(c1), strip(c2)) {
		t.Errorf("values changed through MarshalFile:\n%+v\n%+v", c1, c2)
	}
	if n := strings.Count(string(a), "\n"); n != len(ns)+2 {
		t.Errorf("%d lines for %d notifications", n, len(ns))
	}
}

func strip(c *gnmi.Counters) *gnmi.Counters {
	out := &gnmi.Counters{Queues: map[gnmi.IfQueue]gnmi.QueueCounters{}, Priorities: map[gnmi.IfPrio]gnmi.PrioCounters{}}
	for k, v := range c.Queues {
		v.Pos = source.Pos{}
		out.Queues[k] = v
	}
	for k, v := range c.Priorities {
		v.Pos = source.Pos{}
		out.Priorities[k] = v
	}
	return out
}

func TestParsePathAndMatch(t *testing.T) {
	for _, bad := range []string{"/a[k=v", "/a[kv]", "/a[k=v]x", "/[k=v]", "/a[=v]"} {
		if _, err := gnmi.ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q) accepted", bad)
		}
	}
	sub, err := gnmi.ParsePath(gnmi.SubscribePaths[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := gnmi.PathString(nil, sub); got != gnmi.SubscribePaths[0] {
		t.Errorf("PathString round trip: %s", got)
	}
	data, _ := gnmi.ParsePath("/qos/interfaces/interface[interface-id=swp9]/output/queues/queue[name=1]/state/transmit-pkts")
	other, _ := gnmi.ParsePath("/qos/interfaces/interface[interface-id=swp9]/output/queues/queue[name=1]/state/transmit-octets")
	if !gnmi.Match(sub, nil, data) || gnmi.Match(sub, nil, other) {
		t.Error("wildcard match wrong")
	}
}
