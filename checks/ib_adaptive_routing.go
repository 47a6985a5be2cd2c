package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var ibAdaptiveRouting = &Check{
	ID:       "ib-adaptive-routing",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesIBAdaptiveRouting,
	Severity: judge.Error,
	Title:    "The subnet manager runs an adaptive routing engine when the policy asks for one",
	Doc: `On InfiniBand the subnet manager turns adaptive routing on: NVIDIA's OpenSM configures the
switches' AR groups when routing_engine names an AR engine, ar_updn by default, and a non-AR engine
(e.g. updn) turns AR off (NVIDIA, InfiniBand Cluster Bring-up Procedure, "Adaptive Routing",
docs.nvidia.com/networking/display/ibclusterbringupprocedure/adaptive+routing). OpenSM tries the
engines of routing_engine in order (linux-rdma/opensm man/opensm.8.in -R); the first is judged. That
guide names only ar_updn; other engines starting with ar_ are taken as adaptive by their name, which
no public source states. Without a routing_engine line the file cannot decide: linux-rdma's OpenSM
then routes with Min Hop (no AR), NVIDIA's with ar_updn, and the warning says so. Checked only when
policy ib.adaptive_routing is set. The fix sets routing_engine in opensm.conf (ar_updn to turn AR on;
to turn it off the engine without its ar_ prefix, or minhop, linux-rdma OpenSM's default, where the
line is missing) and signals OpenSM to re-read it.`,
	Inputs: []Input{OpenSM},
	Run:    runIBAdaptiveRouting,
}

// arEngine reports whether an OpenSM routing engine name is an adaptive
// one (the ar_ prefix; see the check's Doc).
func arEngine(name string) bool { return strings.HasPrefix(name, "ar_") }

func runIBAdaptiveRouting(f *model.Fabric) []Finding {
	if f.IB == nil || !f.Policy.IB.HasAdaptiveRouting || len(f.IB.Hosts) == 0 {
		return nil
	}
	want := f.Policy.IB.AdaptiveRouting
	if f.IB.SM == nil {
		// No host had opensm.conf: the SM runs elsewhere (UFM, a switch)
		// or its file was not collected.
		return []Finding{notCollected(f.IB.Hosts[0].Name, []string{layout.OpenSMConfFile + " not collected on any host"}, "routing_engine")}
	}
	sm := f.IB.SM
	re := sm.RoutingEngine
	file := source.Pos{File: sm.File}
	if !re.Known || len(re.V) == 0 {
		fd := Finding{
			Severity: judge.Warning, Device: sm.Device, Source: file,
			Message:  fmt.Sprintf("opensm.conf sets no routing_engine: linux-rdma OpenSM then routes with Min Hop (no adaptive routing), NVIDIA's OpenSM with ar_updn (adaptive); the file does not say which runs, and the policy wants adaptive routing %s", arOnOff(want)),
			Expected: "routing_engine set", Actual: "routing_engine unset",
		}
		// minhop is what linux-rdma OpenSM runs without the line (its
		// man page's -R: "instead of Min Hop algorithm (default)"), so
		// writing it only changes NVIDIA's.
		fix := "minhop"
		if want {
			fix = "ar_updn"
		}
		fd.Changes = engineChange(f, fix, "", false)
		return []Finding{fd}
	}
	first := re.V[0]
	if arEngine(first) == want {
		return nil
	}
	fix := "ar_updn"
	if !want {
		fix = strings.TrimPrefix(first, "ar_")
	}
	engines := append([]string{fix}, re.V[1:]...)
	return []Finding{{
		Severity: judge.Error, Device: sm.Device, Source: re.Origin.Pos(),
		Message: fmt.Sprintf("OpenSM's first routing engine is %s (routing_engine %s): adaptive routing %s, the policy wants it %s",
			first, strings.Join(re.V, ","), arOnOff(arEngine(first)), arOnOff(want)),
		Expected: "adaptive routing " + arOnOff(want), Actual: "routing_engine " + strings.Join(re.V, ","),
		Changes: engineChange(f, strings.Join(engines, ","), strings.Join(re.V, ","), true),
	}}
}

func arOnOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// engineChange sets routing_engine and makes OpenSM re-read its file.
func engineChange(f *model.Fabric, value, old string, hasOld bool) []Change {
	return []Change{
		{Kind: OpenSMConf, Device: f.IB.SM.Device, Target: layout.OpenSMConfPath, Path: []string{"routing_engine"}, Value: value, Old: old, HasOld: hasOld},
		smReload(f),
	}
}
