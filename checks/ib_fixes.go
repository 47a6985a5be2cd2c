package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// arbWeight sums the weights of vl's entries among the first n of t
// (a port keeps only LowCap/HighCap entries).
func arbWeight(t []model.VLArbEntry, n, vl int) int {
	w := 0
	for i, e := range t {
		if i >= n {
			break
		}
		if e.VL == vl {
			w += e.Weight
		}
	}
	return w
}

func fmtArb(t []model.VLArbEntry, n int) string {
	s := ""
	for i, e := range t {
		if i >= n {
			break
		}
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf("%d:%d", e.VL, e.Weight)
	}
	return s
}

func fmtSL2VL(t [16]int) string {
	s := ""
	for i, v := range t {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(v)
	}
	return s
}

// smChange sets opensm.conf's qos_ca_<param> on the SM's host to value;
// without the SM's configuration there is nothing to edit (nil).
func smChange(f *model.Fabric, param, value string) []Change {
	return smClassChange(f, model.SMClassCA, param, value)
}

// smClassChange sets qos_<class>_<param>.
func smClassChange(f *model.Fabric, class, param, value string) []Change {
	if f.IB == nil || f.IB.SM == nil {
		return nil
	}
	cfg := f.IB.SM.Config[class]
	var origin model.Origin
	var old string
	switch param {
	case "sl2vl":
		origin, old = cfg.SL2VL.Origin, fmtSL2VL(cfg.SL2VL.V)
	case "vlarb_low":
		origin, old = cfg.VLArbLow.Origin, fmtArb(trimArb(cfg.VLArbLow.V), 64)
	}
	key := "qos_" + class + "_" + param
	// Only the class's own line can be edited in place; a qos_ line or
	// the default is overridden by adding the class's own line.
	hasOld := !origin.IsDefault() && f.IB.SM.ConfKeyAt(origin.Pos().Line) == key
	return []Change{
		{Kind: OpenSMConf, Device: f.IB.SM.Device, Target: layout.OpenSMConfPath, Path: []string{key}, Value: value, Old: old, HasOld: hasOld},
		smReload(f),
	}
}

func smReload(f *model.Fabric) Change {
	return Change{Kind: OpenSMReload, Device: f.IB.SM.Device, Target: layout.OpenSMConfPath}
}

// trimArb drops the trailing 0:0 entries OpenSM fills a short list with.
func trimArb(t []model.VLArbEntry) []model.VLArbEntry {
	n := len(t)
	for n > 1 && t[n-1] == (model.VLArbEntry{}) {
		n--
	}
	return t[:n]
}

// fixSL2VL is the fix of SL sl landing on a wrong VL of port p: on a
// host whose jobs are off the policy's SL, NCCL_IB_SL (ib-sl-consistency's
// fix); where OpenSM's own table is right, a sweep that reprograms the
// port; else the SM's qos_ca_sl2vl with sl moved to vl.
func fixSL2VL(f *model.Fabric, h *model.IBHost, p *model.IBPort, sl, vl int) []Change {
	if h.SL.Known && h.SL.V != f.Policy.IB.SL {
		return slChange(f, h)
	}
	if f.IB == nil || f.IB.SM == nil {
		return nil
	}
	cfg := f.IB.SM.Config[model.SMClassCA]
	if want, _, _, ok := cfg.Expected(p.OperVLs); ok && want[sl] != model.VLDrop && want[sl] < p.OperVLs && (!f.Policy.IB.HasVL || want[sl] == f.Policy.IB.VL) && f.IB.SM.QoS.V {
		return []Change{smReload(f)}
	}
	t := cfg.SL2VL.V
	t[sl] = vl
	return smChange(f, "sl2vl", fmtSL2VL(t))
}

// fixVLArbLow gives vl 64 credits (one 4 KiB packet, the unit
// doc/QoS_management_in_OpenSM.txt §7 recommends) in the SM's low table:
// its first weight-0 entry for vl, else a new entry.
func fixVLArbLow(f *model.Fabric, p *model.IBPort, vl int) []Change {
	if f.IB == nil || f.IB.SM == nil {
		return nil
	}
	cfg := f.IB.SM.Config[model.SMClassCA]
	if _, _, low, ok := cfg.Expected(p.OperVLs); ok && arbWeight(low, p.VLArb.LowCap, vl) > 0 && f.IB.SM.QoS.V {
		// OpenSM's table serves vl: the port only needs reprogramming.
		return []Change{smReload(f)}
	}
	t := append([]model.VLArbEntry(nil), trimArb(f.IB.SM.Config[model.SMClassCA].VLArbLow.V)...)
	done := false
	for i, e := range t {
		if e.VL == vl && e.Weight == 0 && !done {
			t[i].Weight, done = 64, true
		}
	}
	if !done {
		t = append(t, model.VLArbEntry{VL: vl, Weight: 64})
	}
	return smChange(f, "vlarb_low", fmtArb(t, 64))
}

// fixSwitchSL2VL moves sl to vl in qos_swe_sl2vl, or, where OpenSM's own
// table already maps sl right on p, asks for the sweep that reprograms
// the port.
func fixSwitchSL2VL(f *model.Fabric, p *model.IBSwitchPort, sl, vl int) []Change {
	if f.IB.SM == nil {
		return nil
	}
	cfg := f.IB.SM.Config[model.SMClassSWE]
	if want, _, _, ok := cfg.Expected(p.OperVLs); ok && want[sl] != model.VLDrop && want[sl] < p.OperVLs && (!f.Policy.IB.HasVL || want[sl] == f.Policy.IB.VL) && f.IB.SM.QoS.V {
		return []Change{smReload(f)}
	}
	t := cfg.SL2VL.V
	t[sl] = vl
	return smClassChange(f, model.SMClassSWE, "sl2vl", fmtSL2VL(t))
}

// fixSwitchVLArbLow gives vl 64 credits in p's class's low table, as
// fixVLArbLow does for qos_ca_vlarb_low.
func fixSwitchVLArbLow(f *model.Fabric, p *model.IBSwitchPort, vl int) []Change {
	if f.IB.SM == nil {
		return nil
	}
	class := p.SMClass()
	cfg := f.IB.SM.Config[class]
	if _, _, low, ok := cfg.Expected(p.OperVLs); ok && arbWeight(low, p.VLArb.LowCap, vl) > 0 && f.IB.SM.QoS.V {
		return []Change{smReload(f)}
	}
	return smClassChange(f, class, "vlarb_low", fmtArb(addArbWeight(cfg.VLArbLow.V, vl), 64))
}

// addArbWeight gives vl's first weight-0 entry 64 credits (one 4 KiB
// packet, the unit doc/QoS_management_in_OpenSM.txt §7 recommends), else
// appends an entry.
func addArbWeight(in []model.VLArbEntry, vl int) []model.VLArbEntry {
	t := append([]model.VLArbEntry(nil), trimArb(in)...)
	for i, e := range t {
		if e.VL == vl && e.Weight == 0 {
			t[i].Weight = 64
			return t
		}
	}
	return append(t, model.VLArbEntry{VL: vl, Weight: 64})
}
