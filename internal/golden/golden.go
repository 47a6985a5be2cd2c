// Package golden compares test output with files under testdata/ and
// rewrites them when the test runs with -update, or with
// QOSLINT_UPDATE_GOLDEN=1 in the environment. The variable is the form for
// `go test ./...`: a flag fails in every package that does not define it,
// while go test keys its cache on the variables a test reads. Only tests
// import it.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Check compares got with testdata/name, or writes it there with -update.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run the test with -update and review git diff\n--- got ---\n%s", name, got)
	}
}

// Updating reports whether the run rewrites golden files.
func Updating() bool { return *update || os.Getenv("QOSLINT_UPDATE_GOLDEN") == "1" }
