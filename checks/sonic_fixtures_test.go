package checks

import (
	"encoding/json"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/internal/fixture"
)

// The SONiC pod (examples/sonic-pod) as a base the checks' table cases
// edit: onSONiC replaces the clean pod with it, configDB edits a switch's
// config_db.json as JSON.

const sonicPod = "../examples/sonic-pod"

var sonicFS fstest.MapFS

// onSONiC must be a case's first edit.
func onSONiC() edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		t.Helper()
		if sonicFS == nil {
			// The pod's hosts are clean-pod's, by symbolic link:
			// fixture.Copy writes each as a copy of its target.
			dir := t.TempDir()
			fixture.Copy(t, sonicPod, dir)
			sonicFS = fstest.MapFS{}
			err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				data, err := fs.ReadFile(os.DirFS(dir), p)
				sonicFS[p] = &fstest.MapFile{Data: data}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		for k := range fsys {
			delete(fsys, k)
		}
		for k, v := range sonicFS {
			fsys[k] = &fstest.MapFile{Data: v.Data}
		}
	}
}

// configDB edits the config_db.json of switch sw.
func configDB(sw string, change func(db map[string]map[string]map[string]any)) edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		t.Helper()
		file := dev(sw, "config_db.json")
		f, ok := fsys[file]
		if !ok {
			t.Fatalf("no file %s (onSONiC first)", file)
		}
		var db map[string]map[string]map[string]any
		if err := json.Unmarshal(f.Data, &db); err != nil {
			t.Fatal(err)
		}
		change(db)
		data, err := json.MarshalIndent(db, "", "    ")
		if err != nil {
			t.Fatal(err)
		}
		fsys[file] = &fstest.MapFile{Data: data}
	}
}
