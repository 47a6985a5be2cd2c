package checks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
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
			sonicFS = fstest.MapFS{}
			// The pod's hosts are clean-pod's, by symbolic link: walk the
			// tree following them.
			var walk func(dir, rel string)
			walk = func(dir, rel string) {
				entries, err := os.ReadDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range entries {
					p, r := filepath.Join(dir, e.Name()), e.Name()
					if rel != "" {
						r = rel + "/" + e.Name()
					}
					st, err := os.Stat(p)
					if err != nil {
						t.Fatal(err)
					}
					if st.IsDir() {
						walk(p, r)
						continue
					}
					data, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					sonicFS[r] = &fstest.MapFile{Data: data}
				}
			}
			walk(sonicPod, "")
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
