package capture

import (
	"errors"
	"testing"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// FuzzParse: any bytes give a manifest or a *source.Error in layout.CaptureFile at a
// line that exists, never a panic; an accepted manifest written back is
// accepted again.
func FuzzParse(f *testing.F) {
	good, _ := sample().Marshal()
	f.Add(good)
	f.Add([]byte(`{"schema":"qoslint.capture/v1","qoslint_version":"v1","started":"2025-01-01T00:00:00Z","finished":"2025-01-01T00:00:01Z","interrupted":true,"devices":[]}`))
	f.Add([]byte("{\n \"devices\": [\n  {\"name\": \"a\", \"files\": [{\"path\": \"devices/a/../b\"}]}\n ]\n}\n"))
	f.Add([]byte("\xef\xbb\xbf{}"))
	f.Add([]byte("[1, 2"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			var se *source.Error
			if !errors.As(err, &se) || se.File != layout.CaptureFile || se.Line < 0 || se.Line > 1+countLines(data) {
				t.Fatalf("error %v (%T) not at a line of %s", err, err, layout.CaptureFile)
			}
			return
		}
		again, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(again); err != nil {
			t.Fatalf("written back, the manifest is refused: %v\n%s", err, again)
		}
	})
}

func countLines(data []byte) int {
	n := 0
	for _, b := range data {
		if b == '\n' {
			n++
		}
	}
	return n
}
