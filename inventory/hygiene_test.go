package inventory

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestInputHygiene: a byte order mark changes nothing, and a byte that is
// not UTF-8 is an error at its own line, in YAML and in HCL.
func TestInputHygiene(t *testing.T) {
	for _, f := range []string{"../examples/broken-pod/inventory.yaml", "../examples/clean-pod/inventory.hcl"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		want, err := Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Parse(name, append([]byte("\ufeff"), data...)); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s with a byte order mark: %v", f, err)
		}
		bad := append(append([]byte{}, data...), []byte("\n# caf\xe9\n")...)
		lines := 1
		for _, b := range data {
			if b == '\n' {
				lines++
			}
		}
		_, err = Parse(name, bad)
		errs, ok := err.(Errors)
		if !ok || len(errs) != 1 || errs[0].Line != lines+1 || errs[0].File != name {
			t.Errorf("%s with Latin-1 at line %d: %v", f, lines+1, err)
		}
	}
}
