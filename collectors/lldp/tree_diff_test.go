package lldp

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzTreeAsEncodingJSON: the jsontext tree reader gives the tree the
// encoding/json one gave (refParseTree), or the same error at the same
// line, for any input. Seeded with lldpcli's two forms (testdata/, from
// lldpd's tests/integration/test_lldpcli.py shapes) and the ways JSON
// goes wrong.
func FuzzTreeAsEncodingJSON(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		`{"lldp": [{}]}`, "{\n\"lldp\": [\n{,}\n]}", "[]\n]", "{\"a\":1}\n{\"b\":2}", "{\"a\": \"\\ud800\"}",
		"{\"a\":1,\"a\":2}", "{\"n\": -1.5e3, \"t\": true, \"f\": false, \"z\": null}", "{\"a\": [1, 2,]}",
		"{\"lldp\":\n", "\"x\"", "1", "{\"a\" 1}", "{\"a\":\"\\u00e9\\n\"}", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]", " \t\n{}\n\t ",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gotErr := parseTree("lldp.json", data)
		want, wantErr := refParseTree("lldp.json", data)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("error %v, encoding/json's %v", gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("tree differs from encoding/json's")
		}
	})
}

// BenchmarkParse reads a leaf's json0 neighbours (testdata/leaf-json0.json).
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("testdata/leaf-json0.json")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("lldp.json", data); err != nil {
			b.Fatal(err)
		}
	}
}
