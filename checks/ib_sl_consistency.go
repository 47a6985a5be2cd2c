package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var ibSLConsistency = &Check{
	ID:       "ib-sl-consistency",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesIBHost,
	Severity: judge.Error,
	Title:    "Every host's jobs send on the policy's Service Level",
	Doc: `All ranks of a job should send on one SL, the one the fabric's SL2VL and VL arbitration tables
were built for (policy ib.sl, default 0). NCCL takes it from NCCL_IB_SL (default 0,
NVIDIA/nccl src/transport/net_ib.cc), read like NCCL_IB_TC: the job environment, then
~/.nccl.conf (or $NCCL_CONF_FILE), then /etc/nccl.conf (NVIDIA/nccl src/misc/param.cc). A host
on another SL puts its traffic on another VL, with another arbitration weight, or on a lane the
ports drop. The fix sets NCCL_IB_SL in /etc/nccl.conf; the job environment, when it sets the
variable, still overrides the file. NCCL is not the only application: UCX_IB_SL and NVSHMEM_IB_SL
are read where host-app-tos reads their ToS (the job environment, /etc/ucx/ucx.conf; UCX only where
a ucx.conf or a UCX_ variable shows it, NVSHMEM only where an NVSHMEM_ variable does), and NCCL_IB_SL,
UCX_IB_SL and NVSHMEM_IB_SL in the env of each Kubernetes container placed on the host, as
k8s-workload-tos reads them. UCX's default, "auto", is SL 0 on InfiniBand unless UCX_IB_AR_ENABLE is
yes or try, when UCX takes the first SL the HCA does adaptive routing on (openucx/ucx
src/uct/ib/mlx5/ib_mlx5.c uct_ib_mlx5_select_sl), which is not collected: a note then. Each finding
names the application, the variable and where its value came from; the fix rewrites a NAME=value
line of /etc/ucx/ucx.conf, patches the container's env, or says where to set it.

OpenSM's QoS policy file (qos-policy.conf next to opensm.conf, the path its qos_policy_file names)
gives the SL of path records: traffic that asks the SM for a path (RDMA-CM, IPoIB, SRP, iSER, RDS)
gets the SL of the first rule it matches, else the default one, the qos-level named DEFAULT or the
simplified policy's "default : <SL>" line (linux-rdma/opensm doc/QoS_management_in_OpenSM.txt §2,
§6; opensm/osm_qos_policy.c). When qos is TRUE and that default differs from the policy's SL, a
warning names the file and line; a file with neither default OpenSM refuses (ERR AC10), also a
warning. NCCL's NCCL_IB_SL does not go through path records (NCCL writes it into its queue pairs'
address vectors itself, NVIDIA/nccl src/transport/net_ib/connect.cc qpAttr.ah_attr.sl), so it is judged on its own above. Only the qos-levels' name and
sl and the simplified qos-ulps lines are read; port-groups, qos-setup and qos-match-rules are skipped
(a note names them), so rules that send some traffic elsewhere are not checked.`,
	Inputs: []Input{NCCL, UCXConf, K8sManifests, OpenSM, QoSPolicy},
	Run:    runIBSLConsistency,
}

func runIBSLConsistency(f *model.Fabric) []Finding {
	if f.IB == nil {
		return nil
	}
	want := f.Policy.IB.SL
	var out []Finding
	for _, h := range f.IB.Hosts {
		for _, a := range h.Apps {
			if a.SL != want {
				out = append(out, appSLFinding(f, h, a))
			}
		}
		if !h.SL.Known {
			out = append(out, notCollected(h.Name, []string{"nccl.conf not collected"}, "NCCL_IB_SL"))
			continue
		}
		if h.SL.V == want {
			continue
		}
		out = append(out, Finding{
			Severity: judge.Error, Device: h.Name,
			Message:  fmt.Sprintf("jobs send on SL %d (%s, %s), the policy's SL is %d", h.SL.V, h.SLLayer, h.SL.Origin, want),
			Expected: fmt.Sprintf("SL %d", want), Actual: fmt.Sprintf("SL %d", h.SL.V),
			Source:  slSource(h),
			Changes: slChange(f, h),
		})
	}
	return append(out, smPolicyFindings(f)...)
}

// smPolicyFindings judges the default SL of OpenSM's QoS policy file,
// which OpenSM reads only with qos TRUE (doc/QoS_management_in_OpenSM.txt
// §1: "When QoS in OpenSM is enabled ... OpenSM looks for QoS Policy
// file").
func smPolicyFindings(f *model.Fabric) []Finding {
	sm := f.IB.SM
	if sm == nil || !sm.QoS.V || sm.Policy.File == "" {
		return nil
	}
	p, want := sm.Policy, f.Policy.IB.SL
	switch {
	case p.NoDefault:
		return []Finding{{Severity: judge.Warning, Device: sm.Device, Source: source.Pos{File: p.File},
			Message:  fmt.Sprintf("the QoS policy file (%s) has no qos-level named DEFAULT and no qos-ulps \"default : <SL>\" line: OpenSM refuses it (ERR AC10, opensm/osm_qos_policy.c); add \"default : %d\" to its qos-ulps (qoslint prints no command for it)", p.Path.V, want),
			Expected: fmt.Sprintf("default SL %d", want), Actual: "no default"}}
	case p.DefaultSL.Known && p.DefaultSL.V != want:
		return []Finding{{Severity: judge.Warning, Device: sm.Device, Source: p.DefaultSL.Origin.Pos(),
			Message: fmt.Sprintf("the QoS policy file (%s) gives SL %d to path records no rule matches (%s), the policy's SL is %d: RDMA-CM and ULP traffic (IPoIB, SRP, iSER, RDS) that takes its SL from a path record lands on SL %d; NCCL_IB_SL does not go through path records; set the default to %d (qoslint prints no command for it); OpenSM reads the file again at every heavy sweep",
				p.Path.V, p.DefaultSL.V, p.DefaultSL.Origin.Pos(), want, p.DefaultSL.V, want),
			Expected: fmt.Sprintf("default SL %d", want), Actual: fmt.Sprintf("default SL %d", p.DefaultSL.V)}}
	}
	return nil
}

// appSLFinding is one application's SL off the policy's on a host.
func appSLFinding(f *model.Fabric, h *model.IBHost, a model.IBAppSL) Finding {
	want := f.Policy.IB.SL
	msg := fmt.Sprintf("%s sends on SL %d (%s, %s), the policy's SL is %d", a.App, a.SL, a.Knob, appSLWhere(a), want)
	changes := appSLChange(a, want)
	if len(changes) == 0 {
		msg += fmt.Sprintf("; set %s=%d there (qoslint prints no command for it)", a.Var, want)
	}
	if s := a.Setting; s != nil && len(s.Unknown) > 0 {
		msg += "; " + joinAnd(s.Unknown) + " " + english.Plural(len(s.Unknown), "was", "were") + " not collected: " + english.Plural(len(s.Unknown), "it", "they") + " may still override it"
	}
	return Finding{Severity: judge.Error, Device: h.Name, Message: msg,
		Expected: fmt.Sprintf("SL %d", want), Actual: fmt.Sprintf("SL %d", a.SL), Source: a.Pos, Changes: changes}
}

// appSLWhere names where an application's SL was decided.
func appSLWhere(a model.IBAppSL) string {
	if a.Container != nil {
		return "in " + a.Where
	}
	return appLayerSays(*a.Setting)
}

// appSLChange fixes an application's SL where it was decided: the
// container's env (or its ConfigMap), a plain line of /etc/ucx/ucx.conf;
// nil where qoslint has no command (the job environment, a default).
func appSLChange(a model.IBAppSL, want int) []Change {
	if a.Container != nil {
		return []Change{varFix(a.Container, a.Var, a.Value, a.Set, want)}
	}
	if s := a.Setting; s.Layer == model.LayerUCXEtc && s.Plain {
		return []Change{{Kind: NCCLConf, Target: model.LayerUCXEtc, Path: []string{s.Var}, Value: strconv.Itoa(want), Old: s.Raw, HasOld: true}}
	}
	return nil
}

// slSource is the line that set the SL, or the nccl.conf NCCL's default
// was read past.
func slSource(h *model.IBHost) source.Pos {
	if p := h.SL.Origin.Pos(); !p.IsZero() {
		return p
	}
	return source.Pos{File: layout.DeviceFile(h.Name, layout.NCCLConfFile)}
}

// slChange sets NCCL_IB_SL to the policy's in /etc/nccl.conf.
func slChange(f *model.Fabric, h *model.IBHost) []Change {
	old, hasOld := strconv.Itoa(h.SL.V), !h.SL.Origin.IsDefault() && h.SLLayer == model.LayerEtc
	return []Change{{Kind: NCCLConf, Target: model.NCCLConfPath, Path: []string{"NCCL_IB_SL"}, Value: strconv.Itoa(f.Policy.IB.SL), Old: old, HasOld: hasOld}}
}
