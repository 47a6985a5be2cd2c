package ibmodel

import (
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/source"
)

// buildSMIntent resolves opensm.conf into each class's effective
// configuration. The option values were validated by the parser.
func buildSMIntent(device string, c *ibfiles.OpenSMConf) *model.SMIntent {
	sm := &model.SMIntent{Device: device, File: c.File, Config: map[string]*model.SMClassConfig{}}
	sm.QoS = model.Defaulted(false, "OpenSM default: qos FALSE (opensm/osm_subnet.c)")
	if c.QoS != nil {
		sm.QoS = model.Explicit(c.QoS.Value == "TRUE", source.Pos{File: c.File, Line: c.QoS.Line})
	}
	if r := c.RoutingEngine; r != nil {
		var engines []string
		for _, e := range strings.Split(r.Value, ",") {
			if e = strings.TrimSpace(e); e != "" {
				engines = append(engines, e)
			}
		}
		sm.RoutingEngine = model.Explicit(engines, source.Pos{File: c.File, Line: r.Line})
	}
	def := c.Sets[ibfiles.ClassDefault]
	sm.Keys = map[int]string{}
	for _, cl := range ibfiles.Classes {
		prefix := "qos_"
		if cl != "" {
			prefix += cl + "_"
		}
		s := c.Sets[cl]
		for param, v := range map[string]*ibfiles.Setting{"max_vls": s.MaxVLs, "high_limit": s.HighLimit, "vlarb_high": s.VLArbHigh, "vlarb_low": s.VLArbLow, "sl2vl": s.SL2VL} {
			if v != nil {
				sm.Keys[v.Line] = prefix + param
			}
		}
	}
	for _, cl := range ibfiles.Classes[1:] {
		set := c.Sets[cl]
		key := "qos_" + cl
		cfg := &model.SMClassConfig{Key: key}
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

func smInt(file string, class, def *ibfiles.Setting, dflt int) model.Value[int] {
	s := pick(class, def)
	if s == nil {
		return model.Defaulted(dflt, smDefaultWhy)
	}
	v, _ := strconv.Atoi(s.Value)
	return model.Explicit(v, source.Pos{File: file, Line: s.Line})
}

func smArb(file string, class, def *ibfiles.Setting, dflt string) model.Value[[]model.VLArbEntry] {
	s := pick(class, def)
	raw, out := dflt, model.Value[[]model.VLArbEntry]{Origin: model.Because(smDefaultWhy), Known: true}
	if s != nil {
		raw, out = s.Value, model.Value[[]model.VLArbEntry]{Origin: model.At(source.Pos{File: file, Line: s.Line}), Known: true}
	}
	e, _ := ibfiles.ParseVLArbList(raw)
	full := make([]model.VLArbEntry, 64)
	copy(full, vlArbEntries(e))
	out.V = full
	return out
}

func smSL2VL(file string, class, def *ibfiles.Setting) model.Value[[16]int] {
	s := pick(class, def)
	if s == nil {
		v, _ := ibfiles.ParseSL2VLList(smDefaultSL2VL)
		return model.Defaulted(v, smDefaultWhy)
	}
	v, _ := ibfiles.ParseSL2VLList(s.Value)
	return model.Explicit(v, source.Pos{File: file, Line: s.Line})
}

// The compiled-in defaults, include/opensm/osm_base.h.
const (
	smDefaultMaxVLs    = 15
	smDefaultHighLimit = 0
	smDefaultVLArbHigh = "0:4,1:0,2:0,3:0,4:0,5:0,6:0,7:0,8:0,9:0,10:0,11:0,12:0,13:0,14:0"
	smDefaultVLArbLow  = "0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,10:4,11:4,12:4,13:4,14:4"
	smDefaultSL2VL     = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7"
	smDefaultWhy       = "OpenSM default (include/opensm/osm_base.h)"
)
