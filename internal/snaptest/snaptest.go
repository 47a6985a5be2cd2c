// Package snaptest holds what the tests of model/snapshot, checks/drift and
// render/driftfmt share: taking a snapshot of a fabric directory the way
// `qoslint snapshot` does, writing it, and validating a document against
// the embedded schemas strictly. Only tests import it.
package snaptest

import (
	"bytes"
	"github.com/qoslint/qoslint/collectors/fabric"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model/snapshot"
)

// Take snapshots a fabric directory the way `qoslint snapshot` does.
func Take(t testing.TB, dir string) *snapshot.Snapshot {
	t.Helper()
	inv, err := inventory.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := offline.Collect(dir, inv)
	s := snapshot.Take(fabric.Build(inv, c))
	s.AddInputErrors(c.Errors)
	return s
}

// Write is snapshot.Write into a byte slice.
func Write(t testing.TB, s *snapshot.Snapshot) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := snapshot.Write(&b, s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Validate checks a document against an embedded schema, and against a
// strict copy of it where no object takes properties it does not list, so
// that every field written is documented.
func Validate(t testing.TB, schemaFile string, data []byte) {
	t.Helper()
	if line, err := snapshot.Validate(schemaFile, data); err != nil {
		t.Fatalf("%s: line %d: %v", schemaFile, line, err)
	}
	if err := validateStrict(schemaFile, data); err != nil {
		t.Fatalf("%s (strict): %v", schemaFile, err)
	}
}

// IDs are the schemas' $id, as Validate registers them.
var IDs = map[string]string{
	snapshot.SnapshotSchemaFile: "https://github.com/qoslint/qoslint/snapshot/schema/snapshot.schema.json",
	snapshot.DriftSchemaFile:    "https://github.com/qoslint/qoslint/snapshot/schema/drift.schema.json",
}

// validateStrict validates against copies of both schemas in which every
// object schema that lists properties refuses others: a field Write emits
// but the schema does not document fails here.
func validateStrict(schemaFile string, data []byte) error {
	c := jsonschema.NewCompiler()
	for name, id := range IDs {
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
	sch, err := c.Compile(IDs[schemaFile])
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
