package ibmodel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/hostfiles/hostmodel"
	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/internal/source"
)

// Apps gives each InfiniBand host the SLs of its other
// applications; it runs after BuildK8s, which places the containers.
func Apps(f *model.Fabric, c *collectors.Capture) {
	if f.IB == nil {
		return
	}
	caps := map[string]*collectors.HostCapture{}
	for _, hc := range c.Hosts {
		caps[hc.Name] = hc
	}
	hosts := map[string]*model.Host{}
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

// hostAppSLs are UCX_IB_SL and NVSHMEM_IB_SL as hostmodel (host_apps.go)
// reads them. UCX's "auto" (its default) is not RoCE's 0 on InfiniBand: the
// mlx5 transports pick the SL by UCX_IB_AR_ENABLE (default auto), and
// with auto the first SL allowed, 0; with yes or try the first SL the HCA
// does adaptive routing on, which the capture does not show (openucx/ucx
// src/uct/ib/mlx5/ib_mlx5.c uct_ib_mlx5_select_sl and the AR_ENABLE
// table; the verbs transports take 0, src/uct/ib/base/ib_iface.c
// uct_ib_iface_config_select_sl). That case is noted, not judged.
func hostAppSLs(f *model.Fabric, h *model.IBHost, hm *model.Host, hc *collectors.HostCapture) []model.IBAppSL {
	var out []model.IBAppSL
	for i := range hm.AppSL {
		s := &hm.AppSL[i]
		if s.App == model.AppUCX && hc != nil && !ucxUsesIB(f, h, hc) {
			continue
		}
		if s.App == model.AppUCX && s.Auto && hc != nil {
			if ar, pos, ok := hostmodel.UCXRaw(hc, "UCX_IB_AR_ENABLE"); ok && (strings.EqualFold(ar, "yes") || strings.EqualFold(ar, "try")) {
				f.Notes = append(f.Notes, &source.Error{Device: h.Name, Pos: pos,
					Msg: fmt.Sprintf("UCX_IB_SL is auto and UCX_IB_AR_ENABLE=%s: UCX takes the first SL the HCA does adaptive routing on, which was not collected, so UCX's SL is not checked", hostmodel.ClipValue(ar))})
				continue
			}
		}
		out = append(out, model.IBAppSL{App: s.App, Var: s.Var, SL: s.Value.V, Knob: s.Knob(), Where: s.Layer, Pos: s.Value.Origin.Pos(), Setting: s})
	}
	return out
}

// ucxUsesIB reports whether UCX may use one of the host's InfiniBand
// ports: UCX_NET_DEVICES, default "all", is an allow list of devices
// ("mlx5_0:1"; openucx/ucx src/ucp/core/ucp_context.c NET_DEVICES,
// UCS_CONFIG_TYPE_ALLOW_LIST_WITH_RANGES). A list naming none of the
// host's HCAs keeps UCX off InfiniBand (noted); a negated list ("^...")
// is taken as allowing them.
func ucxUsesIB(f *model.Fabric, h *model.IBHost, hc *collectors.HostCapture) bool {
	list, pos, ok := hostmodel.UCXRaw(hc, "UCX_NET_DEVICES")
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
		Msg: fmt.Sprintf("UCX_NET_DEVICES=%s names none of the InfiniBand HCAs: UCX_IB_SL is not checked against them", hostmodel.ClipValue(list))})
	return false
}

// containerSLs are the SL variables of one container, read as
// k8s-workload-tos reads them: NCCL_IB_SL unset is NCCL's default 0 (the
// host's nccl.conf is not in the container); UCX_IB_SL unset is UCX's
// auto, 0 (see hostAppSLs), in a container that sets some UCX_ variable;
// NVSHMEM_IB_SL only when set. A value the library cannot read is left to
// k8s-workload-tos.
func containerSLs(kc *model.K8sContainer) []model.IBAppSL {
	var out []model.IBAppSL
	for _, v := range []struct{ name, app, unset string }{
		{"NCCL_IB_SL", model.AppNCCL, "0"}, {"UCX_IB_SL", model.AppUCX, "auto"}, {"NVSHMEM_IB_SL", model.AppNVSHMEM, ""},
	} {
		val, set := kc.Env[v.name]
		if !set && (v.unset == "" || (v.app == model.AppUCX && !containerUses(kc, "UCX_"))) {
			continue
		}
		a := model.IBAppSL{App: v.app, Var: v.name, Where: kc.Who(), Container: kc, Value: val, Set: set, Pos: kc.Pos}
		raw := val.V
		switch {
		case !set:
			raw = v.unset
			a.Knob = fmt.Sprintf("%s unset in the manifest, %s's default %s", v.name, v.app, v.unset)
		default:
			a.Pos, a.Knob = val.Pos, v.name+"="+val.V
		}
		if strings.EqualFold(raw, "auto") && v.app == model.AppUCX {
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

func containerUses(kc *model.K8sContainer, prefix string) bool {
	for k := range kc.Env {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}
