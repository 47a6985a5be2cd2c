package fabric

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
)

// TestBuilderEqualsBuild: devices built as they are read, their captures
// trimmed to what the cross-device steps read, give the fabric Build gives
// from the whole capture (audit builds from the whole capture, and must
// equal lint of it), and the same input errors, notes and files read.
func TestBuilderEqualsBuild(t *testing.T) {
	dirs, err := filepath.Glob("../../examples/*/inventory.*")
	if err != nil || len(dirs) < 5 {
		t.Fatalf("examples: %v, %d found", err, len(dirs))
	}
	for _, file := range dirs {
		dir := filepath.Dir(file)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			inv, err := inventory.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			whole := offline.Collect(dir, inv)
			want := Build(inv, whole)
			b := NewBuilder(inv)
			trimmed := offline.CollectTo(dir, inv, b)
			got := b.Build(trimmed)
			if len(got.Switches)+len(got.Hosts) == 0 {
				t.Fatal("no device built")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("fabric built as read differs from Build of the whole capture")
			}
			for what, pair := range map[string][2]any{
				"errors": {trimmed.Errors, whole.Errors}, "notes": {trimmed.Notes, whole.Notes}, "read": {trimmed.Read, whole.Read},
			} {
				if !reflect.DeepEqual(pair[0], pair[1]) {
					t.Errorf("%s differ", what)
				}
			}
		})
	}
}
