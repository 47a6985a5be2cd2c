package hostmodel

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/intern"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/nvnum"
	"github.com/qoslint/qoslint/internal/source"
)

// ncclLayer is one place NCCL may read NCCL_IB_TC from.
type ncclLayer struct {
	name string
	// what names the layer in a "may still override" caveat.
	what      string
	file      string // the capture, "" when not collected
	vars      map[string]hostfiles.NCCLVar
	notes     []hostfiles.NCCLNote
	collected bool
}

func confLayer(name, what string, c *hostfiles.NCCLConf) ncclLayer {
	if c == nil {
		return ncclLayer{name: name, what: what}
	}
	return ncclLayer{name: name, what: what, file: c.File, vars: c.Vars, notes: c.Notes, collected: true}
}

// ncclLayers lists the layers NCCL reads, strongest first, with the notes
// their choice deserves.
func ncclLayers(in *collectors.HostCapture) ([]ncclLayer, []*source.Error) {
	var layers []ncclLayer
	var notes []*source.Error
	env := ncclLayer{name: model.LayerEnv, what: "the job environment"}
	home := confLayer(model.LayerHome, "~/.nccl.conf", in.NCCLHome)
	if e := in.NCCLEnv; e != nil {
		env = ncclLayer{name: model.LayerEnv, what: "the job environment", file: e.File, vars: e.Vars, notes: e.Notes, collected: true}
		user, note := userConf(e, in.NCCLHome, home)
		home = user
		if note != nil {
			notes = append(notes, note)
		}
	}
	layers = append(layers, env, home, confLayer(model.LayerEtc, layout.NCCLConfPath, in.NCCL))
	return layers, notes
}

// userConf is the file initEnvFunc reads before /etc/nccl.conf, given the
// job environment e: $NCCL_CONF_FILE when set and not empty, else
// $HOME/.nccl.conf (none without HOME).
func userConf(e *hostfiles.NCCLEnv, homeConf *hostfiles.NCCLConf, home ncclLayer) (ncclLayer, *source.Error) {
	h, hasHome := e.Vars["HOME"]
	cf, ok := e.Vars["NCCL_CONF_FILE"]
	switch {
	case ok && cf.Value != "" && !(hasHome && cf.Value == h.Value+"/.nccl.conf"):
		msg := fmt.Sprintf("NCCL_CONF_FILE=%s: NCCL reads that file instead of ~/.nccl.conf, and it was not collected", cf.Value)
		if homeConf != nil {
			msg += fmt.Sprintf("; NCCL does not read %s", homeConf.File)
		}
		return ncclLayer{name: model.LayerConfFile, what: "the file NCCL_CONF_FILE names (" + cf.Value + ")"},
			&source.Error{Pos: source.Pos{File: e.File, Line: cf.Line}, Msg: msg}
	case !hasHome:
		// userHomeDir() is getenv("HOME"): without it no user file.
		l := ncclLayer{name: model.LayerHome, what: "~/.nccl.conf", collected: true}
		if homeConf == nil {
			return l, nil
		}
		return l, &source.Error{Pos: source.Pos{File: e.File}, Msg: fmt.Sprintf("the job environment has no HOME, so NCCL reads no ~/.nccl.conf: %s is not used", homeConf.File)}
	}
	return home, nil
}

// buildNCCL sets the host's NCCL_IB_TC from the strongest layer that sets
// it. A layer that was not collected cannot decide; it is named in
// NCCLUnknown when it ranks above the deciding one. With no layer setting
// the variable, NCCL's default applies only when /etc/nccl.conf, the one
// file every host has been asked for, was read; otherwise the value stays
// unknown.
func buildNCCL(h *model.Host, in *collectors.HostCapture) {
	layers, notes := ncclLayers(in)
	h.Notes = append(h.Notes, notes...)
	for _, l := range layers {
		for _, n := range l.notes {
			if strings.Contains(n.Key, "NCCL_IB_TC") {
				h.NCCLNotes = append(h.NCCLNotes, fmt.Sprintf("%s:%d: %s", l.file, n.Line, n.Msg))
			}
		}
	}
	if in.NCCL != nil {
		h.NCCLFile = in.NCCL.File
	}
	for _, l := range layers {
		if !l.collected {
			h.NCCLUnknown = append(h.NCCLUnknown, l.what)
			continue
		}
		if v, ok := l.vars["NCCL_IB_TC"]; ok {
			h.NCCLTC, h.NCCLLayer = ncclTC(v, source.Pos{File: l.file, Line: v.Line}), l.name
			h.NCCLUnknown = sharedLayers(h.NCCLUnknown)
			return
		}
	}
	if in.NCCL == nil {
		h.NCCLUnknown = nil
		return
	}
	h.NCCLUnknown = sharedLayers(h.NCCLUnknown)
	h.NCCLTC = model.Defaulted(-1, "NCCL_IB_TC not set")
	h.NCCLTC.Origin = h.NCCLTC.Origin.WithPos(source.Pos{File: in.NCCL.File})
	h.NCCLLayer = model.LayerDefault
}

// buildNCCLParams sets the GID and QP parameters of NCCL's RoCE transport:
// NCCL_PARAM(IbGidIndex, "IB_GID_INDEX", -1) and
// NCCL_PARAM(IbRoceVersionNum, "IB_ROCE_VERSION_NUM", 2) (NVIDIA/nccl
// src/transport/net_ib/connect.cc), read through the same layers and with
// the same strtoll as NCCL_IB_TC (ncclLoadParam).
//
// Unlike NCCL_IB_TC, which a forced traffic_class may settle anyway, a
// parameter no collected layer sets is taken at NCCL's default even when
// /etc/nccl.conf was not collected: like the job environment, which is
// never collected live, the file is then named among the layers that may
// still override it, and a note says so. The GID checks can still judge
// a port without any RoCE v2 GID, whatever the index.
func buildNCCLParams(h *model.Host, in *collectors.HostCapture) {
	layers, _ := ncclLayers(in)
	h.NCCLGIDIndex = ncclParam(layers, in, "NCCL_IB_GID_INDEX", -1)
	h.NCCLRoCEVersion = ncclParam(layers, in, "NCCL_IB_ROCE_VERSION_NUM", 2)
	// NCCL_PARAM(IbQpsPerConn, "IB_QPS_PER_CONNECTION", 1) (NVIDIA/nccl
	// src/transport/net_ib/connect.cc; src/transport/net_ib.cc before the
	// split): the QPs NCCL opens per connection and stripes its data over.
	h.NCCLQPsPerConn = ncclParam(layers, in, "NCCL_IB_QPS_PER_CONNECTION", 1)
	// NCCL_PARAM(IbFifoTc, "IB_FIFO_TC", -1) (connect.cc, since 2.22.3):
	// on RoCE the receiver's CTS QP, which carries the control messages,
	// takes it as its traffic class, `rtrAttr->tc = (remDevInfo->link_layer
	// == IBV_LINK_LAYER_ETHERNET && ncclParamIbFifoTc() != -1) ?
	// ncclParamIbFifoTc() : remMeta->tc`; -1 keeps the data QPs' class.
	h.NCCLFifoTC = ncclParam(layers, in, "NCCL_IB_FIFO_TC", -1)
}

// gidDefaultNote says, for a host whose GID types were collected, that
// NCCL's GID is judged at its default although /etc/nccl.conf was not
// collected.
func gidDefaultNote(h *model.Host, in *collectors.HostCapture) *source.Error {
	if in.NCCL != nil || h.NCCLGIDIndex.Layer != model.LayerDefault {
		return nil
	}
	for _, n := range h.NICs {
		if n.GIDTypes != nil {
			return &source.Error{Pos: source.Pos{File: layout.DeviceDir(h.Name)},
				Msg: "nccl.conf not collected and no collected layer sets NCCL_IB_GID_INDEX: the RoCE version is judged for NCCL's automatic GID choice, which a job may still override"}
		}
	}
	return nil
}

// ncclParam is name from the strongest collected layer that sets it, else
// def, NCCL's default; an empty value keeps def, as ncclLoadParam does.
func ncclParam(layers []ncclLayer, in *collectors.HostCapture, name string, def int64) model.NCCLParam {
	var unknown []string
	for _, l := range layers {
		if !l.collected {
			unknown = append(unknown, l.what)
			continue
		}
		if v, ok := l.vars[name]; ok {
			pos := source.Pos{File: l.file, Line: v.Line}
			p := model.NCCLParam{Value: model.Explicit(int(nvnum.NCCLParamInt(v.Value, def)), pos), Layer: l.name, Unknown: sharedLayers(unknown)}
			if v.Value == "" {
				p.Origin = model.NewOrigin(p.Origin.Pos(), name+" empty: NCCL keeps its default")
			}
			return p
		}
	}
	v := model.Defaulted(int(def), name+" not set")
	if in.NCCL != nil {
		v.Origin = v.Origin.WithPos(source.Pos{File: in.NCCL.File})
	}
	return model.NCCLParam{Value: v, Layer: model.LayerDefault, Unknown: sharedLayers(unknown)}
}

// ncclTC reads NCCL_IB_TC as NCCL does: strtoll(value, NULL, 0), so
// "0106" is octal and text reads as 0, while an empty value keeps the
// default -1 (NVIDIA/nccl src/misc/param.cc ncclLoadParam). An empty value
// still decides: the variable exists, so no lower layer can set it.
func ncclTC(v hostfiles.NCCLVar, pos source.Pos) model.Value[int] {
	tc := int(nvnum.NCCLParamInt(v.Value, -1))
	if tc < 0 {
		return model.Value[int]{V: -1, Origin: model.NewOrigin(pos, "NCCL_IB_TC empty: NCCL keeps its default"), Known: true}
	}
	return model.Explicit(tc, pos)
}

// buildNCCLSL sets the host's NCCL_IB_SL from the strongest collected layer
// that sets it, in NCCL_IB_TC's order (buildNCCL). Unset, NCCL uses SL 0:
// `NCCL_PARAM(IbSl, "IB_SL", 0)` in older releases, and in newer ones -1,
// which falls back to the communicator's trafficClass config or else
// NCCL_IB_SL_DEFAULT 0 (NVIDIA/nccl src/transport/net_ib.cc, `meta.sl =
// (ncclParamIbSl() != -1) ? ncclParamIbSl() : ... NCCL_IB_SL_DEFAULT`). A
// per-communicator trafficClass an application sets in code cannot be
// collected and is not modelled.
func buildNCCLSL(h *model.Host, in *collectors.HostCapture) {
	layers, _ := ncclLayers(in)
	for _, l := range layers {
		if !l.collected {
			h.NCCLSLUnknown = append(h.NCCLSLUnknown, l.what)
			continue
		}
		if v, ok := l.vars["NCCL_IB_SL"]; ok {
			pos := source.Pos{File: l.file, Line: v.Line}
			h.NCCLSLLayer, h.NCCLSLUnknown = l.name, sharedLayers(h.NCCLSLUnknown)
			if sl := int(nvnum.NCCLParamInt(v.Value, -1)); sl >= 0 {
				h.NCCLSL = model.Explicit(sl, pos)
			} else {
				h.NCCLSL = model.Value[int]{V: 0, Origin: model.NewOrigin(pos, "NCCL_IB_SL empty or -1: NCCL's default SL 0"), Known: true}
			}
			return
		}
	}
	if in.NCCL == nil {
		h.NCCLSLUnknown = nil
		return
	}
	h.NCCLSLUnknown = sharedLayers(h.NCCLSLUnknown)
	h.NCCLSL = model.Defaulted(0, "NCCL_IB_SL not set: NCCL's default SL 0")
	h.NCCLSL.Origin = h.NCCLSL.Origin.WithPos(source.Pos{File: in.NCCL.File})
	h.NCCLSLLayer = model.LayerDefault
}

// dscpNotCollected marks the DSCP map of a NIC that trusts DSCP but whose
// capture holds no dscp2prio entry as not collected. mlnx_qos prints the
// block whenever trust is dscp (Mellanox/mlnx-tools python/mlnx_qos
// pretty_print: `if trust == "dscp": print("dscp2prio mapping:")`, then
// the 64 entries of qos/dscp2prio or the DSCP APP entries, of which trust
// dscp implies at least one), so a capture without them was cut or
// filtered (`mlnx_qos -i eth2 | grep ...`): the NIC default DSCP>>3 would
// be a guess.
func dscpNotCollected(n *model.NIC, q *hostfiles.MlnxQos) {
	pos := source.Pos{File: q.File, Line: q.TrustLine}
	for d := range 64 {
		n.DSCP.Set(d, model.Value[int]{Origin: model.At(pos)})
	}
	what := "no \"dscp2prio mapping:\" block"
	if q.DSCP2Prio != nil {
		what = "a \"dscp2prio mapping:\" block with no entry"
	}
	n.DSCPMissing = fmt.Sprintf("trust is dscp but %s has %s, which mlnx_qos always prints with trust dscp (a filtered or cut capture?): the DSCP map of %s is not collected", q.File, what, n.Netdev)
}

// NCCLSL is NCCL_IB_SL from the strongest collected NCCL layer, read the
// way NCCL reads NCCL_IB_TC (host_nccl.go). Without any layer setting it,
// NCCL uses SL 0 (NVIDIA/nccl src/transport/net_ib.cc NCCL_PARAM(IbSl,
// "IB_SL", 0); newer releases default to -1, "not set", and then also
// send on SL 0).
func NCCLSL(hc *collectors.HostCapture) (model.Value[int], string) {
	// A layer not collected cannot decide; the job environment never is
	// in a live audit, which ib-sl-consistency's message says.
	layers, _ := ncclLayers(hc)
	for _, l := range layers {
		if !l.collected {
			continue
		}
		if v, ok := l.vars["NCCL_IB_SL"]; ok {
			pos := source.Pos{File: l.file, Line: v.Line}
			sl, ok := atoiSL(v.Value)
			if !ok {
				return model.Value[int]{V: 0, Origin: model.NewOrigin(pos, "NCCL_IB_SL "+fmt.Sprintf("%q", v.Value)+" is not 0-15: NCCL default"), Known: true}, l.name
			}
			return model.Explicit(sl, pos), l.name
		}
	}
	if hc.NCCL == nil {
		return model.Value[int]{}, ""
	}
	return model.Defaulted(0, "NCCL default (NCCL_IB_SL unset)"), model.LayerDefault
}

func atoiSL(s string) (int, bool) {
	n := 0
	if s == "" || len(s) > 2 {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n <= 15
}

// layerLists holds one copy of each list of uncollected layers: a host's
// NCCL and UCX values name the same few, and a list each was 0.2 kB a
// host. The model only reads them.
var layerLists = intern.Table[[]string]{Max: 1024}

// sharedLayers is whats, shared with every equal list; nil stays nil.
func sharedLayers(whats []string) []string {
	if whats == nil {
		return nil
	}
	var k intern.Key
	for _, w := range whats {
		k.Str(w)
	}
	return layerLists.Share(&k, func() []string {
		out := make([]string, len(whats))
		for i, w := range whats {
			out[i] = intern.String(w)
		}
		return out
	})
}
