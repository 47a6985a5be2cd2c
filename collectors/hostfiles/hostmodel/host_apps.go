package hostmodel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/intern"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// ucxLayer is one place UCX reads a variable from, strongest first.
type ucxLayer struct {
	name, what string
	vars       map[string]hostfiles.NCCLVar
	plain      map[string]bool
	file       string
	collected  bool
}

// ucxLayers lists where UCX reads its variables, strongest first: the
// environment ("Env variable has precedence over file config",
// ucs_config_apply_config_vars), then the files ucs_config_parse_config_files
// reads, a later one overriding an earlier (override=1): /etc/ucx/ucx.conf
// (UCX_CONFIG_DIR), <libdir>/../etc/ucx/ucx.conf, $HOME/ucx.conf (not a
// dot file), $UCX_CONFIG_DIR/ucx.conf, ./ucx.conf (openucx/ucx
// src/ucs/config/parser.c). Only /etc/ucx/ucx.conf and the environment are
// collected; the others are named as layers that may still override.
func ucxLayers(in *collectors.HostCapture) []ucxLayer {
	env := ucxLayer{name: model.LayerEnv, what: "the job environment"}
	var home, dir bool = true, true
	if e := in.NCCLEnv; e != nil {
		env = ucxLayer{name: model.LayerEnv, what: env.what, vars: e.Vars, file: e.File, collected: true}
		_, home = e.Vars["HOME"]
		_, dir = e.Vars["UCX_CONFIG_DIR"]
	}
	layers := []ucxLayer{env, {name: "./ucx.conf", what: "./ucx.conf of the job's working directory"}}
	if dir {
		layers = append(layers, ucxLayer{name: "$UCX_CONFIG_DIR/ucx.conf", what: "$UCX_CONFIG_DIR/ucx.conf"})
	}
	if home {
		layers = append(layers, ucxLayer{name: "$HOME/ucx.conf", what: "$HOME/ucx.conf"})
	}
	layers = append(layers, ucxLayer{name: "<libdir>/../etc/ucx/ucx.conf", what: "the ucx.conf next to the UCX library (<libdir>/../etc/ucx/ucx.conf)"})
	etc := ucxLayer{name: model.LayerUCXEtc, what: layout.UCXConfPath}
	if c := in.UCX; c != nil {
		etc = ucxLayer{name: model.LayerUCXEtc, what: etc.what, vars: c.Vars, plain: c.Plain, file: c.File, collected: true}
	}
	return append(layers, etc)
}

// ucxSeen reports whether the host's capture shows UCX: a collected
// ucx.conf, or a UCX_ variable in the job environment.
func ucxSeen(in *collectors.HostCapture) bool {
	if in.UCX != nil {
		return true
	}
	return in.NCCLEnv != nil && hasPrefixVar(in.NCCLEnv.Vars, "UCX_")
}

func hasPrefixVar(vars map[string]hostfiles.NCCLVar, prefix string) bool {
	for k := range vars {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// ucxSetting reads name through UCX's layers; auto is the value "auto"
// resolves to. ok is false when UCX refuses the value (noted).
func ucxSetting(h *model.Host, in *collectors.HostCapture, name string, auto int) (model.AppSetting, bool) {
	s := model.AppSetting{App: model.AppUCX, Var: name}
	for _, l := range ucxLayers(in) {
		if !l.collected {
			s.Unknown = append(s.Unknown, l.what)
			continue
		}
		v, ok := l.vars[name]
		if !ok {
			continue
		}
		s.Unknown = sharedLayers(s.Unknown)
		// Raw is cut from the file's text, which the model must not keep.
		s.Layer, s.Raw, s.Plain = l.name, intern.String(v.Value), l.plain[name]
		pos := source.Pos{File: l.file, Line: v.Line}
		n, isAuto, valid := hostfiles.UCXULUnits(v.Value)
		if !valid {
			h.Notes = append(h.Notes, &source.Error{Pos: pos, Msg: fmt.Sprintf("%s=%q: UCX refuses the value (it reads \"auto\" or a decimal number), so it is not judged", name, ClipValue(v.Value))})
			return s, false
		}
		s.Auto = isAuto
		s.Value = model.Explicit(int(n&0xff), pos)
		if isAuto {
			s.Value.V = auto
		} else if n > 255 {
			h.Notes = append(h.Notes, &source.Error{Pos: pos, Msg: fmt.Sprintf("%s=%s: the GRH field is 8 bits, so the QPs get %d", name, ClipValue(v.Value), n&0xff)})
		}
		return s, true
	}
	s.Auto, s.Default, s.Layer = true, true, model.LayerDefault
	s.Unknown = sharedLayers(s.Unknown)
	s.Value = model.Defaulted(auto, name+" not set: auto")
	if in.UCX != nil {
		s.Value.Origin = s.Value.Origin.WithPos(source.Pos{File: in.UCX.File})
	}
	return s, true
}

// nvshmemSetting reads an NVSHMEM variable from the job environment, the
// only place NVSHMEM reads its options from (its documented options are
// environment variables, https://docs.nvidia.com/nvshmem/api/gen/env.html,
// which gives NVSHMEM_IB_TRAFFIC_CLASS and NVSHMEM_IB_SL as int, default
// 0). The docs are silent on how a malformed int is read, so such a value
// is noted and not judged.
func nvshmemSetting(h *model.Host, e *hostfiles.NCCLEnv, name string) (model.AppSetting, bool) {
	s := model.AppSetting{App: model.AppNVSHMEM, Var: name, Layer: model.LayerEnv}
	v, ok := e.Vars[name]
	if !ok {
		s.Default, s.Layer = true, model.LayerDefault
		s.Value = model.Defaulted(0, name+" not set")
		s.Value.Origin = s.Value.Origin.WithPos(source.Pos{File: e.File})
		return s, true
	}
	pos := source.Pos{File: e.File, Line: v.Line}
	n, err := strconv.Atoi(strings.TrimSpace(v.Value))
	if err != nil || n < 0 {
		h.Notes = append(h.Notes, &source.Error{Pos: pos, Msg: fmt.Sprintf("%s=%q is not a non-negative integer; NVSHMEM's documentation does not say how it reads one, so it is not judged", name, ClipValue(v.Value))})
		return s, false
	}
	s.Raw, s.Value = intern.String(v.Value), model.Explicit(n&0xff, pos)
	return s, true
}

// buildApps sets the ToS and SL of the applications besides NCCL that the
// capture shows on the host, in name order.
func buildApps(h *model.Host, in *collectors.HostCapture) {
	if e := in.NCCLEnv; e != nil && hasPrefixVar(e.Vars, "NVSHMEM_") {
		if s, ok := nvshmemSetting(h, e, "NVSHMEM_IB_TRAFFIC_CLASS"); ok {
			h.AppToS = append(h.AppToS, s)
		}
		if s, ok := nvshmemSetting(h, e, "NVSHMEM_IB_SL"); ok {
			h.AppSL = append(h.AppSL, s)
		}
	}
	if ucxSeen(in) {
		if s, ok := ucxSetting(h, in, "UCX_IB_TRAFFIC_CLASS", model.UCXAutoToS); ok {
			h.AppToS = append(h.AppToS, s)
		}
		// UCX_IB_SL "auto": "RoCEv2: Ethernet Priority. 'auto' will
		// select 0 by default" (openucx/ucx src/uct/ib/base/ib_iface.c).
		if s, ok := ucxSetting(h, in, "UCX_IB_SL", 0); ok {
			h.AppSL = append(h.AppSL, s)
		}
		ucxConditionalNotes(h, in.UCX)
	}
}

// ucxConditionalNotes names the marking variables set only in a filtered
// section of ucx.conf, which qoslint cannot evaluate.
func ucxConditionalNotes(h *model.Host, c *hostfiles.UCXConf) {
	if c == nil {
		return
	}
	for _, name := range []string{"UCX_IB_TRAFFIC_CLASS", "UCX_IB_SL"} {
		if v, ok := c.Conditional[name]; ok {
			h.Notes = append(h.Notes, &source.Error{Pos: source.Pos{File: c.File, Line: v.Line},
				Msg: fmt.Sprintf("%s=%s applies only where [%s]'s filter %s matches the machine: not judged", name, ClipValue(v.Value), v.Section, v.Filter)})
		}
	}
	for _, n := range c.Notes {
		if strings.HasPrefix(n.Key, "UCX_IB_") {
			h.Notes = append(h.Notes, &source.Error{Pos: source.Pos{File: c.File, Line: n.Line}, Msg: n.Msg})
		}
	}
}

// buildRDMACM sets the NIC's RDMA-CM default ToS and reports whether it
// is missing from a capture that holds the port's sysfs (its GID types):
// the configfs group exists only after mkdir.
func buildRDMACM(n *model.NIC, ni *collectors.NICCapture) (missing bool) {
	if t := ni.RoCEToS; t != nil {
		n.RDMACMToS = model.Explicit(t.ToS, source.Pos{File: t.File, Line: 1})
		return false
	}
	return ni.GIDTypes != nil
}

// rdmaCMNote names the ports whose default_roce_tos was not collected.
// Without the group RDMA-CM creates QPs with ToS 0 unless the application
// sets one with rdma_set_option (Linux Documentation/ABI/testing/
// configfs-rdma_cm: "RDMA-CM QPs ... will be created with this TOS as
// default. This can be overridden by using the rdma_set_option API").
func rdmaCMNote(h *model.Host, missing []string) *source.Error {
	if len(missing) == 0 {
		return nil
	}
	return &source.Error{Pos: source.Pos{File: layout.DeviceDir(h.Name)}, Msg: fmt.Sprintf(
		"RDMA-CM's default_roce_tos not collected for %s: /sys/kernel/config/rdma_cm/<ibdev> exists only after mkdir; without it RDMA-CM users (NVMe-oF, NFS over RDMA, MPI over rdmacm) send ToS 0 unless they set one themselves",
		model.CompressNames(missing))}
}

// appsNote lists the applications seen marking RoCE on the host and the
// ToS each puts on the wire, in name order.
func appsNote(h *model.Host) *source.Error {
	if len(h.NICs) == 0 {
		// No RoCE NIC (an InfiniBand-only host): no ToS is on any wire.
		return nil
	}
	var parts []string
	if t := h.NCCLTC; t.Known {
		v := t.V
		if v < 0 {
			parts = append(parts, "NCCL (unset → ToS 0)")
		} else {
			parts = append(parts, fmt.Sprintf("NCCL (ToS %d)", v))
		}
	}
	for _, s := range h.AppToS {
		switch {
		case s.Auto:
			parts = append(parts, fmt.Sprintf("%s (auto → %d)", s.App, s.Value.V))
		case s.Default:
			parts = append(parts, fmt.Sprintf("%s (unset → ToS %d)", s.App, s.Value.V))
		default:
			parts = append(parts, fmt.Sprintf("%s (ToS %d)", s.App, s.Value.V))
		}
	}
	var cm []string
	for _, n := range h.NICs {
		if n.RDMACMToS.Known {
			if v := strconv.Itoa(n.RDMACMToS.V); !slices.Contains(cm, v) {
				cm = append(cm, v)
			}
		}
	}
	if len(cm) > 0 {
		slices.SortFunc(cm, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
		parts = append(parts, "RDMA-CM (ToS "+strings.Join(cm, ", ")+")")
	}
	if len(parts) == 0 {
		return nil
	}
	slices.Sort(parts)
	// Interned: hosts alike say the same.
	return &source.Error{Pos: source.Pos{File: layout.DeviceDir(h.Name)}, Msg: intern.String("applications marking RoCE: " + strings.Join(parts, ", "))}
}

func ClipValue(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// UCXRaw is name's value in the strongest collected UCX layer.
func UCXRaw(hc *collectors.HostCapture, name string) (string, source.Pos, bool) {
	for _, l := range ucxLayers(hc) {
		if v, ok := l.vars[name]; ok && l.collected {
			return strings.TrimSpace(v.Value), source.Pos{File: l.file, Line: v.Line}, true
		}
	}
	return "", source.Pos{}, false
}
