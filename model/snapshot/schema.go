package snapshot

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The JSON Schemas are the contract of the two documents; they ship inside
// the binary so that Read validates with exactly the schema it documents.
//
//go:embed schema/snapshot.schema.json schema/drift.schema.json
var schemaFS embed.FS

// Schema file names inside schemaFS.
const (
	SnapshotSchemaFile = "schema/snapshot.schema.json"
	DriftSchemaFile    = "schema/drift.schema.json"
)

// SchemaJSON returns an embedded schema (SnapshotSchemaFile or
// DriftSchemaFile).
func SchemaJSON(name string) ([]byte, error) { return schemaFS.ReadFile(name) }

// schemaIDs are the schemas' $id.
var schemaIDs = map[string]string{
	SnapshotSchemaFile: "https://github.com/qoslint/qoslint/snapshot/schema/snapshot.schema.json",
	DriftSchemaFile:    "https://github.com/qoslint/qoslint/snapshot/schema/drift.schema.json",
}

var (
	compileOnce sync.Once
	compiled    map[string]*jsonschema.Schema
	compileErr  error
)

// compiledSchema compiles both schemas once. They are fixed at build time,
// so an error here is a bug the tests catch.
func compiledSchema(name string) (*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		compiled = map[string]*jsonschema.Schema{}
		c := jsonschema.NewCompiler()
		for _, n := range []string{SnapshotSchemaFile, DriftSchemaFile} {
			data, err := schemaFS.ReadFile(n)
			if err != nil {
				compileErr = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				compileErr = fmt.Errorf("%s: %w", n, err)
				return
			}
			// Registered under its own $id, so that drift's $ref to the
			// snapshot's policy resolves here and nothing is fetched.
			if err := c.AddResource(schemaIDs[n], doc); err != nil {
				compileErr = err
				return
			}
		}
		for _, n := range []string{SnapshotSchemaFile, DriftSchemaFile} {
			s, err := c.Compile(schemaIDs[n])
			if err != nil {
				compileErr = err
				return
			}
			compiled[n] = s
		}
	})
	return compiled[name], compileErr
}

// Validate checks a JSON document against one of the embedded schemas. The
// error names the first violation (in a deterministic order), its JSON
// location and the 1-based line it is on.
func Validate(name string, data []byte) (line int, err error) {
	sch, err := compiledSchema(name)
	if err != nil {
		return 0, err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return 0, err
	}
	err = sch.Validate(inst)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return 0, err
	}
	leaves := leafErrors(ve)
	// The validator walks objects in map order; sort so that the same bad
	// input always gives the same message.
	sort.SliceStable(leaves, func(i, j int) bool { return leaves[i].msg < leaves[j].msg })
	first := leaves[0]
	msg := first.msg
	if n := len(leaves) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return lineOf(data, first.loc), errors.New(msg)
}

type leaf struct {
	loc []string
	msg string
}

func leafErrors(e *jsonschema.ValidationError) []leaf {
	if len(e.Causes) == 0 {
		one := &jsonschema.ValidationError{InstanceLocation: e.InstanceLocation, ErrorKind: e.ErrorKind}
		return []leaf{{e.InstanceLocation, one.Error()}}
	}
	var out []leaf
	for _, c := range e.Causes {
		out = append(out, leafErrors(c)...)
	}
	return out
}

// lineOf finds the 1-based line of the value at a JSON location (object keys
// and array indexes), or of the deepest part of it that exists.
func lineOf(data []byte, loc []string) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	off := valueOffset(dec, data, loc)
	return 1 + bytes.Count(data[:min(off, len(data))], []byte("\n"))
}

// valueOffset reads the next value from dec and returns the offset where
// the value at loc inside it starts.
func valueOffset(dec *json.Decoder, data []byte, loc []string) int {
	start := skipSpace(data, int(dec.InputOffset()))
	tok, err := dec.Token()
	if err != nil || len(loc) == 0 {
		return start
	}
	d, ok := tok.(json.Delim)
	if !ok || (d != '{' && d != '[') {
		return start
	}
	for i := 0; dec.More(); i++ {
		match := false
		if d == '{' {
			k, err := dec.Token()
			if err != nil {
				return start
			}
			match = k == loc[0]
		} else {
			match = strconv.Itoa(i) == loc[0]
		}
		if match {
			return valueOffset(dec, data, loc[1:])
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return start
		}
	}
	return start
}

// skipSpace moves past whitespace and the separators the decoder does not
// report as tokens.
func skipSpace(data []byte, i int) int {
	for i < len(data) && strings.IndexByte(" \t\r\n,:", data[i]) >= 0 {
		i++
	}
	return i
}
