package nvuemodel

import (
	"reflect"
	"sync"
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/model"
)

// Switches whose default-global no line changes share one QoS per RoCE
// mode and release, equal to the one each would build; ports bound to a
// mapping profile copy it and add their origins to lists of their own,
// from builders running side by side (go test -race). A switch that
// changes default-global builds its own.
func TestSharedGlobalQoS(t *testing.T) {
	const bound = `nv set interface swp1-4 type swp
nv set qos roce mode lossless
nv set qos mapping m1 trust l3
nv set qos mapping m1 dscp 10 switch-priority 3
nv set interface swp1 qos mapping profile m1
`
	build := func(src string) (*model.Switch, *switchBuilder) {
		cfg, errs, _ := nvue.ParseCommands("nv-config-commands.txt", []byte(src))
		if len(errs) > 0 {
			t.Error(errs[0])
			return nil, nil
		}
		sw, _ := Switch("leaf01", "leaf", cfg, nil, nil)
		b, _ := sw.ConfigPorts().(*switchBuilder)
		return sw, b
	}
	sws := make([]*model.Switch, 16)
	var wg sync.WaitGroup
	for i := range sws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sws[i], _ = build(bound)
		}()
	}
	wg.Wait()
	sw, b := build(bound)
	own := b.buildGlobalQoS(sw.RoCE, model.Release(sw.Version), b.qosRoot)
	for i, s := range sws {
		if s.Global != sw.Global {
			t.Fatalf("switch %d has a default-global of its own", i)
		}
		if q := s.PortQoS.At("swp1"); q == s.Global || q.DSCP.At(10).V != 3 || q.Trust.V != "l3" || s.PortQoS.At("swp2") != s.Global {
			t.Errorf("switch %d: swp1's QoS is not m1's, or swp2's not default-global", i)
		}
	}
	if !reflect.DeepEqual(own.DSCP.At(10), sw.Global.DSCP.At(10)) || own.Trust != sw.Global.Trust || own.PFC != sw.Global.PFC || own.CableLength != sw.Global.CableLength {
		t.Errorf("the shared default-global differs from a switch's own build")
	}
	changed, _ := build(bound + "nv set qos pfc default-global switch-priority 3\n")
	if changed.Global == sw.Global {
		t.Error("a switch that sets default-global shares the mode's")
	}
}
