package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/model"
)

var ibSMConsistency = &Check{
	ID:       "ib-sm-consistency",
	Kind:     KindConfig,
	Devices:  Hosts,
	Severity: Error,
	Title:    "Every InfiniBand port holds the SL2VL and VL arbitration tables opensm.conf says",
	Doc: `With qos TRUE, OpenSM programs every port's SL2VL table, VL arbitration tables and VLHighLimit
from its qos_<class>_ options (qos_ca_ for HCA ports), falling back to the qos_ options and then to
its compiled-in defaults, and masks each VL to the port's OperVLs (linux-rdma/opensm
opensm/osm_qos.c qos_build_config, sl2vl_update_table; include/opensm/osm_base.h). A port whose
tables differ was not reached by the SM's last sweep or was reprogrammed by something else, and
its traffic does not follow the intent. With qos FALSE (the default) OpenSM programs nothing and
this check is silent. The fix is a heavy sweep: kill -HUP $(pidof opensm) on the SM host re-reads
opensm.conf and reprograms the ports.`,
	Inputs: []Input{IBStat, SMPQuery, OpenSM},
	Run:    runIBSMConsistency,
}

func runIBSMConsistency(f *model.Fabric) []Finding {
	if f.IB == nil || f.IB.SM == nil || !f.IB.SM.QoS.V {
		return nil
	}
	sm := f.IB.SM
	cfg := sm.Config[ibfiles.ClassCA]
	var out []Finding
	nc := ibPorts(f, "OpenSM consistency", needVLArb, func(h *model.IBHost, p *model.IBPort) {
		sl2vl, high, low, _ := cfg.Expected(p.OperVLs)
		var diffs, want, got []string
		if sl2vl != *p.SL2VL {
			diffs = append(diffs, fmt.Sprintf("SL2VL (%s)", cfg.SL2VL.Origin))
			want, got = append(want, "sl2vl "+fmtSL2VL(sl2vl)), append(got, "sl2vl "+fmtSL2VL(*p.SL2VL))
		}
		if w, g := fmtArb(high, p.VLArb.HighCap), fmtArb(p.VLArb.High, p.VLArb.HighCap); w != g {
			diffs = append(diffs, fmt.Sprintf("high VL arbitration (%s)", cfg.VLArbHigh.Origin))
			want, got = append(want, "vlarb_high "+w), append(got, "vlarb_high "+g)
		}
		if w, g := fmtArb(low, p.VLArb.LowCap), fmtArb(p.VLArb.Low, p.VLArb.LowCap); w != g {
			diffs = append(diffs, fmt.Sprintf("low VL arbitration (%s)", cfg.VLArbLow.Origin))
			want, got = append(want, "vlarb_low "+w), append(got, "vlarb_low "+g)
		}
		if p.HighLimit >= 0 && p.HighLimit != cfg.HighLimit.V {
			diffs = append(diffs, fmt.Sprintf("VLHighLimit (%s)", cfg.HighLimit.Origin))
			want, got = append(want, fmt.Sprintf("high_limit %d", cfg.HighLimit.V)), append(got, fmt.Sprintf("high_limit %d", p.HighLimit))
		}
		if len(diffs) == 0 {
			return
		}
		out = append(out, Finding{
			Severity: Error, Device: h.Name, Interface: p.Name(),
			Message: fmt.Sprintf("%s does not hold what OpenSM on %s programs for %s ports: %s differ; the SM's last sweep did not reach it or something reprogrammed it: kill -HUP $(pidof opensm) on %s",
				p.Name(), sm.Device, cfg.Key, strings.Join(diffs, ", "), sm.Device),
			Expected: strings.Join(want, "; "), Actual: strings.Join(got, "; "),
			Source:  p.SL2VLPos,
			Changes: []Change{smReload(f)},
		})
	})
	return append(out, nc...)
}
