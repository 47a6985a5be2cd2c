package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/internal/source"
)

// IBAppSL is the SL one application other than the host's NCCL (which is
// IBHost.SL) sends on from a host: UCX or NVSHMEM as the host's capture
// shows them, or NCCL, UCX or NVSHMEM in a Kubernetes container placed on
// the host. Each is read where the same application's ToS is read on
// Ethernet (host-app-tos, k8s-workload-tos).
type IBAppSL struct {
	App, Var string
	SL       int
	// Knob says how the value was reached: "UCX_IB_SL=3", "UCX_IB_SL
	// unset, UCX's auto → 0".
	Knob string
	// Where names the place that decided it: a layer of the host
	// ("/etc/ucx/ucx.conf", "environment") or a container.
	Where string
	Pos   source.Pos
	// Setting is the host's setting (nil for a container); Container,
	// Value and Set the container's variable (Set false: not in its env).
	Setting   *AppSetting
	Container *K8sContainer
	Value     K8sValue
	Set       bool
}

// BuildIBApps gives each InfiniBand host the SLs of its other
// applications; it runs after k8smodel.Build, which places the containers.
func BuildIBApps(f *Fabric, c *collectors.Capture) {
	if f.IB == nil {
		return
	}
	caps := map[string]*collectors.HostCapture{}
	for _, hc := range c.Hosts {
		caps[hc.Name] = hc
	}
	hosts := map[string]*Host{}
	for _, hm := range f.Hosts {
		hosts[hm.Name] = hm
	}
	for _, h := range f.IB.Hosts {
		if hm := hosts[h.Name]; hm != nil {
			h.Apps = append(h.Apps, hostAppSLs(f, h, hm, caps[h.Name])...)
		}
		if f.K8s != nil {
			for _, kc := range f.K8s.Containers {
				if slices.Contains(kc.Hosts, h.Name) {
					h.Apps = append(h.Apps, containerSLs(kc)...)
				}
			}
		}
	}
}

// hostAppSLs are UCX_IB_SL and NVSHMEM_IB_SL as model/host_apps.go read
// them. UCX's "auto" (its default) is not RoCE's 0 on InfiniBand: the
// mlx5 transports pick the SL by UCX_IB_AR_ENABLE (default auto), and
// with auto the first SL allowed, 0; with yes or try the first SL the HCA
// does adaptive routing on, which the capture does not show (openucx/ucx
// src/uct/ib/mlx5/ib_mlx5.c uct_ib_mlx5_select_sl and the AR_ENABLE
// table; the verbs transports take 0, src/uct/ib/base/ib_iface.c
// uct_ib_iface_config_select_sl). That case is noted, not judged.
func hostAppSLs(f *Fabric, h *IBHost, hm *Host, hc *collectors.HostCapture) []IBAppSL {
	var out []IBAppSL
	for i := range hm.AppSL {
		s := &hm.AppSL[i]
		if s.App == AppUCX && hc != nil && !ucxUsesIB(f, h, hc) {
			continue
		}
		if s.App == AppUCX && s.Auto && hc != nil {
			if ar, pos, ok := ucxRaw(hc, "UCX_IB_AR_ENABLE"); ok && (strings.EqualFold(ar, "yes") || strings.EqualFold(ar, "try")) {
				f.Notes = append(f.Notes, &source.Error{Device: h.Name, Pos: pos,
					Msg: fmt.Sprintf("UCX_IB_SL is auto and UCX_IB_AR_ENABLE=%s: UCX takes the first SL the HCA does adaptive routing on, which was not collected, so UCX's SL is not checked", clipValue(ar))})
				continue
			}
		}
		out = append(out, IBAppSL{App: s.App, Var: s.Var, SL: s.Value.V, Knob: s.Knob(), Where: s.Layer, Pos: s.Value.Origin.Pos, Setting: s})
	}
	return out
}

// ucxUsesIB reports whether UCX may use one of the host's InfiniBand
// ports: UCX_NET_DEVICES, default "all", is an allow list of devices
// ("mlx5_0:1"; openucx/ucx src/ucp/core/ucp_context.c NET_DEVICES,
// UCS_CONFIG_TYPE_ALLOW_LIST_WITH_RANGES). A list naming none of the
// host's HCAs keeps UCX off InfiniBand (noted); a negated list ("^...")
// is taken as allowing them.
func ucxUsesIB(f *Fabric, h *IBHost, hc *collectors.HostCapture) bool {
	list, pos, ok := ucxRaw(hc, "UCX_NET_DEVICES")
	if !ok || list == "" || strings.EqualFold(list, "all") || strings.HasPrefix(list, "^") {
		return true
	}
	for _, d := range strings.Split(list, ",") {
		d = strings.TrimSpace(d)
		for _, p := range h.Ports {
			if d == p.CA || strings.HasPrefix(d, p.CA+":") {
				return true
			}
		}
	}
	f.Notes = append(f.Notes, &source.Error{Device: h.Name, Pos: pos,
		Msg: fmt.Sprintf("UCX_NET_DEVICES=%s names none of the InfiniBand HCAs: UCX_IB_SL is not checked against them", clipValue(list))})
	return false
}

// ucxRaw is name's value in the strongest collected UCX layer.
func ucxRaw(hc *collectors.HostCapture, name string) (string, source.Pos, bool) {
	for _, l := range ucxLayers(hc) {
		if v, ok := l.vars[name]; ok && l.collected {
			return strings.TrimSpace(v.Value), source.Pos{File: l.file, Line: v.Line}, true
		}
	}
	return "", source.Pos{}, false
}

// containerSLs are the SL variables of one container, read as
// k8s-workload-tos reads them: NCCL_IB_SL unset is NCCL's default 0 (the
// host's nccl.conf is not in the container); UCX_IB_SL unset is UCX's
// auto, 0 (see hostAppSLs), in a container that sets some UCX_ variable;
// NVSHMEM_IB_SL only when set. A value the library cannot read is left to
// k8s-workload-tos.
func containerSLs(kc *K8sContainer) []IBAppSL {
	var out []IBAppSL
	for _, v := range []struct{ name, app, unset string }{
		{"NCCL_IB_SL", AppNCCL, "0"}, {"UCX_IB_SL", AppUCX, "auto"}, {"NVSHMEM_IB_SL", AppNVSHMEM, ""},
	} {
		val, set := kc.Env[v.name]
		if !set && (v.unset == "" || (v.app == AppUCX && !containerUses(kc, "UCX_"))) {
			continue
		}
		a := IBAppSL{App: v.app, Var: v.name, Where: kc.Who(), Container: kc, Value: val, Set: set, Pos: kc.Pos}
		raw := val.V
		switch {
		case !set:
			raw = v.unset
			a.Knob = fmt.Sprintf("%s unset in the manifest, %s's default %s", v.name, v.app, v.unset)
		default:
			a.Pos, a.Knob = val.Pos, v.name+"="+val.V
		}
		if strings.EqualFold(raw, "auto") && v.app == AppUCX {
			raw = "0"
			if set {
				a.Knob = v.name + "=auto → 0"
			}
		}
		n, err := strconv.Atoi(strings.TrimSpace(raw))
		if err != nil || n < 0 || n > 15 {
			continue
		}
		a.SL = n
		out = append(out, a)
	}
	return out
}

func containerUses(kc *K8sContainer, prefix string) bool {
	for k := range kc.Env {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}
