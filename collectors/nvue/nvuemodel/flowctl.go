package nvuemodel

import (
	"strconv"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/model"
)

// Flow control beside PFC (link pause, the PFC watchdog), the cable length
// PFC headroom is sized for, the switch platform, and the forwarding
// settings adaptive routing and ECMP depend on. Sources, all in the public
// repository CumulusNetworks/docs:
//
//   - Cable length: content/nvue-reference/ (nv set qos roce cable-length)
//     "You can specify a value between 1 and 100000. The default setting is
//     100 meters", and `nv show qos roce` prints `cable-length 100` in
//     lossless mode (content/cumulus-linux-53/.../RDMA-over-Converged-
//     Ethernet-RoCE.md); a PFC profile's `nv set qos pfc <profile>
//     cable-length <value>`: "The default is `10` meters" (content/
//     cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/
//     _index.md, "All PFC commands").
//   - Link pause: the same _index.md, "Link Pause": `nv set qos link-pause
//     my_pause_ports tx enable`, `nv set interface swp1-swp4,swp6 qos
//     link-pause profile my_pause_ports`; "You can not configure link pause
//     and PFC on the same port."
//   - PFC watchdog: the same _index.md, "PFC Watchdog": `nv set interface
//     swp1 qos pfc-watchdog` enables it; "To disable PFC watchdog, run the
//     `nv unset interface <interface> qos pfc-watchdog` command or the `nv
//     set interface <interface> qos pfc-watchdog state disable` command";
//     "You can only enable PFC watchdog on a physical interface (swp)" and
//     "You cannot enable the watchdog on a bond ... but you can enable the
//     watchdog on a port that is a member of a bond". The NVUE reference
//     (content/nvue-reference/, nv set interface <interface-id> qos
//     pfc-watchdog state): "The default setting is `disable`", "Introduced
//     in Cumulus Linux 5.6.0".
//   - Hash seed and resilient hashing: content/cumulus-linux-519/Layer-3/
//     Routing/Equal-Cost-Multipath-Load-Sharing.md: `nv set system
//     forwarding hash-seed 50` ("If you do not specify a value, `switchd`
//     creates a randomly generated seed"); `nv set system forwarding
//     resilient-hash state enabled`, new in 5.19 (content/cumulus-linux-519/
//     Whats-New/New-and-Changed-NVUE-Commands.md); earlier releases set
//     resilient hashing in traffic.conf only, which the NVUE configuration
//     does not show.

// cableFromPFC marks a cable length a pfc profile set; cableFrom names it.
const cableFromPFC = "\x00pfc"

func cableFrom(q *model.QoS, profile string) {
	if q.CableFrom == cableFromPFC {
		q.CableFrom = profile
	}
}

// roceCableLength is the cable length qos roce gives default-global in a
// lossless mode; without PFC from RoCE it is the PFC default.
func (b *switchBuilder) roceCableLength(q *model.QoS, r model.RoCE, n *nvue.Node) {
	if !r.Lossless() {
		q.CableLength = model.Defaulted(model.PFCDefaultCableLength, "pfc cable-length default 10 m")
		q.CableFrom = model.DefaultProfile
		return
	}
	q.CableLength = model.Defaulted(model.RoCEDefaultCableLength, "qos roce cable-length default 100 m")
	q.CableFrom = "roce"
	if n == nil {
		return
	}
	if c := n.Child("cable-length"); c != nil {
		if v, ok := b.intOf(c, 1, 100000); ok {
			q.CableLength = v
		}
	}
}

func (b *switchBuilder) platform(sw *model.Switch, cfg *nvue.Config) {
	for _, h := range cfg.Header {
		if h.Key == "model" {
			sw.Flow.Platform = h.Value
			sw.Flow.ASIC = model.ASICOf(h.Value)
		}
	}
}

// flowControl reads each interface's link pause, PFC watchdog and speed.
// Bond members are read too: the watchdog belongs on them.
func (b *switchBuilder) flowControl(sw *model.Switch, s *ifaceSet) {
	sw.Flow.LinkPause, sw.Flow.Speed = map[string]model.Value[string]{}, map[string]model.Value[string]{}
	for _, name := range s.order {
		for _, n := range s.conf[name].nodes {
			if lp := n.Get("qos", "link-pause"); lp != nil {
				prof := ""
				if p := lp.Child("profile"); p != nil {
					prof = p.Value
				}
				sw.Flow.LinkPause[name] = model.Explicit(prof, b.pos(lp))
			}
			if wd := n.Get("qos", "pfc-watchdog"); wd != nil {
				if sw.Flow.Watchdog.Len() == 0 {
					// Made once, at most the interfaces' number.
					sw.Flow.Watchdog.Grow(len(s.order))
				}
				b.watchdog(sw, name, wd)
			}
			if sp := n.Get("link", "speed"); sp != nil && sp.IsLeaf {
				sw.Flow.Speed[name] = model.Explicit(sp.Value, b.pos(sp))
			}
		}
	}
}

// watchdog: `qos pfc-watchdog` alone (YAML `pfc-watchdog: {}`) turns it on;
// `state enable|disable` sets it.
func (b *switchBuilder) watchdog(sw *model.Switch, name string, wd *nvue.Node) {
	if st := wd.Child("state"); st != nil {
		if v, ok := b.boolOf(st); ok {
			sw.Flow.Watchdog.Set(name, v)
		}
		return
	}
	if wd.IsLeaf && wd.Value != "" {
		if v, ok := b.boolOf(wd); ok {
			sw.Flow.Watchdog.Set(name, v)
		}
		return
	}
	sw.Flow.Watchdog.Set(name, model.Explicit(true, b.pos(wd)))
}

func (b *switchBuilder) forwarding(n *nvue.Node) model.Forwarding {
	f := model.Forwarding{ResilientHash: model.Defaulted(false, "resilient hashing is off by default")}
	if n == nil {
		return f
	}
	if c := n.Child("hash-seed"); c != nil {
		v, err := strconv.ParseInt(c.Value, 10, 64)
		if err != nil || v < 0 || v > 4294967295 {
			b.problem(c, "hash-seed: %q is not a number in 0-4294967295", c.Value)
		} else {
			f.HashSeed = model.Explicit(v, b.pos(c))
		}
	}
	if rh := n.Child("resilient-hash"); rh != nil {
		if st := stateLeaf(rh); st != nil {
			if v, ok := b.boolOf(st); ok {
				f.ResilientHash = v
			}
		}
	}
	return f
}
