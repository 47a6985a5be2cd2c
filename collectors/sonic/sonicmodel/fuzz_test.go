package sonicmodel

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/qoslint/qoslint/collectors/sonic/configdb"
)

// FuzzSwitch builds the model of any configuration Parse accepts: a
// hand-edited config_db.json (a table that is not what its name says, a
// reference to nothing, a range backwards) must give problems and notes,
// never a panic, since one switch's panic would end the whole lint.
// Seeds: every real file of configdb's testdata, the NVIDIA SKU renderings
// of testdata and sonic-pod's leaf.
func FuzzSwitch(f *testing.F) {
	seeds, _ := filepath.Glob("../configdb/testdata/*.json")
	skus, _ := filepath.Glob("testdata/sn*.json")
	seeds = append(seeds, skus...)
	seeds = append(seeds, "../../../examples/sonic-pod/devices/leaf01/config_db.json", portsSN5600)
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "")
	}
	f.Add([]byte(multiASIC), "Ethernet0-Ethernet8")
	f.Add([]byte(`{"PORT": {"Ethernet0": {"admin_status": "up"}}, "QUEUE": {"Ethernet0|4-3": {"scheduler": "[SCHEDULER|x]"}}, "BUFFER_PG": {"Ethernet0|9-12": {"profile": ""}}}`), "etp1a")
	f.Fuzz(func(t *testing.T, data []byte, ports string) {
		cfg, err := configdb.Parse("config_db.json", data)
		if err != nil {
			return
		}
		var want []string
		if ports != "" {
			want = []string{ports}
		}
		sw, _ := Switch("sw", "leaf", cfg, want)
		for _, p := range sw.Ports {
			if sw.PortQoS.At(p) == nil {
				t.Fatalf("port %s has no QoS", p)
			}
		}
		if sw.Global == nil || sw.Buffers == nil {
			t.Fatal("no global QoS or buffers")
		}
	})
}
