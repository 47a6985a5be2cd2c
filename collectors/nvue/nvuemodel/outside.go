package nvuemodel

import (
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// The ports outside the inventory's ports list that RoCE NICs plug into
// (model/outside.go) get their QoS from the switch's builder, kept on the
// switch until the links are known.

// Interfaces are every interface the configuration names (ranges
// expanded), so that LLDP from a host resolves a port outside the checked
// ones. An interface NVUE does not configure stays administratively down
// on Cumulus Linux, so a cable LLDP sees is on a configured one.
func (b *switchBuilder) Interfaces() []string {
	if b.ifaces == nil {
		return nil
	}
	return b.ifaces.order
}

// AddPort gives an interface outside the checked ports its QoS and
// MTU: the bond's for a bond member (NVUE applies QoS on the bond, whose
// members inherit it), the port's own for a front-panel or split port. It
// returns the port given QoS, "" when the interface is none of those (a
// breakout parent, a subinterface), and the input problems the bindings
// raise (a profile bound but not defined).
func (b *switchBuilder) AddPort(sw *model.Switch, iface string) (string, []*source.Error) {
	if b.ifaces == nil {
		return "", nil
	}
	s := b.ifaces
	port := iface
	if bond := s.bondOf[iface]; bond != "" {
		port = bond
	}
	if k := s.kind(port); k != "port" && k != "bond" {
		return "", nil
	}
	if _, ok := sw.PortQoS[port]; ok {
		return port, nil
	}
	def := model.Defaulted(model.DefaultProfile, "no profile binding")
	bd := binding{mapping: def, pfc: def, ecn: def, sched: def}
	sw.MTU[port] = model.Defaulted(9216, model.DefaultMTUWhy)
	if c := s.conf[port]; c != nil {
		for _, n := range c.nodes {
			for _, f := range qosFeatures {
				if pn := n.Get("qos", f, "profile"); pn != nil {
					*bd.field(f) = model.Explicit(pn.Value, b.pos(pn))
				}
			}
			if mtu := n.Get("link", "mtu"); mtu != nil {
				if v, ok := b.intOf(mtu, 552, 9216); ok {
					sw.MTU[port] = v
				}
			}
		}
	}
	saved := len(b.problems)
	sw.PortQoS[port] = b.boundQoS(bd)
	sw.Outside = append(sw.Outside, port)
	return port, b.problems[saved:]
}
