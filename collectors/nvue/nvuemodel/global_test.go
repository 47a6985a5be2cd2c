package nvuemodel

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/model"
)

// TestGlobalIsDefaultBinding: the switch keeps globalQoS's QoS as Global
// rather than portQoS's copy of it with every feature bound to
// default-global; the two are equal on every example's NVUE
// configuration, and the ports bound to default-global share it.
func TestGlobalIsDefaultBinding(t *testing.T) {
	files, err := filepath.Glob("../../../examples/*/devices/*/nv-config.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example configuration: %v", err)
	}
	def := model.Defaulted(model.DefaultProfile, "no profile binding")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := nvue.ParseYAML(file, data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		sw, _ := Switch("sw", "leaf", cfg, nil, nil)
		b, ok := sw.ConfigPorts().(*switchBuilder)
		if !ok || sw.Global == nil {
			t.Fatalf("%s: no builder or no global QoS", file)
		}
		if q := b.portQoS(b.global, b.qosRoot, binding{def, def, def, def}); !reflect.DeepEqual(q, sw.Global) {
			t.Errorf("%s: the default-bound QoS differs from the global one", file)
		}
		for p, q := range sw.PortQoS.All() {
			if q.MappingProfile.V == model.DefaultProfile && q.PFCProfile.V == model.DefaultProfile &&
				q.ECNProfile.V == model.DefaultProfile && q.SchedProfile.V == model.DefaultProfile && q != sw.Global {
				t.Errorf("%s: %s is bound to default-global but has a QoS of its own", file, p)
			}
		}
	}
}
