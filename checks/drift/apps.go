package drift

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// appItems are host-nccl-qps, host-nccl-fifo-tc and host-app-tos on a host (section
// applications). A value that would break the policy carries in its text
// what else spares it (a forced traffic_class on every NIC, no sign that
// NCCL runs), so a verdict that changes with it is a change of the item,
// and a value right either way is no noise.
func appItems(l *itemList, h *snapshot.Host, r *policyRules) {
	a := h.Applications
	if a == nil {
		return
	}
	q := a.NCCLQPsPerConn
	judged := judge.NCCLQPsJudged(len(h.NICs) > 0, q.Known, a.NCCLQPsLayer == model.LayerDefault, h.NCCLFile != "")
	qt := intText(q)
	if q.Known {
		qt += " (" + a.NCCLQPsLayer + ")"
		if !judged && len(h.NICs) > 0 && judge.NCCLQPs(r.p, q.Value).Breaks() {
			qt += ", no nccl.conf collected"
		}
	}
	qps := item{field: "nccl_ib_qps_per_connection", text: qt, origin: q.Origin, say: "NCCL_IB_QPS_PER_CONNECTION %s"}
	qps.judge("host-nccl-qps", judgeIf(judged, func() judge.Judgement { return judge.NCCLQPs(r.p, q.Value) }))
	l.add(qps)
	anyFree := false
	for i := range h.NICs {
		anyFree = anyFree || !forced(&h.NICs[i])
	}
	ft := a.NCCLFifoTC
	fj := judge.NCCLFifoTCJudged(len(h.NICs) > 0, ft.Known, a.NCCLFifoTCLayer == model.LayerDefault)
	fifo := unsetText(ft)
	if ft.Known {
		fifo += " (" + a.NCCLFifoTCLayer + ")"
		if fj && !anyFree && judge.NCCLFifoTC(r.p, ft.Value, true, "").Breaks() {
			fifo += ", replaced by every NIC's forced traffic_class"
		}
	}
	fit := item{field: "nccl_ib_fifo_tc", text: fifo, origin: ft.Origin, say: "NCCL_IB_FIFO_TC %s"}
	fit.judge("host-nccl-fifo-tc", judgeIf(fj, func() judge.Judgement {
		return judge.NCCLFifoTC(r.p, ft.Value, anyFree, "NCCL_IB_FIFO_TC="+strconv.Itoa(ft.Value))
	}))
	l.add(fit)
	for _, s := range a.ToS {
		it := appItem("app_tos.", "ToS", s, len(h.NICs) > 0 && !anyFree && judge.ToS(r.p, s.Value.Value, "").Breaks())
		it.judge("host-app-tos", judgeIf(s.Value.Known, func() judge.Judgement {
			return judge.AppToS(r.p, s.Value.Value, anyFree, s.Knob)
		}))
		l.add(it)
	}
	for _, s := range a.SL {
		it := appItem("app_sl.", "SL", s, false)
		it.judge("host-app-tos", judgeIf(s.Value.Known && len(h.NICs) > 0, func() judge.Judgement {
			return judge.AppSL(r.p, s.Value.Value, s.Knob)
		}))
		l.add(it)
	}
}

// appItem's text is the value, what set it and the layer that decided.
func appItem(prefix, what string, s snapshot.AppSetting, allForced bool) item {
	layer := s.Layer
	if layer == model.LayerDefault {
		layer = s.App + "'s default"
	}
	t := intText(s.Value) + " (" + s.Knob + "; " + layer + ")"
	if allForced {
		t += ", replaced by every NIC's forced traffic_class"
	}
	return item{field: prefix + s.Var, text: t, origin: s.Value.Origin, say: s.App + " " + what + " %s"}
}

// rdmaCMToSItem is host-rdma-cm-tos on a NIC's RDMA-CM default_roce_tos.
func rdmaCMToSItem(l *itemList, n *snapshot.NIC, r *policyRules) {
	t := n.RDMACMToS
	if t == nil {
		return
	}
	f := forced(n)
	txt := intText(*t)
	if t.Known && f && judge.ToS(r.p, t.Value, "").Breaks() {
		txt += ", replaced by the forced traffic_class"
	}
	it := item{field: "rdma_cm_default_roce_tos", text: txt, origin: t.Origin, say: "RDMA-CM default_roce_tos %s"}
	it.judge("host-rdma-cm-tos", judgeIf(t.Known, func() judge.Judgement {
		return judge.RDMACMToS(r.p, t.Value, f, fmt.Sprintf("RDMA-CM's default_roce_tos %d on %s port %d", t.Value, n.IBDev, n.Port))
	}))
	l.add(it)
}

// forced: the NIC forces a traffic_class on every QP (checks' forcedToS).
func forced(n *snapshot.NIC) bool {
	return n.ToS.Forced.Known && n.ToS.Forced.Value >= 0
}
