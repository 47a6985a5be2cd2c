package hostfiles

import (
	"bytes"
	"strings"
	"testing"
)

func FuzzParseNCCLEnv(f *testing.F) {
	addTestdataSeeds(f, "nccl_env")
	for _, s := range []string{
		"",
		"NCCL_IB_TC=106\n",
		"HOME=/root\x00NCCL_IB_TC=104\x00",
		"A=1\nB=two\nlines\nNCCL_IB_TC=\"106\"\nNCCL_IB_TC=1\n",
		"export NCCL_IB_TC=106\n",
		"junk\x00\x00",
		"=x\nNCCL_X\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseNCCLEnv(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		if e.NUL != (bytes.IndexByte(data, 0) >= 0) {
			t.Fatalf("NUL = %v for %q", e.NUL, data)
		}
		sep := "\n"
		if e.NUL {
			sep = "\x00"
		}
		entries := strings.Split(string(data), sep)
		for k, v := range e.Vars {
			// Every variable starts on its own entry, name first; a
			// value is never invented.
			if k == "" || strings.Contains(k, "=") || v.Line < 1 || v.Line > len(entries) {
				t.Fatalf("bad var %q %+v", k, v)
			}
			if !strings.HasPrefix(entries[v.Line-1], k+"=") || !strings.Contains(string(data), v.Value) {
				t.Fatalf("var %q %+v is not at entry %d %q", k, v, v.Line, entries[v.Line-1])
			}
		}
		for _, n := range e.Notes {
			if n.Line < 1 || n.Line > len(entries) || n.Msg == "" {
				t.Fatalf("bad note %+v", n)
			}
		}
	})
}
