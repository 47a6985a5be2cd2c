package gcu

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/render"
)

// FuzzWrite: whatever configuration the parser accepts, every setting on
// its first ports gives a patch without panic, never a BUFFER_POOL path,
// and, on a nested file, one that applies (RFC 6902: a replaced member
// exists, an added one has its parent). Seeds: the parser's real files,
// the NVIDIA SKU renderings and sonic-pod's leaf.
//
//	go test -run XXX -fuzz FuzzWrite -fuzzminimizetime 50x ./templates/gcu
func FuzzWrite(f *testing.F) {
	files, _ := filepath.Glob("../../collectors/sonic/configdb/testdata/*.json")
	skus, _ := filepath.Glob("../../collectors/sonic/sonicmodel/testdata/sn*.json")
	files = append(files, skus...)
	files = append(files, "../../examples/sonic-pod/devices/leaf01/config_db.json")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(base))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := configdb.Parse("f.json", data)
		if err != nil {
			return
		}
		var ports []string
		if len(cfg.Namespaces) > 0 {
			ports = cfg.Namespaces[0].Table("PORT").Sorted()
		}
		if len(ports) > 3 {
			ports = ports[:3]
		}
		ports = append(ports, "Ethernet999")
		var p render.Plan
		for a := checks.DSCPPriority; a <= checks.LosslessPG; a++ {
			for _, on := range []bool{true, false} {
				s := checks.Setting{Aspect: a, Ports: ports, Key: 3, Value: 50, On: on, Field: "source-port"}
				p.Changes = append(p.Changes, checks.Change{Kind: checks.SwitchSetting, Set: &s})
			}
		}
		patch := Write(p, cfg)
		js, err := patch.JSON()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range patch.Ops {
			if len(o.Path) >= 12 && o.Path[:12] == "/BUFFER_POOL" {
				t.Fatalf("a BUFFER_POOL op: %+v", o)
			}
		}
		if cfg.Shape != configdb.Nested || len(patch.Ops) == 0 {
			return
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) != nil {
			return // duplicate-key or non-object shapes the parser reads and Go's decoder rejects
		}
		dp, err := jsonpatch.DecodePatch(js)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dp.Apply(data); err != nil {
			t.Fatalf("the patch does not apply: %v\n%s", err, js)
		}
	})
}
