package gnmifile_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

func FuzzParseCounters(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("..", "gnmi", "testdata", "leaf01-"+layout.GNMIFile))
	if err != nil {
		f.Fatal(err)
	}
	// A few lines of the collected file: the whole file makes every
	// minimisation slow without covering more code.
	lines := bytes.SplitAfter(golden, []byte("\n"))
	head := string(bytes.Join(lines[:4], nil))
	head = head[:len(head)-2] + "\n]\n" // drop the last ",\n"
	for _, s := range []string{
		mixed, head, "[]", "", "null", "[\n  " + queueNote(`{"intVal":"-1"}`) + "\n]",
		"[\n  " + queueNote(`{"jsonIetfVal":"IjQyIg=="}`) + "\n]",
		`[{"update":[{"path":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp1"}},{"name":"switch-priority","key":{"priority":"7"}},{"name":"state"}]},"val":{"jsonVal":"eyJjb3VudGVycyI6e319"}}]}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := gnmifile.ParseCounters(file, data)
		c2, err2 := gnmifile.ParseCounters(file, data)
		if (err == nil) != (err2 == nil) || !reflect.DeepEqual(c, c2) {
			t.Fatal("ParseCounters is not deterministic")
		}
		if err != nil {
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v is %T, not *source.Error", err, err)
			}
			lines := bytes.Count(data, []byte{'\n'}) + 1
			if se.File != file || se.Line < 1 || se.Line > lines {
				t.Fatalf("error position %s:%d outside the %d-line input: %v", se.File, se.Line, lines, err)
			}
			if err.Error() != err2.Error() {
				t.Fatalf("error text not deterministic: %v / %v", err, err2)
			}
			return
		}
		for k, v := range c.Queues {
			if k.Interface == "" || k.Interface == "*" || v.Pos.File != file || v.Pos.Line < 1 {
				t.Fatalf("bad queue entry %+v %+v", k, v)
			}
		}
		for k, v := range c.Priorities {
			if k.Priority < 0 || k.Priority > 7 || v.Pos.Line < 1 {
				t.Fatalf("bad priority entry %+v %+v", k, v)
			}
		}
	})
}
