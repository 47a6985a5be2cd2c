package nvuemodel

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/nvrange"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// Packet trimming and the remark profiles it uses. Public sources, all in
// the repository CumulusNetworks/docs:
//
//	Trim514 = content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md
//	Trim515 = content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md
//	Trim519 = content/cumulus-linux-519/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md
//	TrimRef = content/nvue-reference/Set-and-Unset-Commands/Packet-Trimming.md
//	RoCE515 = content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md
//
// What changed between releases: Trim514 gives the global remark DSCP a
// default ("The default value is 11") and eligibility one ("By default,
// port eligibility is disabled for all ports and traffic classes"), which
// Trim515 and later no longer state; Trim514 lets lossy-multi-tc remark
// per port with no `qos remark profile` binding in its example, while
// Trim515 adds "Apply the port profiles" with `nv set interface swp1-16 qos
// remark profile lossy-multi-tc-host-group`; Trim514 and Trim515 forbid
// trimming with WJH buffer drops, Trim519 has that sentence commented out
// ("REMOVED FROM 5.18 - WJH NO LONGER IN DOCKER CONTAINER"). Every release
// sets the default profile with `nv set system forwarding packet-trim
// profile packet-trim-default` (TrimRef's heading) though one example of
// each page writes `nv set system forwarding packet-trim
// packet-trim-default`, without `profile`.

// defaultTrimWhy is the origin text of a packet-trim-default value; via
// is how the profile came in.
func defaultTrimWhy(via, what string) string {
	return via + ": " + what + " (Packet-Trimming.md, \"Global Level Packet Trimming with Default Profile\")"
}

// packetTrim reads `system forwarding packet-trim`, the interfaces'
// packet-trim and qos remark, `qos remark` and the WJH channels.
func (b *switchBuilder) packetTrim(sw *model.Switch, root *nvue.Node) *model.PacketTrim {
	t := &model.PacketTrim{
		Enabled:    model.Defaulted(false, "packet trimming is not configured (off by default)"),
		Profile:    model.Defaulted("", "no packet trimming profile"),
		PortLevel:  model.Defaulted(false, "global remark (no `remark dscp port-level`)"),
		AllPorts:   model.Defaulted([]int(nil), "port eligibility is disabled by default (CL 5.14 Packet-Trimming.md)"),
		Eligible:   map[string]model.Value[[]int]{},
		Remark:     map[string]*model.RemarkProfile{},
		RemarkBind: map[string]model.Value[string]{},
	}
	t.Size = model.Value[int]{Origin: model.Because("size not configured; its default without packet-trim-default is not documented")}
	t.SwitchPriority = model.Value[int]{Origin: model.Because("switch-priority not configured; its default without packet-trim-default is not documented")}
	t.ServicePort = model.Value[string]{Origin: model.Because("the last service port on the switch (not named in the configuration)")}
	// "Set the DSCP value to be marked on the trimmed packets ... The
	// default value is 11" (Trim514); later pages drop the sentence.
	dscpWhy := "remark dscp default 11 (CL 5.14 Packet-Trimming.md)"
	if !sw.Before(5, 15) {
		dscpWhy = "remark dscp not configured: documented as 11 in CL 5.14 only, assumed 11"
	}
	t.DSCP = model.Defaulted(11, dscpWhy)

	if sw.RoCE.Enabled.V && sw.RoCE.Mode.V == "lossy-multi-tc" {
		// "When you enable lossy-multi-tc mode, the switch enables Packet
		// trimming with the packet-trim-default configuration" (RoCE515).
		via := model.NewOrigin(sw.RoCE.Mode.Origin.Pos(), "qos roce mode lossy-multi-tc enables packet trimming with packet-trim-default")
		t.Enabled = model.Value[bool]{V: true, Known: true, Origin: via}
		t.Profile = model.Value[string]{V: model.TrimDefaultProfile, Known: true, Origin: via}
	}
	n := root.Get("system", "forwarding", "packet-trim")
	if n != nil && n.IsLeaf {
		b.problem(n, "system forwarding packet-trim %q is not an NVUE setting: the default profile is `nv set system forwarding packet-trim profile %s` (one example of the Packet-Trimming pages leaves out `profile`)", n.Value, model.TrimDefaultProfile)
		n = nil
	}
	if n != nil {
		if p := n.Child("profile"); p != nil {
			if p.Value == model.TrimDefaultProfile {
				t.Profile = model.Explicit(p.Value, b.pos(p))
				t.Enabled = model.Value[bool]{V: true, Known: true, Origin: model.NewOrigin(b.pos(p), "profile packet-trim-default enables packet trimming")}
			} else {
				b.problem(p, "packet-trim profile %q: NVUE documents only %s", p.Value, model.TrimDefaultProfile)
			}
		}
		if st := stateLeaf(n); st != nil {
			if v, ok := b.boolOf(st); ok {
				t.Enabled = v
			}
		}
	}
	if t.Profile.V == model.TrimDefaultProfile {
		via := model.TrimDefaultProfile
		if t.Profile.Origin.IsDefault() {
			via = "lossy-multi-tc uses " + model.TrimDefaultProfile
		}
		at := t.Profile.Origin.Pos()
		t.DSCP = model.BoundAt(at, 11, defaultTrimWhy(via, "DSCP remark value 11"))
		t.Size = model.BoundAt(at, 256, defaultTrimWhy(via, "truncation size 256 bytes"))
		t.SwitchPriority = model.BoundAt(at, 4, defaultTrimWhy(via, "switch priority 4"))
		t.AllPorts = model.BoundAt(at, []int{1, 2, 3}, defaultTrimWhy(via, "eligibility all ports, traffic class 1, 2 and 3"))
		b.defaultRemarkProfiles(t, at, via)
	}
	if n != nil {
		b.trimLeaves(t, n)
		if !t.Enabled.V && t.Enabled.Origin.IsDefault() {
			// A later `nv set system forwarding packet-trim remark ...`
			// turns the guides' `packet-trim packet-trim-default` (no
			// `profile`) into an object, so the typo leaves no trace but
			// this.
			b.note(sw, n.Line, "system forwarding packet-trim is configured but never enabled (no `state enabled`, no `profile %s`, no qos roce mode lossy-multi-tc): packet trimming is off", model.TrimDefaultProfile)
		}
	}
	b.remarkProfiles(t, root.Get("qos", "remark"))
	b.trimInterfaces(t)
	t.WJHBuffer = b.wjhBuffer(root.Get("system", "wjh", "channel"))
	if t.ServicePort.Known {
		t.ServiceSettings = b.serviceSettings(t.ServicePort.V)
	}
	return t
}

func (b *switchBuilder) trimLeaves(t *model.PacketTrim, n *nvue.Node) {
	if r := n.Get("remark", "dscp"); r != nil {
		switch {
		case r.Value == "port-level":
			t.PortLevel = model.Explicit(true, b.pos(r))
		default:
			if v, ok := b.intOf(r, 0, 63); ok {
				t.DSCP, t.PortLevel = v, model.Explicit(false, b.pos(r))
			}
		}
	}
	if s := n.Child("size"); s != nil {
		v, err := strconv.Atoi(s.Value)
		if err != nil || v < model.TrimSizeMin || v > model.TrimSizeMax || v%4 != 0 {
			// "You can specify a value between 256 and 1024; the value
			// must be a multiple of 4." (Trim515)
			b.problem(s, "packet-trim size %q: NVUE accepts %d-%d bytes, a multiple of 4", s.Value, model.TrimSizeMin, model.TrimSizeMax)
		} else {
			t.Size = model.Explicit(v, b.pos(s))
		}
	}
	if sp := n.Child("switch-priority"); sp != nil {
		if v, ok := b.intOf(sp, 0, 7); ok {
			t.SwitchPriority = v
		}
	}
	if sp := n.Child("service-port"); sp != nil {
		if names, err := nvrange.ExpandNames(sp.Value); err != nil || len(names) != 1 || !sp.IsLeaf {
			b.problem(sp, "packet-trim service-port %q: one interface name expected", sp.Value)
		} else {
			t.ServicePort = model.Explicit(names[0], b.pos(sp))
		}
	}
}

// defaultRemarkProfiles are the two profiles packet-trim-default uses.
func (b *switchBuilder) defaultRemarkProfiles(t *model.PacketTrim, at source.Pos, via string) {
	for _, p := range []struct {
		name string
		dscp int
	}{{model.RemarkHostGroup, 21}, {model.RemarkNetworkGroup, 11}} {
		t.Remark[p.name] = &model.RemarkProfile{Name: p.name, DSCP: map[int]model.Value[int]{
			4: model.BoundAt(at, p.dscp, fmt.Sprintf("%s: %s sets DSCP %d for switch priority 4 (Packet-Trimming.md)", via, p.name, p.dscp)),
		}}
	}
}

// remarkProfiles reads `qos remark <profile>`: `rewrite l2|l3|both` and
// `switch-priority <sp> dscp <dscp>` ("nv set qos remark
// remark_port_group2 switch-priority 0 dscp 37", QoS _index.md,
// "Remarking"). The profile default-global remarks nothing unless it
// lists a switch priority.
func (b *switchBuilder) remarkProfiles(t *model.PacketTrim, n *nvue.Node) {
	if n == nil {
		return
	}
	for _, c := range n.Children {
		names, err := nvrange.ExpandNames(c.Key)
		if err != nil {
			b.problem(c, "qos remark %q: %v", c.Key, err)
			continue
		}
		for _, name := range names {
			p := t.Remark[name]
			if p == nil {
				p = &model.RemarkProfile{Name: name, DSCP: map[int]model.Value[int]{}}
				t.Remark[name] = p
			}
			p.Pos = b.pos(c)
			if rw := c.Child("rewrite"); rw != nil {
				switch rw.Value {
				case "l2", "l3", "both":
					p.Rewrite = model.Explicit(rw.Value, b.pos(rw))
				default:
					// "Rewrite values are l2, l3, or both" (NVUE reference).
					b.problem(rw, "qos remark %s rewrite %q: NVUE accepts l2, l3 or both", name, rw.Value)
				}
			}
			b.eachInt(c.Child("switch-priority"), 0, 7, func(sp int, s *nvue.Node) {
				if d := s.Child("dscp"); d != nil {
					if v, ok := b.intOf(d, 0, 63); ok {
						p.DSCP[sp] = v
					}
				}
			})
		}
	}
	if p, ok := t.Remark[model.DefaultProfile]; ok && len(p.DSCP) == 0 && !p.Rewrite.Known {
		// `remark: default-global: {}` is in every applied dump.
		delete(t.Remark, model.DefaultProfile)
	}
}

// trimInterfaces reads each interface's egress eligibility and qos remark
// binding. Eligibility collections merge across the keys that name an
// interface (`swp1-32` and `swp5` may both list classes).
func (b *switchBuilder) trimInterfaces(t *model.PacketTrim) {
	s := b.ifaces
	t.BondOf = s.bondOf
	for _, name := range s.order {
		c := s.conf[name]
		var tcs []int
		var at *nvue.Node
		for _, n := range c.nodes {
			if e := n.Get("packet-trim", "egress-eligibility", "traffic-class"); e != nil {
				tcs = append(tcs, b.members(e, 0, 7)...)
				at = e
			}
			if pn := n.Get("qos", "remark", "profile"); pn != nil {
				t.RemarkBind[name] = model.Explicit(pn.Value, b.pos(pn))
			}
		}
		if at == nil {
			continue
		}
		slices.Sort(tcs)
		v := model.Explicit(slices.Compact(tcs), b.pos(at))
		switch k := s.kind(name); k {
		case "port", "member":
			t.Eligible[name] = v
		case "bond":
			t.NotPhysical = append(t.NotPhysical, model.TrimPort{Port: name, What: "a bond", TCs: v})
		case "split":
			t.NotPhysical = append(t.NotPhysical, model.TrimPort{Port: name, What: "split by a breakout", TCs: v})
		default:
			t.NotPhysical = append(t.NotPhysical, model.TrimPort{Port: name, What: "not a physical port (" + k + ")", TCs: v})
		}
	}
}

// wjhBuffer lists the channels with `trigger buffer`: "The following
// example configures a channel to monitor buffer packet drops ... nv set
// system wjh channel buffer trigger buffer" (content/cumulus-linux-515/
// Monitoring-and-Troubleshooting/Network-Troubleshooting/Mellanox-WJH.md).
func (b *switchBuilder) wjhBuffer(n *nvue.Node) []model.Value[string] {
	if n == nil {
		return nil
	}
	var out []model.Value[string]
	for _, ch := range n.Children {
		tr := ch.Child("trigger")
		if tr == nil {
			continue
		}
		if tr.IsLeaf && tr.Value == "buffer" {
			out = append(out, model.Explicit(ch.Key, b.pos(tr)))
		} else if m := tr.Child("buffer"); m != nil {
			out = append(out, model.Explicit(ch.Key, b.pos(m)))
		}
	}
	return out
}

// serviceKinds are the settings "When you enable packet trimming, do not
// configure packet trimming port eligibility, port security, adaptive
// routing, QoS, ACLs, PTP, VRR, PBR, telemetry, or histograms on the
// service port" names, at their NVUE paths below the interface:
// `packet-trim egress-eligibility`, `port-security` (Port-Security.md),
// `router adaptive-routing`, `qos`, `acl <acl-id> inbound` (ACL.md), `ptp`
// (PTP.md), `ip vrr` (VRR.md), `router pbr map` (PBR.md), `telemetry
// histogram ingress-buffer` (histograms) and the rest of `telemetry`.
var serviceKinds = []struct {
	path []string
	what string
}{
	{[]string{"packet-trim"}, "packet trimming port eligibility"},
	{[]string{"port-security"}, "port security"},
	{[]string{"router", "adaptive-routing"}, "adaptive routing"},
	{[]string{"qos"}, "QoS"},
	{[]string{"acl"}, "ACLs"},
	{[]string{"ptp"}, "PTP"},
	{[]string{"ip", "vrr"}, "VRR"},
	{[]string{"ipv4", "vrr"}, "VRR"},
	{[]string{"router", "pbr"}, "PBR"},
	{[]string{"telemetry", "histogram"}, "histograms"},
	{[]string{"telemetry"}, "telemetry"},
}

// serviceSettings lists what the configuration sets on the service port
// and, when it is a bond ("you can configure a bond on the service ports,
// then use the bond for the packet trimming service port"), on its members.
func (b *switchBuilder) serviceSettings(port string) []model.ServicePortSetting {
	s := b.ifaces
	ifaces := append([]string{port}, s.members[port]...)
	var out []model.ServicePortSetting
	for _, iface := range ifaces {
		c := s.conf[iface]
		if c == nil {
			continue
		}
		byWhat := map[string]*model.ServicePortSetting{}
		var order []string
		for _, n := range c.nodes {
			for _, k := range serviceKinds {
				node := n.Get(k.path...)
				if node == nil {
					continue
				}
				var leaves []model.NVLeaf
				collectLeaves(node, k.path, &leaves, k.path[0] == "telemetry" && len(k.path) == 1)
				if len(leaves) == 0 {
					continue
				}
				set := byWhat[k.what]
				if set == nil {
					set = &model.ServicePortSetting{Iface: iface, What: k.what, At: b.pos(node)}
					byWhat[k.what] = set
					order = append(order, k.what)
				}
				set.Leaves = append(set.Leaves, leaves...)
			}
		}
		for _, w := range order {
			out = append(out, *byWhat[w])
		}
	}
	return out
}

// collectLeaves lists the leaves below n (path is n's path); a member
// without children is a bare object. skipHistogram leaves out
// `telemetry histogram`, reported apart.
func collectLeaves(n *nvue.Node, path []string, out *[]model.NVLeaf, skipHistogram bool) {
	if n.IsLeaf {
		*out = append(*out, model.NVLeaf{Path: slices.Clone(path), Value: n.Value, IsLeaf: true})
		return
	}
	if len(n.Children) == 0 {
		*out = append(*out, model.NVLeaf{Path: slices.Clone(path)})
		return
	}
	for _, c := range n.Children {
		if skipHistogram && c.Key == "histogram" {
			continue
		}
		collectLeaves(c, append(slices.Clone(path), c.Key), out, false)
	}
}
