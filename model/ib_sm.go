package model

import (
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/source"
)

// buildSMIntent resolves opensm.conf into each class's effective
// configuration. The option values were validated by the parser.
func buildSMIntent(device string, c *ibfiles.OpenSMConf) *SMIntent {
	sm := &SMIntent{Device: device, File: c.File, Config: map[string]*SMClassConfig{}}
	sm.QoS = Defaulted(false, "OpenSM default: qos FALSE (opensm/osm_subnet.c)")
	if c.QoS != nil {
		sm.QoS = Explicit(c.QoS.Value == "TRUE", source.Pos{File: c.File, Line: c.QoS.Line})
	}
	if r := c.RoutingEngine; r != nil {
		var engines []string
		for _, e := range strings.Split(r.Value, ",") {
			if e = strings.TrimSpace(e); e != "" {
				engines = append(engines, e)
			}
		}
		sm.RoutingEngine = Explicit(engines, source.Pos{File: c.File, Line: r.Line})
	}
	def := c.Sets[ibfiles.ClassDefault]
	sm.keys = map[int]string{}
	for _, cl := range ibfiles.Classes {
		prefix := "qos_"
		if cl != "" {
			prefix += cl + "_"
		}
		s := c.Sets[cl]
		for param, v := range map[string]*ibfiles.Setting{"max_vls": s.MaxVLs, "high_limit": s.HighLimit, "vlarb_high": s.VLArbHigh, "vlarb_low": s.VLArbLow, "sl2vl": s.SL2VL} {
			if v != nil {
				sm.keys[v.Line] = prefix + param
			}
		}
	}
	for _, cl := range ibfiles.Classes[1:] {
		set := c.Sets[cl]
		key := "qos_" + cl
		cfg := &SMClassConfig{Key: key}
		cfg.MaxVLs = smInt(c.File, set.MaxVLs, def.MaxVLs, smDefaultMaxVLs)
		cfg.HighLimit = smInt(c.File, set.HighLimit, def.HighLimit, smDefaultHighLimit)
		cfg.VLArbHigh = smArb(c.File, set.VLArbHigh, def.VLArbHigh, smDefaultVLArbHigh)
		cfg.VLArbLow = smArb(c.File, set.VLArbLow, def.VLArbLow, smDefaultVLArbLow)
		cfg.SL2VL = smSL2VL(c.File, set.SL2VL, def.SL2VL)
		sm.Config[cl] = cfg
	}
	return sm
}

// pick is the class line, else the qos_ line, else nil (the default).
func pick(class, def *ibfiles.Setting) *ibfiles.Setting {
	if class != nil {
		return class
	}
	return def
}

func smInt(file string, class, def *ibfiles.Setting, dflt int) Value[int] {
	s := pick(class, def)
	if s == nil {
		return Defaulted(dflt, smDefaultWhy)
	}
	v, _ := strconv.Atoi(s.Value)
	return Explicit(v, source.Pos{File: file, Line: s.Line})
}

func smArb(file string, class, def *ibfiles.Setting, dflt string) Value[[]ibfiles.VLArbEntry] {
	s := pick(class, def)
	raw, out := dflt, Value[[]ibfiles.VLArbEntry]{Origin: Origin{Default: smDefaultWhy}, Known: true}
	if s != nil {
		raw, out = s.Value, Value[[]ibfiles.VLArbEntry]{Origin: Origin{Pos: source.Pos{File: file, Line: s.Line}}, Known: true}
	}
	e, _ := ibfiles.ParseVLArbList(raw)
	full := make([]ibfiles.VLArbEntry, 64)
	copy(full, e)
	out.V = full
	return out
}

func smSL2VL(file string, class, def *ibfiles.Setting) Value[[16]int] {
	s := pick(class, def)
	if s == nil {
		v, _ := ibfiles.ParseSL2VLList(smDefaultSL2VL)
		return Defaulted(v, smDefaultWhy)
	}
	v, _ := ibfiles.ParseSL2VLList(s.Value)
	return Explicit(v, source.Pos{File: file, Line: s.Line})
}

// Expected is what OpenSM programs on a port of this class running
// operVLs data VLs: every VL masked as osm_qos.c does. ok is false when
// operVLs is not known.
func (c *SMClassConfig) Expected(operVLs int) (sl2vl [16]int, high, low []ibfiles.VLArbEntry, ok bool) {
	mask, ok := VLMask(operVLs)
	if !ok {
		return sl2vl, nil, nil, false
	}
	for i, vl := range c.SL2VL.V {
		if vl != VLDrop {
			vl &= mask
		}
		sl2vl[i] = vl
	}
	maskArb := func(in []ibfiles.VLArbEntry) []ibfiles.VLArbEntry {
		out := make([]ibfiles.VLArbEntry, len(in))
		for i, e := range in {
			out[i] = ibfiles.VLArbEntry{VL: e.VL & mask, Weight: e.Weight}
		}
		return out
	}
	return sl2vl, maskArb(c.VLArbHigh.V), maskArb(c.VLArbLow.V), true
}

// ConfKeyAt is the option set at line n of opensm.conf ("" for none), so a
// fix can tell a class's own line from the qos_ line it fell back to.
func (sm *SMIntent) ConfKeyAt(n int) string { return sm.keys[n] }
