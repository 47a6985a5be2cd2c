package schema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
	"github.com/qoslint/qoslint/render/schema"
)

func compile(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	data, err := schema.FS.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fabricDirs are every example fabric (each folder of examples/ with an
// inventory) and the render tests' fabrics with input errors and waivers.
func fabricDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, pattern := range []string{"../../examples/*/inventory.*", "../testdata/*/inventory.*"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	if len(dirs) < 9 {
		t.Fatalf("found only the fabrics %v", dirs)
	}
	return dirs
}

// Every JSON and SARIF output of the example fabrics validates against its
// schema, with and without --fix plans, and the SARIF also with its paths
// below a repository folder (--path-prefix).
func TestOutputsValidate(t *testing.T) {
	for format, name := range map[string]string{"json": schema.Report, "sarif": schema.SARIF} {
		s := compile(t, name)
		for _, dir := range fabricDirs(t) {
			for _, fix := range []bool{false, true} {
				r, err := app.BuildReport(dir, judge.Error)
				if err != nil {
					t.Fatal(err)
				}
				if fix {
					if r.Plans, err = render.Plans(r); err != nil {
						t.Fatal(err)
					}
					r.PathPrefix = "fabrics/pod a"
				}
				var b bytes.Buffer
				if err := render.Formatters()[format](&b, r); err != nil {
					t.Fatal(err)
				}
				doc, err := jsonschema.UnmarshalJSON(&b)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Validate(doc); err != nil {
					t.Errorf("%s of %s (fix %v) does not validate against %s:\n%v", format, dir, fix, name, err)
				}
			}
		}
	}
}

// The schema is not vacuous: a broken document fails.
func TestSchemaRejects(t *testing.T) {
	s := compile(t, schema.Report)
	for _, bad := range []string{
		`{}`,
		`{"schema":"qoslint.report/v2","fabric":"x","summary":{},"devices":[],"findings":[],"input_errors":[],"notes":[]}`,
	} {
		var doc any
		_ = json.Unmarshal([]byte(bad), &doc)
		if s.Validate(doc) == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	if compile(t, schema.SARIF).Validate(map[string]any{"version": "2.0.0", "runs": []any{}}) == nil {
		t.Error("SARIF schema accepted version 2.0.0")
	}
}

// The wire section with every part filled in (CNPs tagged and untagged,
// several ECN codepoints), as `qoslint pcap -f json` wrote it in
// cmd/qoslint/app's golden file, validates; a wire flow without its
// histograms does not.
func TestWireValidates(t *testing.T) {
	s := compile(t, schema.Report)
	data, err := os.ReadFile("../../cmd/qoslint/app/testdata/pcap-wire.json.golden")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("pcap-wire.json.golden does not validate:\n%v", err)
	}
	bad := doc.(map[string]any)
	flow := bad["wire"].(map[string]any)["captures"].([]any)[0].(map[string]any)["flows"].([]any)[0].(map[string]any)
	delete(flow, "dscp")
	if s.Validate(bad) == nil {
		t.Error("accepted a wire flow without dscp")
	}
}

// The report of a run that stopped before the model (the inventory did
// not parse) validates in json and SARIF: no devices, no findings, the
// input error at its file and line.
func TestNotJudgedValidates(t *testing.T) {
	for format, name := range map[string]string{"json": schema.Report, "sarif": schema.SARIF} {
		r := &render.Report{
			NotJudged: true, FailOn: judge.Error,
			Errors: []*source.Error{source.Errorf("inventory.hcl", 3, "Unsupported argument")},
			Run:    &render.RunInfo{Start: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)},
		}
		var b bytes.Buffer
		if err := render.Formatters()[format](&b, r); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		doc, err := jsonschema.UnmarshalJSON(&b)
		if err != nil {
			t.Fatal(err)
		}
		if err := compile(t, name).Validate(doc); err != nil {
			t.Errorf("%s of a run that read no inventory does not validate against %s:\n%v", format, name, err)
		}
	}
}

// A skipped check needs its skip kind and reason; a check that ran has no
// skip.
func TestSchemaCheckStatus(t *testing.T) {
	s := compile(t, schema.Report)
	doc := func(check string) any {
		var d any
		_ = json.Unmarshal([]byte(`{"schema":"qoslint.report/v1","fabric":"x","summary":{"devices":1,"findings":0,"input_errors":0,"by_severity":{"error":0,"warning":0,"info":0},"fail_on":"error","failed":false},
			"devices":[{"name":"gpu01","kind":"host","findings":0,"checks":[`+check+`]}],"findings":[],"input_errors":[],"notes":[]}`), &d)
		return d
	}
	for _, ok := range []string{
		`{"check":"host-trust","status":"ran","findings":0}`,
		`{"check":"ib-sl2vl","status":"skipped","findings":0,"skip":"not applicable","reason":"the fabric is Ethernet"}`,
	} {
		if err := s.Validate(doc(ok)); err != nil {
			t.Errorf("rejected %s: %v", ok, err)
		}
	}
	for _, bad := range []string{
		`{"check":"ib-sl2vl","status":"skipped","findings":0}`,
		`{"check":"ib-sl2vl","status":"skipped","findings":0,"skip":"maybe","reason":"x"}`,
		`{"check":"host-trust","status":"ran","findings":0,"skip":"disabled","reason":"x"}`,
		`{"check":"host-trust","status":"passed","findings":0}`,
	} {
		if s.Validate(doc(bad)) == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
