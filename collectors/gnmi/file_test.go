package gnmi_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/gnmi"
	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

const file = "devices/leaf01/gnmi-counters.json"

// mixed is the parser's own fixture: every value encoding it accepts.
func mixed(t testing.TB) string {
	b, err := os.ReadFile(filepath.Join("..", "gnmifile", "testdata", "mixed-gnmi-counters.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMarshalFileSortsAndRoundTrips(t *testing.T) {
	ns, _, err := gnmi.ReadFile(file, []byte(mixed(t)))
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
	c1, err := gnmifile.ParseCounters(file, []byte(mixed(t)))
	if err != nil {
		t.Fatal(err)
	}
	c2, err := gnmifile.ParseCounters(file, a)
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

func strip(c *gnmifile.Counters) *gnmifile.Counters {
	out := &gnmifile.Counters{Queues: map[gnmifile.IfQueue]gnmifile.QueueCounters{}, Priorities: map[gnmifile.IfPrio]gnmifile.PrioCounters{}}
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

// FuzzAgreesWithProtojson holds gnmifile's hand-written decoder to
// protojson, which decodes the same file into the generated gNMI messages
// (ReadFile): a file protojson rejects, gnmifile rejects; a file it
// accepts reads to the same counters as its canonical form (MarshalFile),
// and that form is a fixed point. The one difference allowed is anyVal,
// whose type protojson resolves against the types linked in and gnmifile
// cannot (see readAny in gnmifile).
func FuzzAgreesWithProtojson(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "leaf01-"+layout.GNMIFile))
	if err != nil {
		f.Fatal(err)
	}
	lines := bytes.SplitAfter(golden, []byte("\n"))
	head := string(bytes.Join(lines[:4], nil))
	head = head[:len(head)-2] + "\n]\n" // drop the last ",\n"
	note := func(val string) string {
		return `[{"timestamp":"1","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp1"}},{"name":"output"},{"name":"queues"},{"name":"queue","key":{"name":"3"}},{"name":"state"}]},"update":[{"path":{"elem":[{"name":"transmit-pkts"}]},"val":` + val + `}]}]`
	}
	for _, s := range []string{
		mixed(f), head, "[]", "", "null", "[{}]", "[null]", `[{"timestamp":1,"timestamp":2}]`,
		`[{"timestamp":"1.5e1"}]`, `[{"timestamp":1e400}]`, `[{"timestamp":" 1"}]`, `[{"atomic":1}]`,
		`[{"update":[{"duplicates":4294967296}]}]`, `[{"update":[{"value":{"value":"AA","type":"JSON_IETF"}}]}]`,
		`[{"prefix":{"element":["a"],"target":"t","elem":[{"name":"a","key":{"k":"v","k":"w"}}]}}]`,
		note(`{"intVal":"-1"}`), note(`{"uint_val":"7"}`), note(`{"uintVal":null,"intVal":3}`),
		note(`{"uintVal":1,"intVal":3}`), note(`{"doubleVal":"NaN"}`), note(`{"floatVal":1e39}`),
		note(`{"bytesVal":"-_8"}`), note(`{"decimalVal":{"digits":"1","precision":2}}`),
		`[{"prefix":{"origin":"\ud800"}}]`, `[{"prefix":{"origin":"\ud83d\ude00"}}]`,
		note(`{"leaflistVal":{"element":[{"uintVal":1}]}}`), note(`{"jsonIetfVal":"IjQyIg=="}`),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(data, []byte("anyVal")) || bytes.Contains(data, []byte("any_val")) {
			t.Skip("anyVal: protojson resolves its type, gnmifile does not")
		}
		c, err := gnmifile.ParseCounters(file, data)
		ns, _, perr := gnmi.ReadFile(file, data)
		if perr != nil {
			if err == nil {
				t.Fatalf("gnmifile accepts what protojson rejects: %v", perr)
			}
			return
		}
		out, merr := gnmi.MarshalFile(ns)
		if merr != nil {
			t.Fatalf("MarshalFile of parsed notifications: %v", merr)
		}
		c2, err2 := gnmifile.ParseCounters(file, out)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("file and its canonical form disagree: %v / %v\n%s", err, err2, out)
		}
		if err == nil && !reflect.DeepEqual(strip(c), strip(c2)) {
			t.Fatalf("counters differ from the canonical form's:\n%+v\n%+v", c, c2)
		}
		ns2, _, err := gnmi.ReadFile(file, out)
		if err != nil {
			t.Fatalf("MarshalFile output does not read back: %v\n%s", err, out)
		}
		if out2, err := gnmi.MarshalFile(ns2); err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("MarshalFile is not a fixed point (%v):\n%s\n%s", err, out, out2)
		}
	})
}

// TestDecoderAgreesWithProtojson: edge cases of the protobuf JSON mapping
// (number forms, base64 forms, null, duplicate and oneof fields, UTF-16
// escapes) are accepted or rejected by gnmifile exactly as protojson does.
func TestDecoderAgreesWithProtojson(t *testing.T) {
	for _, s := range []string{
		`[{"prefix":{"origin":"\ud800"}}]`, `[{"prefix":{"origin":"\udc00\ud800"}}]`, `[{"prefix":{"origin":"\ud83d\ude00"}}]`, `[{"prefix":{"origin":"\ud83d\u0041"}}]`, `[{"prefix":{"origin":"a\\\"\ud83d"}}]`, `[{"prefix":{"origin":"\u0000"}}]`, `[{"timestamp":-0}]`, `[{"timestamp":"-0"}]`,
		`[{"timestamp":01}]`, `[{"timestamp":"1e1"}]`, `[{"timestamp":"0x1"}]`, `[{"timestamp":1.0}]`, `[{"timestamp":"1."}]`,
		`[{"timestamp":true}]`, `[{"update":[{"val":{"floatVal":"1e39"}}]}]`, `[{"update":[{"val":{"floatVal":"-Infinity"}}]}]`,
		`[{"update":[{"val":{"bytesVal":"AAA="}}]}]`, `[{"update":[{"val":{"bytesVal":"AA=="}}]}]`, `[{"update":[{"val":{"bytesVal":"A"}}]}]`,
		`[{"update":[{"val":{"bytesVal":"AA\n=="}}]}]`, `[{"update":[{"val":{"bytesVal":"A-_="}}]}]`,
		`[{"update":[{"val":{"anyVal":{}}}]}]`,
		`[{"update":[{"value":{"type":7}}]}]`, `[{"update":[{"value":{"type":"X"}}]}]`, `[{"update":[{"value":{"type":1.0}}]}]`,
		`[{"update":[{"val":{"leaflistVal":{"element":[null]}}}]}]`, `[{"update":[null]}]`, `[{"update":null}]`,
		`[{"prefix":{"elem":[{"key":{"a":null}}]}}]`, `[{"prefix":{"elem":[{"key":null}]}}]`, `[{"alias":"x"}]`,
		`[{"[gnmi.foo]":1}]`, `[{"update":[{"val":{"stringVal":"a","string_val":"b"}}]}]`, `[{"update":[{"val":{"string_val":null,"stringVal":"b"}}]}]`,
		`[{"timestamp":1E2}]`, `[{"timestamp":"1e-0"}]`, `[{"timestamp":100e-2}]`, `[{"timestamp":10e-2}]`, `[{"update":[{"duplicates":-0}]}]`,
		`[{"update":[{"val":{"doubleVal":"1e400"}}]}]`, `[{"update":[{"val":{"doubleVal":" 1"}}]}]`, `[1]`, `[[]]`, `[{"update":{}}]`,
	} {
		_, _, perr := gnmi.ReadFile(file, []byte(s))
		_, err := gnmifile.ParseCounters(file, []byte(s))
		if (perr == nil) != (err == nil) {
			t.Errorf("%s: protojson %v, gnmifile %v", s, perr, err)
		}
	}
	// The known difference: protojson resolves an Any's type, gnmifile
	// has no registry and accepts any "@type".
	const anyVal = `[{"update":[{"val":{"anyVal":{"@type":"x"}}}]}]`
	if _, _, perr := gnmi.ReadFile(file, []byte(anyVal)); perr == nil {
		t.Errorf("protojson resolved an unknown Any type")
	}
	if _, err := gnmifile.ParseCounters(file, []byte(anyVal)); err != nil {
		t.Errorf("gnmifile rejected an Any off the counter leaves: %v", err)
	}
}
