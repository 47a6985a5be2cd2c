package gnmifile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/internal/source"
)

const file = "devices/leaf01/gnmi-counters.json"

// testdata/mixed-gnmi-counters.json has leaf-level updates with the prefix
// holding the list keys: the shape of real targets (not verified), with
// each value encoding the parser accepts. Its jsonIetfVal is
// {"counters":{"in-pause-pkts":"1","out-pause-pkts":2},"in-pause-duration":3,"openconfig-qos:out-pause-duration":"4"}.
var mixed = func() string {
	b, err := os.ReadFile(filepath.Join("testdata", "mixed-gnmi-counters.json"))
	if err != nil {
		panic(err)
	}
	return string(b)
}()

func TestParseCountersEncodings(t *testing.T) {
	c, err := gnmifile.ParseCounters(file, []byte(mixed))
	if err != nil {
		t.Fatal(err)
	}
	q := c.Queues[gnmifile.IfQueue{Interface: "swp1", Queue: "3"}]
	want := gnmifile.QueueCounters{
		TransmitPkts: 1<<64 - 1, TransmitOctets: 4096, ECNMarkedPkts: 7, WREDDroppedPkts: 12, NoBufferDroppedPkts: 2,
		Pos: source.Pos{File: file, Line: 2},
	}
	if q != want {
		t.Errorf("queue = %+v\nwant    %+v", q, want)
	}
	p := c.Priorities[gnmifile.IfPrio{Interface: "swp1", Priority: 3}]
	if p.InPausePkts != 11 || p.Pos.Line != 9 {
		t.Errorf("swp1 prio 3 = %+v", p)
	}
	p = c.Priorities[gnmifile.IfPrio{Interface: "swp2", Priority: 0}]
	if p != (gnmifile.PrioCounters{InPausePkts: 1, OutPausePkts: 2, InPauseDuration: 3, OutPauseDuration: 4, Pos: source.Pos{File: file, Line: 10}}) {
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
	c, err := gnmifile.ParseCounters(file, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Queues[gnmifile.IfQueue{Interface: "swp1", Queue: "0"}].TransmitPkts; got != 200 {
		t.Errorf("transmit-pkts = %d, want the newer 200", got)
	}
}

func TestParseCountersEmpty(t *testing.T) {
	for _, in := range []string{"[]", "[\n]\n", " [ ] "} {
		c, err := gnmifile.ParseCounters(file, []byte(in))
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
			_, err := gnmifile.ParseCounters(file, []byte(tc.in))
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
