package hostfiles

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// addFileSeeds adds every file matching pattern, with the extra arguments.
func addFileSeeds(f *testing.F, pattern string, args ...any) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(append([]any{data}, args...)...)
	}
}

// applyQosOps runs mlnx_qos commands decoded from ops, 3 bytes each.
func applyQosOps(q *MlnxQos, ops []byte) {
	for ; len(ops) >= 3; ops = ops[3:] {
		a, b := int(ops[1]), int(ops[2])
		switch ops[0] % 5 {
		case 0:
			q.SetTrust("pcp")
		case 1:
			q.SetTrust("dscp")
		case 2:
			var p [8]bool
			for i := range p {
				p[i] = a>>i&1 == 1
			}
			q.SetPFC(p)
		case 3:
			q.SetDSCP(a%70, b%9) // out of range now and then
		case 4:
			q.DelDSCP(a%64, b%8)
		}
	}
}

// FuzzFormatMlnxQosRoundTrip: whatever ParseMlnxQos accepts, FormatMlnxQos
// prints in a form it parses back to the same state, and printing that
// again gives the same bytes; the same holds after mlnx_qos commands, which
// keep trust and dscp2prio as the kernel does.
func FuzzFormatMlnxQosRoundTrip(f *testing.F) {
	addFileSeeds(f, "testdata/mlnx_qos/*", []byte{1, 0, 0, 3, 26, 3, 2, 8, 0})
	addFileSeeds(f, "../../examples/*/devices/*/mlnx_qos-*.txt", []byte{4, 26, 3, 0, 0, 0})
	f.Add([]byte("Priority trust state: pcp\n"), []byte{3, 26, 3, 4, 26, 3})
	f.Add([]byte("Rate limit is not supported on your system!\nCable len: 7\nPFC configuration:\nstrict\n\t priority:  0\n"), []byte{})
	f.Fuzz(func(t *testing.T, data, ops []byte) {
		q, err := ParseMlnxQos(fuzzFile, data)
		if err != nil {
			return // FuzzParseMlnxQos checks the errors
		}
		roundTrip := func(q *MlnxQos) *MlnxQos {
			t.Helper()
			out := FormatMlnxQos(q)
			back, err := ParseMlnxQos(fuzzFile, out)
			if err != nil {
				t.Fatalf("formatted output does not parse: %v\n%q", err, out)
			}
			if a, b := qosSemantic(q), qosSemantic(back); !reflect.DeepEqual(a, b) {
				t.Fatalf("round trip changed the state:\n got %+v\nwant %+v\n%q", b, a, out)
			}
			if again := FormatMlnxQos(back); !bytes.Equal(again, out) {
				t.Fatalf("not a fixed point:\n%q\n%q", out, again)
			}
			return back
		}
		roundTrip(q)

		trustBefore := q.Trust
		applyQosOps(q, ops)
		back := roundTrip(q)
		if len(ops) >= 3 && q.Trust != trustBefore && q.Trust != "pcp" && q.Trust != "dscp" {
			t.Fatalf("trust %q after commands", q.Trust)
		}
		switch {
		case q.Trust == "pcp" && trustBefore != "pcp" && q.DSCP2Prio != nil:
			t.Fatalf("trust moved to pcp but %d DSCP entries remain", len(q.DSCP2Prio))
		case q.Trust == "dscp" && len(back.DSCP2Prio) == 0 && len(ops) >= 3 && trustBefore != "dscp":
			t.Fatalf("trust moved to dscp with no DSCP entry")
		}
	})
}

// FuzzSetNCCLVar: after SetNCCLVar NCCL reads the value and every other
// variable as before, a second identical edit changes nothing, and
// DelNCCLVar leaves the key unset and the others as they were.
func FuzzSetNCCLVar(f *testing.F) {
	addFileSeeds(f, "testdata/nccl/*", "NCCL_IB_TC", "106")
	addFileSeeds(f, "../../examples/*/devices/*/nccl.conf", "NCCL_IB_TC", "106")
	f.Add([]byte("export NCCL_IB_TC=106"), "NCCL_IB_TC", "106")
	f.Add([]byte("NCCL_IB_TC=1\r\nNCCL_IB_TC=2\n#x\n"), "NCCL_IB_TC", "")
	f.Add([]byte("A=1\n"), "A=B", "1")
	f.Fuzz(func(t *testing.T, data []byte, key, value string) {
		before, err := ParseNCCLConf(fuzzFile, data)
		if err != nil {
			return
		}
		out := SetNCCLVar(data, key, value)
		if !ncclKeyOK(key) || !ncclValueOK(value) {
			if !bytes.Equal(out, data) {
				t.Fatalf("invalid %q=%q changed the file", key, value)
			}
			return
		}
		after, err := ParseNCCLConf(fuzzFile, out)
		if err != nil {
			t.Fatalf("edited file does not parse: %v", err)
		}
		if got := after.Vars[key].Value; got != value {
			t.Fatalf("NCCL reads %q=%q, want %q", key, got, value)
		}
		for k, v := range before.Vars {
			if k != key && after.Vars[k] != v {
				t.Fatalf("%q changed from %+v to %+v", k, v, after.Vars[k])
			}
		}
		if len(after.Vars) != len(before.Vars) && len(after.Vars) != len(before.Vars)+1 {
			t.Fatalf("%d vars before, %d after", len(before.Vars), len(after.Vars))
		}
		if again := SetNCCLVar(out, key, value); !bytes.Equal(again, out) {
			t.Fatalf("second edit changed the file:\n%q\n%q", out, again)
		}
		del, err := ParseNCCLConf(fuzzFile, DelNCCLVar(out, key))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := del.Vars[key]; ok {
			t.Fatalf("%q still set after DelNCCLVar", key)
		}
		for k, v := range before.Vars {
			if k != key && del.Vars[k].Value != v.Value {
				t.Fatalf("DelNCCLVar changed %q", k)
			}
		}
	})
}

// FuzzSetLinkMTU: SetLinkMTU fails exactly where it must, with a located
// error, and otherwise changes only the digits of the interface's mtu.
func FuzzSetLinkMTU(f *testing.F) {
	for _, s := range []string{ipLinkCompact, ipLinkPretty, "[]", `[{"ifname":"x","mtu":1500,"min_mtu":68,"max_mtu":9978,"operstate":"UP"}]`} {
		f.Add([]byte(s), "ens1f0np0", 9000)
		f.Add([]byte(s), "x", 10000)
	}
	addFileSeeds(f, "../../examples/*/devices/*/ip-link.json", "ens1f1np1", 9000)
	f.Fuzz(func(t *testing.T, data []byte, ifname string, mtu int) {
		links, perr := ParseIPLink(ipLinkFile, data)
		out, err := SetLinkMTU(data, ifname, mtu)
		if err != nil {
			var se *source.Error
			if !errors.As(err, &se) || se.File != ipLinkFile || se.Line < 1 {
				t.Fatalf("error %v: want a *source.Error at %s:line", err, ipLinkFile)
			}
			if perr == nil && mtu >= 0 && mtu < 1<<31 && hasLink(links, ifname) && !bytes.Contains([]byte(se.Msg), []byte("_mtu")) {
				t.Fatalf("valid edit refused: %v", err)
			}
			return
		}
		if perr != nil || !hasLink(links, ifname) {
			t.Fatalf("no error for %q in a document ParseIPLink says %v", ifname, perr)
		}
		after, err := ParseIPLink(ipLinkFile, out)
		if err != nil {
			t.Fatalf("edited document does not parse: %v", err)
		}
		for i, l := range after {
			want := links[i]
			if want.Name == ifname {
				want.MTU = mtu
			}
			if l != want {
				t.Fatalf("got %+v, want %+v", l, want)
			}
		}
		if !bytes.Equal(stripDigits(out), stripDigits(data)) {
			t.Fatalf("more than the mtu changed:\n%q\n%q", data, out)
		}
	})
}

func hasLink(links []Link, name string) bool {
	for _, l := range links {
		if l.Name == name {
			return true
		}
	}
	return false
}

func stripDigits(b []byte) []byte {
	return bytes.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, b)
}
