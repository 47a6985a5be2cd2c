package nvuemodel

import (
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// outsideConfig checks swp1-2 (the inventory's ports) and configures
// others that RoCE NICs may plug into. Mapping profiles m1 and m2 set a
// trust NVUE refuses: swp2 (checked) binds m1, so the switch's build
// reports m1's; swp3 binds m1 and swp4 m2, both with a pfc profile that
// is not defined; swp8 binds m2 alone. swp5 sets an MTU NVUE refuses;
// bond1 bonds swp6-7; vlan10 is an SVI.
const outsideConfig = `nv set interface swp1-8 type swp
nv set interface bond1 bond member swp6-7
nv set interface vlan10 type svi
nv set qos roce mode lossless
nv set qos mapping m1 trust bad
nv set qos mapping m2 trust bad
nv set interface swp2 qos mapping profile m1
nv set interface swp3-4 qos pfc profile nopfc
nv set interface swp3 qos mapping profile m1
nv set interface swp4 qos mapping profile m2
nv set interface swp8 qos mapping profile m2
nv set interface swp5 link mtu 99999
nv set interface bond1 link mtu 9000
`

// The switch keeps, once built, what AddPort gives the ports outside the
// checked ones, without the configuration's tree: the same ports, QoS,
// MTUs and problems as the builder, call after call; the first port given
// a QoS reports its problems, and a problem reported once is not reported
// again (as the builder's boundQoS deduplicates them).
func TestKeepOutsidePortsAsBuilder(t *testing.T) {
	calls := []string{"swp3", "swp3", "swp4", "swp8", "swp5", "swp6", "bond1", "swp7", "swp9", "vlan10", "swp1", "bond9", "swp2.10"}
	build := func() *model.Switch {
		cfg, errs, _ := nvue.ParseCommands("nv-config-commands.txt", []byte(outsideConfig))
		if len(errs) > 0 {
			t.Fatal(errs[0])
		}
		sw, _ := Switch("leaf01", "leaf", cfg, nil, []string{"swp1-2"})
		return sw
	}
	builder, kept := build(), build()
	KeepOutsidePorts(kept)
	if _, ok := kept.ConfigPorts().(*outsidePorts); !ok {
		t.Fatal("the built switch keeps its builder, and with it the configuration's tree")
	}
	if got, want := kept.ConfigInterfaces(), builder.ConfigInterfaces(); !reflect.DeepEqual(got, want) {
		t.Errorf("interfaces %v, the builder's %v", got, want)
	}
	var reported []string
	for _, iface := range calls {
		wantPort, wantPs := builder.ConfigPorts().AddPort(builder, iface)
		gotPort, gotPs := kept.ConfigPorts().AddPort(kept, iface)
		if gotPort != wantPort || !reflect.DeepEqual(texts(gotPs), texts(wantPs)) {
			t.Errorf("AddPort(%s) = %q %q, the builder's %q %q", iface, gotPort, texts(gotPs), wantPort, texts(wantPs))
		}
		reported = append(reported, texts(gotPs)...)
	}
	for _, m := range []struct {
		name      string
		got, want any
	}{{"PortQoS", kept.PortQoS, builder.PortQoS}, {"MTU", kept.MTU, builder.MTU}, {"Outside", kept.Outside, builder.Outside}} {
		if !reflect.DeepEqual(m.got, m.want) {
			t.Errorf("%s differs from the builder's:\n%v\n%v", m.name, m.got, m.want)
		}
	}
	// What the calls exercise: swp3's QoS reports its undefined profile
	// but not m1's trust (the switch's), swp4's m2's trust and the profile
	// again (boundQoS adds it to each QoS it builds), swp8's nothing (m2's
	// trust was reported).
	want := []string{
		`nv-config-commands.txt:8: qos pfc profile "nopfc" is bound but not defined`,
		`nv-config-commands.txt:6: trust "bad": NVUE accepts l2, l3, port or both`,
		`nv-config-commands.txt:8: qos pfc profile "nopfc" is bound but not defined`,
	}
	if !reflect.DeepEqual(reported, want) {
		t.Errorf("problems reported:\n%s\nwant:\n%s", strings.Join(reported, "\n"), strings.Join(want, "\n"))
	}
	if kept.MTU.At("swp5").V != 9216 || kept.MTU.At("bond1").V != 9000 || kept.PortQoS.At("swp9") != kept.Global {
		t.Errorf("swp5 MTU %v (want the default), bond1 %v, swp9's QoS the global one: %v", kept.MTU.At("swp5"), kept.MTU.At("bond1"), kept.PortQoS.At("swp9") == kept.Global)
	}
}

func texts(ps []*source.Error) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Error())
	}
	return out
}
