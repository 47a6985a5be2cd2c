package snapshot_test

import (
	"encoding/json"
	"testing"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/internal/snaptest"
	"github.com/qoslint/qoslint/model/snapshot"
)

// TestSchemas: both schemas are valid 2020-12 schemas whose $id is the one
// Validate registers them under, and they name the versions the code
// writes.
func TestSchemas(t *testing.T) {
	for name, id := range snaptest.IDs {
		raw, err := snapshot.SchemaJSON(name)
		if err != nil {
			t.Fatal(err)
		}
		var head struct {
			ID    string `json:"$id"`
			Title string `json:"title"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if head.ID != id {
			t.Errorf("%s: $id %q, want %q", name, head.ID, id)
		}
		want := snapshot.Version
		if name == snapshot.DriftSchemaFile {
			want = drift.DriftVersion
		}
		if head.Title != want {
			t.Errorf("%s: title %q, want %q", name, head.Title, want)
		}
	}
	if _, err := snapshot.Validate(snapshot.SnapshotSchemaFile, []byte(`{"schema": "qoslint.snapshot/v1"}`)); err == nil {
		t.Error("a snapshot without its fields validates")
	}
}
