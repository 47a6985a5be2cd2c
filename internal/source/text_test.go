package source

import "testing"

func TestInvalidUTF8(t *testing.T) {
	for _, tc := range []struct {
		in        string
		line, col int
	}{
		{"", 0, 0},
		{"a\nb\n", 0, 0},
		{"caf\u00e9\n", 0, 0},
		{"a\nb\ncaf\xe9\n", 3, 4},
		{"\xff", 1, 1},
		{"ok\r\n\xc3", 2, 1},        // a truncated sequence at the end
		{"x: \xed\xa0\x80\n", 1, 4}, // a surrogate is not UTF-8
	} {
		line, col, _ := InvalidUTF8([]byte(tc.in))
		if line != tc.line || col != tc.col {
			t.Errorf("InvalidUTF8(%q) = %d:%d, want %d:%d", tc.in, line, col, tc.line, tc.col)
		}
	}
}

func TestStripBOM(t *testing.T) {
	for in, want := range map[string]string{"\ufeffa": "a", "a": "a", "\ufeff": "", "a\ufeff": "a\ufeff", "\ufeff\ufeffa": "\ufeffa"} {
		if got := string(StripBOM([]byte(in))); got != want {
			t.Errorf("StripBOM(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckUTF8(t *testing.T) {
	if e := CheckUTF8("f.yaml", []byte("a: 1\nb: caf\xe9\n"), "YAML"); e == nil || e.Line != 2 || e.File != "f.yaml" {
		t.Fatalf("CheckUTF8 = %v, want an error at f.yaml:2", e)
	}
	if e := CheckUTF8("f.yaml", []byte("a: caf\u00e9\n"), "YAML"); e != nil {
		t.Fatalf("CheckUTF8 of UTF-8 = %v", e)
	}
}
