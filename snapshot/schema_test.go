package snapshot_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/qoslint/qoslint/snapshot"
)

var ids = map[string]string{
	snapshot.SnapshotSchemaFile: "https://github.com/qoslint/qoslint/snapshot/schema/snapshot.schema.json",
	snapshot.DriftSchemaFile:    "https://github.com/qoslint/qoslint/snapshot/schema/drift.schema.json",
}

// validateStrict validates against copies of both schemas in which every
// object schema that lists properties refuses others: a field Write emits
// but the schema does not document fails here.
func validateStrict(schemaFile string, data []byte) error {
	c := jsonschema.NewCompiler()
	for name, id := range ids {
		raw, err := snapshot.SchemaJSON(name)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		strict(doc)
		if err := c.AddResource(id, doc); err != nil {
			return err
		}
	}
	sch, err := c.Compile(ids[schemaFile])
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

func strict(v any) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["properties"]; ok {
			if _, set := x["additionalProperties"]; !set {
				x["additionalProperties"] = false
			}
		}
		for _, c := range x {
			strict(c)
		}
	case []any:
		for _, c := range x {
			strict(c)
		}
	}
}

// TestSchemas: both schemas are valid 2020-12 schemas whose $id is the one
// Validate registers them under, and they name the versions the code
// writes.
func TestSchemas(t *testing.T) {
	for name, id := range ids {
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
			want = snapshot.DriftVersion
		}
		if head.Title != want {
			t.Errorf("%s: title %q, want %q", name, head.Title, want)
		}
	}
	if _, err := snapshot.Validate(snapshot.SnapshotSchemaFile, []byte(`{"schema": "qoslint.snapshot/v1"}`)); err == nil {
		t.Error("a snapshot without its fields validates")
	}
}
