package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/model"
)

var hostAppToS = &Check{
	ID:       "host-app-tos",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Error,
	Title:    "UCX and NVSHMEM mark RoCE with the RoCE DSCP (and, under a PCP policy, the RoCE priority)",
	Doc: `NCCL is not the only library that writes the traffic class of RoCE QPs: UCX (MPI, UCC, Spark,
NIXL and other UCX users) and NVSHMEM set their own, and get every mistake host-tos names for NCCL:
unset, RoCE leaves with DSCP 0 in the lossy queue; the DSCP written where the ToS belongs (26 instead
of 104 or 106) puts DSCP 6 on the wire. Each application's effective ToS is judged by host-tos's rule,
one finding per application and variable, the message naming it; under a PCP policy its SL too (PCP =
SL & 7). UCX reads UCX_IB_TRAFFIC_CLASS and UCX_IB_SL from the job environment first ("Env variable
has precedence over file config"), then from its ucx.conf files, a later file overriding an earlier
one: /etc/ucx/ucx.conf (collected as ucx.conf), the one next to the library, $HOME/ucx.conf,
$UCX_CONFIG_DIR/ucx.conf and ./ucx.conf (openucx/ucx src/ucs/config/parser.c); the uncollected files
are named as layers that may still override, and a setting in a ucx.conf section filtered by CPU or
product name is a note. Unset or "auto", UCX_IB_TRAFFIC_CLASS takes the port's forced traffic_class,
else ToS 106 on a RoCE v2 GID (src/uct/ib/base/ib_iface.c, ib_device.c): qoslint judges 106. A NIC
that forces a traffic_class replaces every QP's ToS, whatever the application set: host-tos judges it,
and this check leaves it out. UCX_IB_SL "auto" is SL 0 on RoCE. NVSHMEM reads
only its environment (https://docs.nvidia.com/nvshmem/api/gen/env.html): NVSHMEM_IB_TRAFFIC_CLASS and
NVSHMEM_IB_SL, default 0. An application is judged only where the capture shows it: a ucx.conf, or
UCX_/NVSHMEM_ variables in nccl-env.txt (the job environment). The fix edits the layer that decided:
a NAME=value line of /etc/ucx/ucx.conf is rewritten; a value from the job environment, or a default,
must be set in the job's environment, for which qoslint prints no command. This is a check of its own,
not part of host-tos, because its fix is not NCCL's and the marking chain draws NCCL's ToS.`,
	Inputs: []Input{NCCL, UCXConf, IBDev2Netdev},
	Run:    runHostAppToS,
}

func runHostAppToS(f *model.Fabric) []Finding {
	var out []Finding
	for _, h := range f.Hosts {
		out = append(out, appFindings(f, h)...)
	}
	return out
}

// appFindings are the findings on one host's applications besides NCCL:
// one per application and knob, judged by the same rules as NCCL_IB_TC
// and NCCL_IB_SL, the message naming the application.
func appFindings(f *model.Fabric, h *model.Host) []Finding {
	if len(h.NICs) == 0 {
		return nil
	}
	nics := make([]string, len(h.NICs))
	for i, n := range h.NICs {
		nics[i] = n.Netdev
	}
	iface := model.CompressNames(nics)
	want := model.ToSOfDSCP(f.Policy.RoCE.DSCP[0])
	var out []Finding
	// A forced traffic_class replaces the ToS of every QP of its port,
	// whichever application made it: those NICs are host-tos's.
	var free []string
	for _, n := range h.NICs {
		if !forcedToS(n) {
			free = append(free, n.Netdev)
		}
	}
	for _, s := range h.AppToS {
		j := judge.AppToS(f.Policy, s.Value.V, len(free) > 0, s.Knob())
		if j.OK {
			continue
		}
		fd := appFinding(h, s, j, strconv.Itoa(want))
		fd.Interface, fd.Expected, fd.Actual = model.CompressNames(free), tosText(want), tosText(s.Value.V)+" via "+s.Knob()
		out = append(out, fd)
	}
	for _, s := range h.AppSL {
		j := judge.AppSL(f.Policy, s.Value.V, s.Knob())
		if j.OK {
			continue
		}
		p := f.Policy.RoCE.Priority
		fd := appFinding(h, s, j, strconv.Itoa(p))
		fd.Interface = iface
		fd.Expected, fd.Actual = fmt.Sprintf("%s %d (PCP %d)", s.Var, p, p), fmt.Sprintf("%s (PCP %d)", s.Knob(), s.Value.V&7)
		out = append(out, fd)
	}
	return out
}

// appFinding fixes s where it was decided: a plain NAME=value line of
// /etc/ucx/ucx.conf is rewritten; for the environment, an unset variable
// or a file line sed cannot address, the message says where to set it.
func appFinding(h *model.Host, s model.AppSetting, j judge.Judgement, want string) Finding {
	msg := j.Reason + "; " + appLayerSays(s)
	var changes []Change
	if s.Layer == model.LayerUCXEtc && s.Plain {
		changes = []Change{{Kind: NCCLConf, Target: model.LayerUCXEtc, Path: []string{s.Var}, Value: want, Old: s.Raw, HasOld: true}}
	} else {
		msg += fmt.Sprintf("; set %s=%s there (qoslint prints no command for it)", s.Var, want)
	}
	if len(s.Unknown) > 0 {
		msg += "; " + joinAnd(s.Unknown) + " " + english.Plural(len(s.Unknown), "was", "were") + " not collected: " + english.Plural(len(s.Unknown), "it", "they") + " may still override it"
	}
	return Finding{Severity: j.Severity, Device: h.Name, Message: msg, Source: at(s.Value.Origin, ""), Changes: changes}
}

// appLayerSays names where an application's setting was decided.
func appLayerSays(s model.AppSetting) string {
	switch s.Layer {
	case model.LayerEnv:
		return "set in the job environment, which beats every file " + s.App + " reads"
	case model.LayerUCXEtc:
		if !s.Plain {
			return "set in " + model.LayerUCXEtc + " (a line sed cannot address as NAME=value)"
		}
		return "set in " + model.LayerUCXEtc
	}
	if s.App == model.AppNVSHMEM {
		return "not set in the job environment, NVSHMEM's only configuration source: set it in the job's environment"
	}
	return "no collected layer sets it: set it in the job's environment or in " + model.LayerUCXEtc
}

// forcedToS reports whether the NIC forces a traffic_class on its QPs.
func forcedToS(n *model.NIC) bool {
	return n.ToS.Forced.Known && n.ToS.Forced.V >= 0
}
