package model

import (
	"strings"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
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

// RoCEDefaultCableLength is `qos roce cable-length`'s default (metres).
const RoCEDefaultCableLength = 100

// PFCDefaultCableLength is a PFC profile's default cable-length (metres).
const PFCDefaultCableLength = 10

// FlowControl is what the interfaces configure beside the QoS profiles.
type FlowControl struct {
	// Platform is the header's `model:` (MSN4700, SN5600), else the
	// inventory's platform (PlatformFrom its line); ASIC the Spectrum
	// generation it is documented as, "" when not known.
	Platform, ASIC string
	PlatformFrom   source.Pos
	// LinkPause maps each interface with `qos link-pause` to its profile
	// ("" for `qos link-pause` alone).
	LinkPause map[string]Value[string]
	// Watchdog maps each interface that sets `qos pfc-watchdog` to whether
	// it is on; an interface absent is off (the default).
	Watchdog PortMap[Value[bool]]
	// Speed maps each interface with `link speed` to it (400G, 200G, ...).
	Speed map[string]Value[string]
	// ARUnsupported are the interfaces of a kind Cumulus Linux does not
	// support adaptive routing on, with adaptive routing set on.
	ARUnsupported []ARPort
}

// ARPort is adaptive routing set on one interface; What names its kind
// ("bonds", "SVIs").
type ARPort struct {
	Port, What string
	V          Value[bool]
}

// Forwarding is `system forwarding` beside the ecmp-hash fields.
type Forwarding struct {
	// HashSeed is the explicit hash-seed; not Known when switchd picks a
	// random one (the default).
	HashSeed Value[int64]
	// ResilientHash is `resilient-hash state`; off by default.
	ResilientHash Value[bool]
}

// InventoryPlatform gives a switch the inventory's platform where its
// configuration names none: `nv config show -o commands` prints no header,
// nor do NVIDIA's generated command files. A header that names another
// model wins, and a note says they differ.
func InventoryPlatform(sw *Switch, is inventory.Switch, invFile string) {
	if is.Platform == "" || sw.ConfigFile == "" {
		return
	}
	if sw.Flow.Platform == "" {
		sw.Flow.Platform, sw.Flow.ASIC = is.Platform, ASICOf(is.Platform)
		sw.Flow.PlatformFrom = source.Pos{File: invFile, Line: is.PlatformLine}
		return
	}
	if !strings.EqualFold(strings.TrimPrefix(strings.ToUpper(sw.Flow.Platform), "M"), strings.TrimPrefix(strings.ToUpper(is.Platform), "M")) {
		sw.Notes = append(sw.Notes, source.Errorf(invFile, is.PlatformLine,
			"switch %s: the inventory's platform %s differs from the configuration header's %s, which is used", sw.Name, is.Platform, sw.Flow.Platform))
	}
}

// NotePlatform says, once per switch, that the ASIC adaptive routing and
// packet trimming need ("Switches with the Spectrum-4 and later ASIC",
// "Cumulus Linux supports packet trimming on Spectrum-4 and later") is not
// known, so those limits are not judged.
func NotePlatform(sw *Switch) {
	if sw.Flow.ASIC != "" {
		return
	}
	var uses []string
	line := 0
	if sw.AR.V {
		uses, line = append(uses, "adaptive routing"), sw.AR.Origin.Pos().Line
	}
	if sw.Trim != nil && sw.Trim.Enabled.V {
		uses = append(uses, "packet trimming")
		if line == 0 {
			line = sw.Trim.Enabled.Origin.Pos().Line
		}
	}
	if len(uses) == 0 {
		return
	}
	what := "the configuration names no platform (an inventory switch's platform names it where the configuration has no header)"
	if sw.Flow.Platform != "" {
		what = "platform " + sw.Flow.Platform + " is not one whose ASIC the documentation names here"
	}
	use := strings.Join(uses, " and ")
	sw.Notes = append(sw.Notes, source.Errorf(sw.ConfigFile, line,
		"%s is on, but %s: whether the switch is a Spectrum-4 or later (which %s needs) is not checked", use, what, use))
}

// WatchdogRelease is the first release with the PFC watchdog ("Introduced
// in Cumulus Linux 5.6.0", NVUE command reference).
const WatchdogRelease = "5.6"

// Before reports whether the switch's release is known and older than
// major.minor; a switch without a version is not.
func (s *Switch) Before(major, minor int) bool { return olderThan(s.Version, major, minor) }
