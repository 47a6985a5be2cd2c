package waivers

import (
	"reflect"
	"testing"
)

// TestInputHygiene: a byte order mark changes nothing, and a byte that is
// not UTF-8 is an error at its own line (yaml.v3 alone says line 1).
func TestInputHygiene(t *testing.T) {
	const file = "waivers:\n  - check: host-tos\n    device: gpu01\n    reason: accepted until the rail is re-cabled\n    expires: 2099-01-01\n"
	want, err := Parse("w.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Parse("w.yaml", []byte("\ufeff"+file)); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("with a byte order mark: %v", err)
	}
	_, err = Parse("w.yaml", []byte("waivers:\n  - check: host-tos\n    device: gpu01\n    reason: caf\xe9\n"))
	errs, ok := err.(Errors)
	if !ok || len(errs) != 1 || errs[0].Line != 4 {
		t.Errorf("Latin-1 at line 4: %v", err)
	}
}
