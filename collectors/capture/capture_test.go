package capture

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// strictSchema compiles the schema with every object that lists
// properties closed: a field Marshal writes but the schema does not
// document fails.
func strictSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON()))
	if err != nil {
		t.Fatal(err)
	}
	closeObjects(doc)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(schemaID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func closeObjects(v any) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["properties"]; ok {
			x["additionalProperties"] = false
		}
		for k, c := range x {
			// An "if" only tests a property; closing it would change
			// which branch applies.
			if k != "if" {
				closeObjects(c)
			}
		}
	case []any:
		for _, c := range x {
			closeObjects(c)
		}
	}
}

func sample() *Manifest {
	t0 := time.Date(2025, 6, 2, 11, 14, 3, 0, time.FixedZone("CEST", 2*3600))
	return &Manifest{
		Schema: Schema, Version: "(devel)",
		Started: Timestamp(t0), Finished: Timestamp(t0.Add(38 * time.Second)),
		Devices: []Device{
			{Name: "leaf01", Kind: "switch", Status: StatusComplete, Notes: []string{"b note", "a note"}, Files: []Entry{
				NewEntry("devices/leaf01/nv-show-qos-roce.txt", "nv show qos roce", []byte("show\n")),
				NewEntry("devices/leaf01/nv-config.yaml", "nv config show -o yaml", []byte("- set: {}\n")),
			}},
			{Name: "gpu02", Kind: "host", Status: StatusFailed, Cause: "authentication failed"},
		},
	}
}

// Marshal sorts devices, files and notes, writes UTC RFC 3339 and a
// document the strict schema accepts; Parse reads it back.
func TestMarshalParse(t *testing.T) {
	data, err := sample().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := strictSchema(t).Validate(inst); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	text := string(data)
	for _, want := range []string{`"started": "2025-06-02T09:14:03Z"`, `"finished": "2025-06-02T09:14:41Z"`, `"files": []`} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %s:\n%s", want, text)
		}
	}
	if strings.Index(text, "gpu02") > strings.Index(text, "leaf01") ||
		strings.Index(text, "nv-config.yaml") > strings.Index(text, "nv-show-qos-roce.txt") ||
		strings.Index(text, "a note") > strings.Index(text, "b note") {
		t.Errorf("not sorted:\n%s", text)
	}
	again, _ := sample().Marshal()
	if !bytes.Equal(data, again) {
		t.Error("not deterministic")
	}
	p, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	// The hash is sha256sum's of "- set: {}\n".
	if got := p.Devices[1].Files[0]; len(p.Devices) != 2 || got.Path != "devices/leaf01/nv-config.yaml" || got.Size != 10 ||
		got.SHA256 != "c95f522ad261e6354325c998f325b6d4c29b28bbbbb6e69196175331641b599a" || got.Command != "nv config show -o yaml" {
		t.Errorf("%+v", p.Devices)
	}
}

// A malformed manifest is an error at its line.
func TestParseErrors(t *testing.T) {
	good, _ := sample().Marshal()
	lines := strings.Split(string(good), "\n")
	lineOf := func(sub string) int {
		for i, l := range lines {
			if strings.Contains(l, sub) {
				return i + 1
			}
		}
		t.Fatalf("no %q", sub)
		return 0
	}
	replace := func(old, new string) []byte { return []byte(strings.Replace(string(good), old, new, 1)) }
	for _, tc := range []struct {
		name string
		data []byte
		line int
		msg  string
	}{
		{"not JSON", replace(`"interrupted": false,`, `"interrupted": false`), lineOf(`"devices"`), "not JSON"},
		{"wrong schema", replace(Schema, "qoslint.capture/v9"), lineOf(`"schema"`), "qoslint.capture/v1"},
		{"bad status", replace(`"status": "failed"`, `"status": "broken"`), lineOf(`"status": "failed"`), "not a qoslint.capture/v1 manifest"},
		{"bad hash", replace(`"sha256": "`, `"sha256": "XYZ`), lineOf(`"sha256"`), "sha256"},
		{"failed without cause", replace(`"cause": "authentication failed",`, ``), lineOf(`"name": "gpu02"`) - 1, "cause"},
		{"complete with cause", replace(`"status": "complete",`, `"status": "complete", "cause": "x",`), lineOf(`"name": "leaf01"`) - 1, "not"},
		{"file of another device", replace(`devices/leaf01/nv-config.yaml`, `devices/gpu02/nv-config.yaml`), lineOf(`devices/leaf01/nv-config.yaml`), "not a file below devices/leaf01/"},
		{"path escapes", replace(`devices/leaf01/nv-config.yaml`, `devices/leaf01/../gpu02/x`), lineOf(`devices/leaf01/nv-config.yaml`), "not a file below"},
		{"file twice", replace(`devices/leaf01/nv-show-qos-roce.txt`, `devices/leaf01/nv-config.yaml`), lineOf(`devices/leaf01/nv-show-qos-roce.txt`), "listed twice"},
		{"device twice", replace(`"name": "gpu02"`, `"name": "leaf01"`), lineOf(`"name": "leaf01"`), "listed twice"},
		{"not UTC", replace(`09:14:03Z`, `11:14:03+02:00`), lineOf(`"started"`), "not a qoslint.capture/v1 manifest"},
		{"not a time", replace(`2025-06-02T09:14:41Z`, `2025-06-02 T9Z`), lineOf(`"finished"`), "date-time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.data)
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *source.Error", err)
			}
			if se.File != layout.CaptureFile || se.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("got %s:%d %q, want line %d containing %q", se.File, se.Line, se.Msg, tc.line, tc.msg)
			}
		})
	}
}

// fabric is a capture of sample() on disk, with its manifest.
func fabric(t *testing.T) fstest.MapFS {
	t.Helper()
	data, err := sample().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{
		layout.CaptureFile:                     {Data: data},
		"devices/leaf01/nv-config.yaml":        {Data: []byte("- set: {}\n")},
		"devices/leaf01/nv-show-qos-roce.txt":  {Data: []byte("show\n")},
		"devices/leaf02/nv-config.yaml":        {Data: []byte("- set: {}\n")},
		"devices/leaf02/nv-show-qos-roce.txt":  {Data: []byte("show\n")},
		"devices/gpu02/ibdev2netdev.txt":       {Data: []byte("left from an older capture\n")},
		"devices/stray/nv-show-qos-roce.txt":   {Data: []byte("not an inventory device\n")},
		"devices/leaf01/sysfs/README":          {Data: []byte("nothing\n")},
		"inventory.yaml":                       {Data: []byte("not checked here\n")},
		".qoslint/notes.txt":                   {Data: []byte("not a device file\n")},
		"devices/leaf01/nv-config.yaml.orig/x": {Data: []byte("extra, nested\n")},
		// Packet captures the operator copied in after the collection:
		// the manifest does not vouch for them, nor call them added.
		"devices/leaf01/captures/span.pcap": {Data: []byte("copied in later\n")},
	}
}

func errorTexts(es []*source.Error) string {
	var out []string
	for _, e := range es {
		out = append(out, e.Error())
	}
	return strings.Join(out, "\n")
}

func TestVerify(t *testing.T) {
	fsys := fabric(t)
	fsys["devices/leaf01/nv-show-qos-roce.txt"] = &fstest.MapFile{Data: []byte("shoW\n")}
	v := Verify(fsys, []string{"leaf01", "leaf02", "gpu02"})
	if !v.Present || !v.Skip["gpu02"] || v.Skip["leaf01"] || v.Skip["leaf02"] {
		t.Errorf("present %v skip %v", v.Present, v.Skip)
	}
	got := errorTexts(v.Errors)
	for _, want := range []string{
		"gpu02: .qoslint/capture.json:11: not collected: authentication failed; the device is not checked",
		"leaf01: devices/leaf01/nv-show-qos-roce.txt: changed since it was collected: 5 bytes, sha256 ",
		"; the capture manifest (.qoslint/capture.json:30) says 5 bytes, sha256 ",
		"leaf01: devices/leaf01/nv-config.yaml.orig/x: not in the capture manifest",
		"leaf01: devices/leaf01/sysfs/README: not in the capture manifest",
		"leaf02: .qoslint/capture.json: the capture manifest has no entry for this device",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if n := len(v.Errors); n != 5 {
		t.Errorf("%d errors:\n%s", n, got)
	}

	delete(fsys, "devices/leaf01/nv-config.yaml")
	got = errorTexts(Verify(fsys, []string{"leaf01"}).Errors)
	if !strings.Contains(got, "leaf01: devices/leaf01/nv-config.yaml: missing: the capture manifest (.qoslint/capture.json:24) lists it, from `nv config show -o yaml`") {
		t.Errorf("missing file not named:\n%s", got)
	}

	// The untouched capture verifies clean; without a manifest nothing is said.
	clean := fabric(t)
	delete(clean, "devices/leaf01/sysfs/README")
	delete(clean, "devices/leaf01/nv-config.yaml.orig/x")
	if v := Verify(clean, []string{"leaf01"}); len(v.Errors) != 0 {
		t.Errorf("clean capture: %s", errorTexts(v.Errors))
	}
	delete(clean, layout.CaptureFile)
	if v := Verify(clean, []string{"leaf01", "gpu02"}); v.Present || len(v.Errors) != 0 || len(v.Skip) != 0 {
		t.Errorf("no manifest: %+v", v)
	}
}

// An interrupted collection never verifies; a malformed manifest is one
// error and skips nothing.
func TestVerifyInterruptedAndMalformed(t *testing.T) {
	m := sample()
	m.Interrupted = true
	data, _ := m.Marshal()
	fsys := fabric(t)
	fsys[layout.CaptureFile] = &fstest.MapFile{Data: data}
	got := errorTexts(Verify(fsys, nil).Errors)
	if got != ".qoslint/capture.json:6: the collection was interrupted (Ctrl-C, SIGTERM or a deadline): collect again" {
		t.Errorf("%s", got)
	}
	fsys[layout.CaptureFile] = &fstest.MapFile{Data: []byte("{\n  \"schema\": \"qoslint.capture/v1\",\n  \"devices\": 7\n}\n")}
	v := Verify(fsys, []string{"gpu02"})
	if len(v.Errors) != 1 || len(v.Skip) != 0 || !v.Present || v.Errors[0].File != layout.CaptureFile || v.Errors[0].Line < 1 {
		t.Errorf("%+v %s", v, errorTexts(v.Errors))
	}
}

func TestStatusAndVersion(t *testing.T) {
	for _, tc := range []struct {
		err   string
		files int
		want  string
	}{{"", 0, StatusComplete}, {"", 3, StatusComplete}, {"x", 2, StatusPartial}, {"x", 0, StatusFailed}} {
		if got := Status(tc.err, tc.files); got != tc.want {
			t.Errorf("Status(%q, %d) = %s", tc.err, tc.files, got)
		}
	}
	var v map[string]any
	if err := json.Unmarshal(SchemaJSON(), &v); err != nil || v["title"] != Schema {
		t.Errorf("schema title %v: %v", v["title"], err)
	}
}
