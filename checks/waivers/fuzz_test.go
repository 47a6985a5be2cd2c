package waivers

import (
	"errors"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
)

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"waivers:\n  - check: host-tos\n    device: \"gpu0*\"\n    interface: \"ens1f1np1\"\n    reason: \"vendor ticket 1234: NCCL_IB_TC set by the job scheduler\"\n    expires: 2027-03-31\n",
		"waivers:\n- {check: mtu, device: leaf03, interface: swp5, reason: uplink, expires: \"2026-06-30\"}\n",
		"waivers:\n- check: [mtu]\n  device: {a: b}\n",
		"waivers:\n  check: mtu\n",
		"waivers:\n- &a {check: mtu, device: x, reason: r}\n- *a\n",
		"waivers:\n- check: mtu\n  device: *x\n",
		"waivers: []\n---\nwaivers: []\n",
		"waivers:\n- {check: mtu, device: \"leaf[\", reason: r, expires: 2027-13-01}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(FileName, data)
		if err != nil {
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error %T is not Errors: %v", err, err)
			}
			for _, e := range es {
				if e.File != FileName || e.Line < 1 || e.Msg == "" || strings.ContainsAny(e.Msg, "\r\n") {
					t.Fatalf("error without a position or on several lines: %#v", e)
				}
			}
		} else {
			for _, w := range file.Waivers {
				if checks.Lookup(w.Check) == nil || w.Device == "" || w.Reason == "" || w.Pos.Line < 1 ||
					strings.ContainsAny(w.Reason, "\r\n\t") {
					t.Fatalf("invalid waiver accepted: %+v", w)
				}
				if _, err := path.Match(w.Device, ""); err != nil {
					t.Fatalf("bad device glob accepted: %q", w.Device)
				}
			}
		}
		// The same bytes, the same result.
		file2, err2 := Parse(FileName, data)
		if !reflect.DeepEqual(file, file2) || (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatal("Parse is not deterministic")
		}
	})
}
