package drift

import (
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// firmwareItems are host-firmware on a NIC: each judged mlxconfig
// parameter's Next Boot value. The parameter names carry the port, which
// the NIC's own (netdev) identity keeps; the policy decides which count
// (ROCE_ADAPTIVE_ROUTING_EN only under adaptive routing).
func firmwareItems(l *itemList, n *snapshot.NIC, r *policyRules) {
	got := map[string]*snapshot.FirmwareParam{}
	if n.Firmware != nil {
		for i := range n.Firmware.Params {
			got[n.Firmware.Params[i].Name] = &n.Firmware.Params[i]
		}
	}
	for _, name := range model.FirmwareParamNames(n.Port) {
		it := item{field: "firmware." + name, text: notCollected, say: "mlxconfig " + name + " (next boot) %s", checks: []string{"host-firmware"}}
		switch p := got[name]; {
		case p != nil:
			it.text, it.origin = p.Next, p.Origin
			it.judge("host-firmware", judge.FirmwareParam(r.p, n.Port, name, p.Next))
		case n.Firmware != nil:
			it.text = "not in mlxconfig's output"
		}
		l.add(it)
	}
}
