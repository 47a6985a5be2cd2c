package snapshot

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestIndentFlat(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1,"b":"x"}`, `{"a": 1, "b": "x"}`},
		{`{"value":[3],"origin":"f:1"}`, `{"value": [3], "origin": "f:1"}`},
		{`{"a":{"b":1},"c":[]}`, "{\n  \"a\": {\"b\": 1},\n  \"c\": []\n}"},
		{`[[1,2],[3]]`, "[\n  [1, 2],\n  [3]\n]"},
		{`{"s":"a,b:{c}[d]\"e\\"}`, `{"s": "a,b:{c}[d]\"e\\"}`},
		{`{"l":[{"x":1},{"y":2}]}`, "{\n  \"l\": [\n    {\"x\": 1},\n    {\"y\": 2}\n  ]\n}"},
	} {
		var b bytes.Buffer
		indentFlat(&b, []byte(tc.in))
		if b.String() != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.in, b.String(), tc.want)
		}
	}
	long := `{"message":"` + string(bytes.Repeat([]byte("x"), maxInline)) + `"}`
	var b bytes.Buffer
	indentFlat(&b, []byte(long))
	if !bytes.HasPrefix(b.Bytes(), []byte("{\n  ")) {
		t.Errorf("an object wider than %d stays on one line", maxInline)
	}
}

// FuzzIndentFlat: for any valid JSON, the indented form is valid JSON with
// the same content, and indenting is deterministic.
func FuzzIndentFlat(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"c"}],"d":{"e":[]}}`, `[]`, `"x"`, `{"s":"\u2192 \"q\" [x]"}`, `[[[[1]]],{"a":{"b":{"c":null}}}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var compact bytes.Buffer
		if json.Compact(&compact, data) != nil {
			return
		}
		var out bytes.Buffer
		indentFlat(&out, compact.Bytes())
		var again bytes.Buffer
		if err := json.Compact(&again, out.Bytes()); err != nil {
			t.Fatalf("indented output is not JSON: %v\n%s", err, out.Bytes())
		}
		if !bytes.Equal(again.Bytes(), compact.Bytes()) {
			t.Fatalf("content changed:\n%s\n%s", compact.Bytes(), again.Bytes())
		}
		var twice bytes.Buffer
		indentFlat(&twice, compact.Bytes())
		if !bytes.Equal(out.Bytes(), twice.Bytes()) {
			t.Fatal("not deterministic")
		}
	})
}
