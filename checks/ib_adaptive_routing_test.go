package checks

import "testing"

// opensm.conf's routing_engine in the shape osm_subnet.c writes it
// ("routing_engine %s"); ar_updn is the AR engine of NVIDIA's bring-up
// guide (docs.nvidia.com/networking/display/ibclusterbringupprocedure/
// adaptive+routing), updn its example of a non-AR engine.
const ibPolicyLine = "ib: {sl: 1, vl: 1}"

func arPolicy(on string) edit {
	return replace("inventory.yaml", ibPolicyLine, "ib: {sl: 1, vl: 1, adaptive_routing: "+on+"}")
}

func engine(v string) edit {
	return replace(ibSMConf, "# Enable QoS setup\n", "# Routing engine\nrouting_engine "+v+"\n\n# Enable QoS setup\n")
}

var _ = register(ibAdaptiveRouting, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "no policy", edits: []edit{ibPod(), engine("updn")}},
		{name: "AR wanted and on", edits: []edit{ibPod(), arPolicy("true"), engine("ar_updn")}},
		{name: "AR off as wanted", edits: []edit{ibPod(), arPolicy("false"), engine("ftree,updn")}},
		{name: "AR wanted, non-AR engine", edits: []edit{ibPod(), arPolicy("true"), engine("updn")},
			want: []string{"error sm01"}, msg: "first routing engine is updn (routing_engine updn): adaptive routing off, the policy wants it on"},
		{name: "AR unwanted, AR engine first", edits: []edit{ibPod(), arPolicy("false"), engine("ar_updn,minhop")},
			want: []string{"error sm01"}, msg: "adaptive routing on, the policy wants it off"},
		{name: "engine unset", edits: []edit{ibPod(), arPolicy("true")},
			want: []string{"warning sm01"}, msg: "sets no routing_engine"},
		{name: "(null) is unset", edits: []edit{ibPod(), arPolicy("false"), engine("(null)")},
			want: []string{"warning sm01"}, msg: "NVIDIA's OpenSM with ar_updn"},
		{name: "no opensm.conf", edits: []edit{ibPod(), arPolicy("true"), remove(ibSMConf)},
			want: []string{"info sm01"}, msg: "opensm.conf not collected on any host: routing_engine not checked"},
	}
})

// The fix of an AR engine the policy does not want drops the ar_ prefix
// of the first engine and keeps the fall-backs; turning AR on writes
// ar_updn.
func TestIBAdaptiveRoutingFix(t *testing.T) {
	for _, tc := range []struct {
		on, engines, want string
		hasOld            bool
	}{
		{"false", "ar_updn,minhop", "updn,minhop", true},
		{"true", "updn", "ar_updn", true},
	} {
		fs := ibAdaptiveRouting.Run(fabric(t, ibPod(), arPolicy(tc.on), engine(tc.engines)))
		if len(fs) != 1 || len(fs[0].Changes) != 2 {
			t.Fatalf("%s: %+v", tc.engines, fs)
		}
		c := fs[0].Changes[0]
		if c.Kind != OpenSMConf || c.Device != "sm01" || c.Path[0] != "routing_engine" || c.Value != tc.want || c.HasOld != tc.hasOld || c.Old != tc.engines {
			t.Errorf("%s: %+v", tc.engines, c)
		}
		if fs[0].Changes[1].Kind != OpenSMReload {
			t.Errorf("%s: %+v", tc.engines, fs[0].Changes[1])
		}
	}
}
