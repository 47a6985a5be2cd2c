package sonicmodel

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"testing"
	"unsafe"

	"github.com/qoslint/qoslint/collectors/sonic/configdb"
)

// TestModelKeepsNoTextOfTheFile: configdb.ParseOwned cuts its strings from
// the file's own buffer, so a model string that is one of them keeps the
// whole config_db.json alive (at 32 ports, 67 kB of a switch's 118 kB in
// use; a Cumulus switch's model is 14 kB). The model keeps copies: no
// string reachable from it points into the buffer.
func TestModelKeepsNoTextOfTheFile(t *testing.T) {
	for _, file := range []string{"../../../examples/sonic-pod/devices/leaf01/config_db.json", "testdata/sn5600-acs-t1.json", dynamicSample, tradSample} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := configdb.ParseOwned("config_db.json", data)
			if err != nil {
				t.Fatal(err)
			}
			sw, problems := Switch("leaf01", "leaf", cfg, nil)
			lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
			hi := lo + uintptr(len(data))
			in := func(s string) bool {
				p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
				return len(s) > 0 && p >= lo && p < hi
			}
			bad := map[string]bool{}
			seen := map[uintptr]bool{}
			var walk func(path string, v reflect.Value)
			walk = func(path string, v reflect.Value) {
				switch v.Kind() {
				case reflect.String:
					if in(v.String()) {
						bad[path] = true
					}
				case reflect.Pointer, reflect.Interface:
					if v.IsNil() {
						return
					}
					if v.Kind() == reflect.Pointer {
						if seen[v.Pointer()] {
							return
						}
						seen[v.Pointer()] = true
					}
					walk(path, v.Elem())
				case reflect.Struct:
					for i := range v.NumField() {
						walk(path+"."+v.Type().Field(i).Name, v.Field(i))
					}
				case reflect.Slice, reflect.Array:
					for i := range v.Len() {
						walk(path+"[]", v.Index(i))
					}
				case reflect.Map:
					it := v.MapRange()
					for it.Next() {
						walk(path+"{key}", it.Key())
						walk(path+"{}", it.Value())
					}
				}
			}
			walk("Switch", reflect.ValueOf(sw))
			for i, p := range problems {
				walk(fmt.Sprintf("problems[%d]", i), reflect.ValueOf(p))
			}
			var paths []string
			for p := range bad {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			for _, p := range paths {
				t.Errorf("%s points into the file's text", p)
			}
		})
	}
}

// TestModelOutlivesItsBuffer: Release gives a Config of ParseOwned's
// buffer back for the next file's reading (filebuf), so the model, its
// problems and the file's notes must be what they were once the buffer
// holds another file: equal to those of a parse of a copy, which nothing
// overwrites.
func TestModelOutlivesItsBuffer(t *testing.T) {
	for _, file := range []string{"../../../examples/sonic-pod/devices/leaf01/config_db.json", "testdata/sn5600-acs-t1.json", dynamicSample, tradSample} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := configdb.Parse("config_db.json", data)
			if err != nil {
				t.Fatal(err)
			}
			wantSw, wantProblems := Switch("leaf01", "leaf", cfg, nil)
			owned := slices.Clone(data)
			cfg, err = configdb.ParseOwned("config_db.json", owned)
			if err != nil {
				t.Fatal(err)
			}
			sw, problems := Switch("leaf01", "leaf", cfg, nil)
			notes := cfg.Notes
			cfg.Release()
			// The next file read into the buffer.
			full := owned[:cap(owned)]
			for i := range full {
				full[i] = 'x'
			}
			if !reflect.DeepEqual(sw, wantSw) {
				t.Error("the model changed with its buffer")
			}
			if !reflect.DeepEqual(problems, wantProblems) {
				t.Error("the problems changed with the buffer")
			}
			want, _ := configdb.Parse("config_db.json", data)
			if !reflect.DeepEqual(notes, want.Notes) {
				t.Error("the notes changed with the buffer")
			}
		})
	}
}
