package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var hostETS = &Check{
	ID:       "host-ets",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Warning,
	Title:    "Each NIC schedules the RoCE traffic class as the policy says: an ETS share, or strict",
	Doc: `The NIC's transmit scheduler decides how much of the link RoCE gets when other traffic competes
for it. mlnx_qos prints one "tc: N ratelimit: R, tsa: T" line per traffic class a priority maps to
(Mellanox/mlnx-tools python/mlnx_qos pretty_print): "ets, bw: N%" is a guaranteed share of what the
strict classes leave, "strict" is served before every ETS class, and "vendor" is mlx5's default
(mlx5e_ets_init in Linux drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c sets every class to
IEEE_8021QAZ_TSA_VENDOR): mlx5e_build_tc_group puts the vendor classes in MLX5E_VENDOR_TC_GROUP_NUM,
the highest group, each at the full weight of it (MLX5E_MAX_BW_ALLOC), so they share the link
equally. policy roce.host_tsa says which the RoCE priority's class must use: "ets" (the default, as
the switch's RoCE defaults give traffic class 3 "WRR 50%", CumulusNetworks/docs
content/cumulus-linux-512/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md,
"Default RoCE Configuration"; the hosts' "tsa: ets, bw: 50%" matches it) with a share above 0, or the
vendor default, which gives RoCE an equal share and which NVIDIA's own host recipe (the NIC
Configuration Operator's roceOptimized) leaves in place; or "strict", which only strict meets. The fix is one mlnx_qos --tsa/--tcbw pair, which mlnx_qos and the driver take together
(the ETS shares must add up to 100): the RoCE class gets 50% (100% when it is the only ETS class) and
the other ETS classes share the rest in proportion to their current shares. Classes mlnx_qos does not
print carry no priority; fix and rollback set them to vendor, mlx5's default.`,
	Inputs: []Input{MlnxQoS},
	Run:    runHostETS,
}

func runHostETS(f *model.Fabric) []Finding {
	var out []Finding
	prio, want := f.Policy.RoCE.Priority, f.Policy.RoCE.HostTSA
	nc := nicIter(f, qosFile, hasQos, "ETS", func(h *model.Host, n *model.NIC) {
		tc := int(n.PrioTC[prio])
		if tc < 0 || tc > 7 || !n.TSA.At(tc).Known {
			// mlnx_qos printed no tc block for the priority ("ETS features
			// are not supported on your system", or a tc line without its
			// number): nothing to judge, and guessing the class could
			// blame the wrong one.
			return
		}
		j := judge.HostETS(f.Policy, tc, n.TSA.At(tc).V, int(n.TCBW[tc]))
		if j.OK {
			return
		}
		fin := Finding{
			Severity: j.Severity, Device: h.Name, Interface: n.Netdev, Message: j.Reason,
			Expected: fmt.Sprintf("traffic class %d: %s", tc, wantTSA(want)),
			Actual:   fmt.Sprintf("traffic class %d: %s", tc, tsaText(n.TSA.At(tc).V, int(n.TCBW[tc]))),
			Source:   n.TSA.At(tc).Origin.Pos(),
		}
		fin.Changes = []Change{etsChange(n, tc, want)}
		out = append(out, fin)
	})
	return append(out, nc...)
}

func wantTSA(want string) string {
	if want == "ets" {
		return "ets with a share above 0%"
	}
	return want
}

func tsaText(tsa string, bw int) string {
	if tsa == "ets" {
		return fmt.Sprintf("ets, bw %d%%", bw)
	}
	return tsa
}

// etsChange is the mlnx_qos --tsa/--tcbw that gives the RoCE class tc what
// the policy wants, with the current lists as rollback.
func etsChange(n *model.NIC, tc int, want string) Change {
	var tsa, newTSA [8]string
	var bw [8]int
	for i := range 8 {
		tsa[i] = "vendor"
		if n.TSA.At(i).Known && n.TSA.At(i).V != "unknown" {
			tsa[i], bw[i] = n.TSA.At(i).V, int(n.TCBW[i])
		}
	}
	newTSA = tsa
	newTSA[tc] = want
	return Change{Kind: MlnxQos, Target: n.Netdev,
		Flag: "--tsa", Value: strings.Join(newTSA[:], ","), Old: strings.Join(tsa[:], ","), HasOld: true,
		Flag2: "--tcbw", Value2: bwList(ETSShares(newTSA, bw, tc)), Old2: bwList(bw)}
}

// ETSShares gives the RoCE class tc its share (50%, or 100% as the only
// ETS class; none unless it is ETS) and splits the rest among the other
// ETS classes in proportion to their current shares (equally when all are
// 0), the rounding remainder to the lowest; every non-ETS class gets 0.
// The ETS shares then add up to 100, as mlnx_qos and mlx5 require.
func ETSShares(tsa [8]string, cur [8]int, tc int) [8]int {
	var out [8]int
	var others []int
	total := 0
	for i := range 8 {
		if tsa[i] == "ets" && i != tc {
			others = append(others, i)
			total += cur[i]
		}
	}
	rest := 100
	if tsa[tc] == "ets" {
		out[tc] = 100
		if len(others) > 0 {
			out[tc] = 50
		}
		rest -= out[tc]
	}
	if len(others) == 0 {
		return out
	}
	given := 0
	for _, i := range others {
		if total == 0 {
			out[i] = rest / len(others)
		} else {
			out[i] = rest * cur[i] / total
		}
		given += out[i]
	}
	out[others[0]] += rest - given
	return out
}

func bwList(v [8]int) string {
	s := make([]string, 8)
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
