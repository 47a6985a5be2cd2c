package examples

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExtract(t *testing.T) {
	for _, name := range Names() {
		root, err := Extract(name, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(name, "devices", "gpu01", "mlnx_qos-ens1f0np0.txt"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(root, "devices", "gpu01", "mlnx_qos-ens1f0np0.txt"))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: extracted file differs (%v)", name, err)
		}
	}
	if _, err := Extract("nope", t.TempDir()); err == nil {
		t.Error("unknown fabric extracted")
	}
}
