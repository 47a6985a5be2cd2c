package drift

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// ncclGIDParamItems are the host's NCCL GID parameters; host-roce-version
// judges them per NIC (roceVersionItems), so here they are only listed.
func ncclGIDParamItems(l *itemList, h *snapshot.Host) {
	if h.NCCLGIDIndex != nil {
		l.add(item{field: "nccl_ib_gid_index", text: text(*h.NCCLGIDIndex, func(v int) string {
			if v < 0 {
				return "unset (NCCL chooses)"
			}
			return strconv.Itoa(v)
		}), origin: h.NCCLGIDIndex.Origin, say: "NCCL_IB_GID_INDEX %s", checks: []string{"host-roce-version"}})
	}
	if h.NCCLRoCEVersion != nil {
		l.add(item{field: "nccl_ib_roce_version_num", text: intText(*h.NCCLRoCEVersion), origin: h.NCCLRoCEVersion.Origin,
			say: "NCCL_IB_ROCE_VERSION_NUM %s", checks: []string{"host-roce-version"}})
	}
}

// roceVersionItems are host-roce-version on one NIC: RDMA-CM's default
// RoCE mode, and the GID NCCL uses, whose text names everything the
// verdict reads (the index, the entry's type or, when NCCL chooses, the
// version it prefers and the RoCE v2 entries it can find).
func roceVersionItems(l *itemList, h *snapshot.Host, n *snapshot.NIC) {
	rv := n.RoCEVersion
	if rv == nil {
		return
	}
	m := rv.RDMACMMode
	cm := item{field: "rdma_cm_default_roce_mode", text: strText(m), origin: m.Origin, say: "RDMA-CM default RoCE mode %s"}
	cm.judge("host-roce-version", judgeIf(m.Known, func() judge.Judgement { return judge.RDMACMMode(m.Value) }))
	l.add(cm)
	it := item{field: "nccl_gid", text: notCollected, say: "NCCL's GID %s"}
	if rv.GIDTypesCollected && h.NCCLGIDIndex != nil && h.NCCLGIDIndex.Known {
		g := judge.NCCLGIDUse{Index: h.NCCLGIDIndex.Value, Type: rv.NCCLGIDType.Value, HasType: rv.NCCLGIDType.Known, AnyV2: len(rv.RoCEv2GIDs) > 0}
		if v := h.NCCLRoCEVersion; v != nil {
			g.Version, g.VersionKnown = v.Value, v.Known
		}
		it.text, it.origin = ncclGIDText(g, rv.RoCEv2GIDs), rv.NCCLGIDType.Origin
		if g.Index < 0 && h.NCCLRoCEVersion != nil {
			it.origin = h.NCCLRoCEVersion.Origin
		}
		it.judge("host-roce-version", judge.NCCLGID(g))
	}
	l.add(it)
}

func ncclGIDText(g judge.NCCLGIDUse, v2 []int) string {
	switch {
	case g.Index >= 0 && g.HasType:
		return fmt.Sprintf("index %d, type %s", g.Index, g.Type)
	case g.Index >= layout.GIDTypesRead:
		return fmt.Sprintf("index %d, beyond the entries read", g.Index)
	case g.Index >= 0:
		return fmt.Sprintf("index %d, no such GID", g.Index)
	}
	s := "chosen by NCCL, "
	if g.VersionKnown {
		s += fmt.Sprintf("preferring RoCE v%d", g.Version)
	} else {
		s += "preferred version not known"
	}
	if len(v2) == 0 {
		return s + ", no RoCE v2 GID"
	}
	return s + ", RoCE v2 GIDs " + model.CompressInts(v2)
}
