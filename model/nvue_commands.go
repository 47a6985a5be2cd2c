package model

import (
	"fmt"
	"strings"
)

// Span is the releases a command or a value exists in: Since on, up to and
// including Until (zero: every release since).
type Span struct{ Since, Until CLRelease }

// In reports whether release r is in the span.
func (s Span) In(r CLRelease) bool {
	return !r.Before(s.Since) && (s.Until.IsZero() || !s.Until.Before(r))
}

func (s Span) String() string {
	if s.Until.IsZero() {
		return "introduced in " + s.Since.String() + ".0"
	}
	return fmt.Sprintf("%s.0 to %s", s.Since, s.Until)
}

// NVUECommand is one NVUE command path qoslint prints, with the releases
// that accept it. Path is the words after `nv set`/`nv unset`; a word in
// angle brackets (<if>, <profile>) stands for any one word.
type NVUECommand struct {
	Path string
	// Leaf: `nv set` gives the command a value, the word after Path; an
	// object (Leaf false) is set bare, its last word a key.
	Leaf bool
	Span
	// Words, when set, are every value the leaf takes, each with its own
	// releases; nil means any word (a number, a profile name).
	Words []NVUEWord
	// Renamed is the path that replaces this one after Until.
	Renamed string
	// Source is the public page and Quote the sentence that dates it.
	Source, Quote string
}

// NVUEWord is one value of a leaf and the releases that spell it so.
type NVUEWord struct {
	Word string
	Span
	Source, Quote string
}

// Public sources of the table: the NVUE command reference's "Version
// History" per command, and the user guides and What's New pages of the
// releases before it or where the reference is silent.
const (
	refQoS   = "CumulusNetworks/docs content/nvue-reference/Set-and-Unset-Commands/QoS.md"
	refIface = "CumulusNetworks/docs content/nvue-reference/Set-and-Unset-Commands/Interface.md"
	refAR    = "CumulusNetworks/docs content/nvue-reference/Set-and-Unset-Commands/Adaptive-Routing.md"
	refFwd   = "CumulusNetworks/docs content/nvue-reference/Set-and-Unset-Commands/System-Forwarding.md"
	refTrim  = "CumulusNetworks/docs content/nvue-reference/Set-and-Unset-Commands/Packet-Trimming.md"
	guide50  = "CumulusNetworks/docs content/cumulus-linux-50/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md"
	guide514 = "CumulusNetworks/docs content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md"
	guide518 = "CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md"
	guide519 = "CumulusNetworks/docs content/cumulus-linux-519/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md"
	// guide519Fwd is the 5.19 ECMP page, which documents resilient hashing.
	guide519Fwd = "CumulusNetworks/docs content/cumulus-linux-519/Layer-3/Routing/Equal-Cost-Multipath-Load-Sharing.md"
	new514      = "CumulusNetworks/docs content/cumulus-linux-514/Whats-New/_index.md"
	changed515  = "CumulusNetworks/docs content/cumulus-linux-515/Whats-New/New-and-Changed-NVUE-Commands.md"
	new517      = "CumulusNetworks/docs content/cumulus-linux-517/Whats-New/New-and-Removed-NVUE-Commands.md"
	new518      = "CumulusNetworks/docs content/cumulus-linux-518/Whats-New/_index.md"
	new519      = "CumulusNetworks/docs content/cumulus-linux-519/Whats-New/New-and-Removed-NVUE-Commands.md"
)

func rel(minor int) CLRelease { return CLRelease{5, minor} }

func since(minor int) Span      { return Span{Since: rel(minor)} }
func between(from, to int) Span { return Span{Since: rel(from), Until: rel(to)} }
func intro(minor int) string    { return fmt.Sprintf("Introduced in Cumulus Linux 5.%d.0", minor) }
func refQuote(cmd string, minor int) string {
	return fmt.Sprintf("## nv set %s ... Version History: %s", cmd, intro(minor))
}

// words builds the values of a leaf that share one span and source.
func words(s Span, source, quote string, ws ...string) []NVUEWord {
	out := make([]NVUEWord, len(ws))
	for i, w := range ws {
		out[i] = NVUEWord{Word: w, Span: s, Source: source, Quote: quote}
	}
	return out
}

// The boolean spellings. Up to 5.14 NVUE says `enable on|off` and bare
// on|off, 5.15 renamed them (the changed515 table, e.g. "| `nv set qos roce
// enable on\|off` | `nv set qos roce state enabled\|disabled` |"). The QoS
// leaves pfc tx/rx, congestion-control ecn/red and link-pause tx/rx have no
// row in that table and every user guide 5.3 to 5.19 spells them
// enable/disable, in commands and in `nv show` output alike:
// "nv set qos pfc default-global tx enable", "nv set qos congestion-control
// default-global traffic-class 0 ecn disable" and the `nv show qos
// congestion-control` column "ECN ... enable" (guide514, guide518,
// guide519). The command reference's current example says "nv set qos
// congestion-control default-global traffic-class 4,5,7 ecn enabled" (its
// earlier versions "... ecn enable"); qoslint follows the user guides,
// which document each release and agree with what the switch prints, and
// does not print `enabled` there (TestECNSpellingSources holds both quotes).
func onOff(s Span, source, quote string) []NVUEWord { return words(s, source, quote, "on", "off") }
func enabledDisabled(s Span, source, quote string) []NVUEWord {
	return words(s, source, quote, "enabled", "disabled")
}
func enableDisable(s Span, source, quote string) []NVUEWord {
	return words(s, source, quote, "enable", "disable")
}

// nvueCommands is every NVUE command path qoslint prints, in render
// (render.SwitchChanges, UplinkARChanges) and in the checks' fixes,
// including those of checks still to come (packet trimming). The test
// TestEveryPrintedCommandIsInTheTable fails on a printed command missing
// from it.
var nvueCommands = func() []NVUECommand {
	cs := []NVUECommand{
		// qos roce exists from 5.0: "To configure RoCE with PFC and ECN: nv
		// set qos roce", "nv set qos roce mode lossy" (guide50); the
		// reference dates enable/state, mode and cable-length 5.0.0.
		{Path: "qos roce enable", Leaf: true, Span: between(0, 14), Renamed: "qos roce state",
			Words:  onOff(between(0, 14), changed515, "| `nv set qos roce enable on\\|off` | `nv set qos roce state enabled\\|disabled` |"),
			Source: refQoS, Quote: "In Cumulus Linux 5.14 and earlier, you specify `enable on` or `enable off` instead of `state enabled` or `state disabled`."},
		{Path: "qos roce state", Leaf: true, Span: since(15),
			Words:  enabledDisabled(since(15), refQoS, "nv set qos roce state enabled"),
			Source: changed515, Quote: "| `nv set qos roce enable on\\|off` | `nv set qos roce state enabled\\|disabled` |"},
		{Path: "qos roce mode", Leaf: true, Span: since(0), Source: refQoS, Quote: refQuote("qos roce mode", 0),
			Words: []NVUEWord{
				{Word: "lossless", Span: since(0), Source: guide50, Quote: "NVUE defaults to `roce mode lossless`. The command `nv set qos roce` and `nv set qos roce mode lossless` are equivalent."},
				{Word: "lossy", Span: since(0), Source: guide50, Quote: "To configure RoCE with ECN: nv set qos roce mode lossy"},
				{Word: "lossless-single-ipool", Span: since(12), Source: refQoS, Quote: "Cumulus Linux 5.11 and earlier does not provide `lossless-single-ipool` mode. Cumulus Linux 5.12.0 introduces  `lossless-single-ipool` mode."},
				{Word: "lossy-multi-tc", Span: since(14), Source: new514, Quote: "What's New in Cumulus Linux 5.14 ... RoCE lossy multi TC profile"},
				{Word: "dci-1", Span: since(18), Source: new518, Quote: "What's New in Cumulus Linux 5.18.0 ... Data Center Interconnect (DCI-1) QoS profile (Beta)"},
			}},
		{Path: "qos roce cable-length", Leaf: true, Span: since(0), Source: refQoS, Quote: refQuote("qos roce cable-length", 0)},

		// The QoS commands are new in 5.3: "NVUE enhancements include: ...
		// QoS commands" (CumulusNetworks/docs content/cumulus-linux-53/
		// Whats-New/_index.md); 5.0 to 5.2 configure them in
		// qos_features.conf only.
		{Path: "qos mapping <profile> trust", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos mapping <profile-id> trust", 3),
			Words: words(since(3), refQoS, "Configures the port trust. You can specify `l2`, `l3`, `port`, or `both`.", "l2", "l3", "port", "both")},
		{Path: "qos mapping <profile> dscp <dscp> switch-priority", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos mapping <profile-id> dscp <qos-dscp-id> switch-priority", 3)},
		{Path: "qos mapping <profile> pcp <pcp> switch-priority", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos mapping <profile-id> pcp <qos-pcp-id> switch-priority", 3)},
		{Path: "qos pfc <profile> switch-priority <sp>", Span: since(3), Source: refQoS, Quote: refQuote("qos pfc <profile-id> switch-priority <qos-sp-id>", 3)},
		{Path: "qos pfc <profile> tx", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos pfc <profile-id> tx", 3),
			Words: enableDisable(since(3), guide518, "cumulus@switch:~$ nv set qos pfc default-global tx enable")},
		{Path: "qos pfc <profile> rx", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos pfc <profile-id> rx", 3),
			Words: enableDisable(since(3), guide518, "cumulus@switch:~$ nv set qos pfc default-global rx disable")},
		{Path: "qos pfc <profile> cable-length", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos pfc <profile-id> cable-length", 3)},
		{Path: "qos egress-queue-mapping <profile> switch-priority <sp> traffic-class", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos egress-queue-mapping <profile-id> switch-priority <qos-sp-id> traffic-class", 3)},
		{Path: "qos egress-scheduler <profile> traffic-class <tc> mode", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos egress-scheduler <profile-id> traffic-class <qos-tc-id> mode", 3),
			Words: words(since(3), refQoS, "Configures the traffic class mode (`dwrr` or `strict`) for the specified egress scheduler profile.", "dwrr", "strict")},
		{Path: "qos egress-scheduler <profile> traffic-class <tc> bw-percent", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos egress-scheduler <profile-id> traffic-class <qos-tc-id> bw-percent", 3)},
		{Path: "qos congestion-control <profile> traffic-class <tc> ecn", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos congestion-control <profile-id> traffic-class <qos-tc-id> ecn", 3),
			Words: enableDisable(since(3), guide518, "cumulus@switch:~$ nv set qos congestion-control default-global traffic-class 0 ecn disable")},
		{Path: "qos congestion-control <profile> traffic-class <tc> red", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos congestion-control <profile-id> traffic-class <qos-tc-id> red", 3),
			Words: enableDisable(since(3), guide519, "cumulus@switch:~$ nv set qos congestion-control default-global traffic-class 4,5,7 red enable")},
		{Path: "qos congestion-control <profile> traffic-class <tc> min-threshold", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos congestion-control <profile-id> traffic-class <qos-tc-id> min-threshold <value>", 3)},
		{Path: "qos congestion-control <profile> traffic-class <tc> max-threshold", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos congestion-control <profile-id> traffic-class <qos-tc-id> max-threshold <value>", 3)},
		{Path: "qos congestion-control <profile> traffic-class <tc> probability", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos congestion-control <profile-id> traffic-class <qos-tc-id> probability", 3)},
		// Dynamic ECN: "The following NVUE commands are new in Cumulus
		// Linux 5.17. ... nv set qos congestion-control default-global
		// traffic-class <traffic-class-id> mode" (new517).
		{Path: "qos congestion-control <profile> traffic-class <tc> mode", Leaf: true, Span: since(17), Source: new517, Quote: "nv set qos congestion-control default-global traffic-class <traffic-class-id> mode",
			Words: words(since(17), guide518, "Set the dynamic ECN mode to `relative` ... The default value is `absolute`.", "absolute", "relative")},
		{Path: "qos congestion-control <profile> traffic-class <tc> min-threshold-percent", Leaf: true, Span: since(17), Source: new517, Quote: "nv set qos congestion-control default-global traffic-class <traffic-class-id> min-threshold-percent"},
		{Path: "qos congestion-control <profile> traffic-class <tc> max-threshold-percent", Leaf: true, Span: since(17), Source: new517, Quote: "nv set qos congestion-control default-global traffic-class <traffic-class-id> max-threshold-percent"},
		{Path: "qos traffic-pool <pool> switch-priority <sp>", Span: since(3), Source: refQoS, Quote: refQuote("qos traffic-pool <traffic-pool-id> switch-priority <qos-sp-id>", 3)},
		{Path: "qos traffic-pool <pool> memory-percent", Leaf: true, Span: since(3), Source: refQoS, Quote: refQuote("qos traffic-pool <traffic-pool-id> memory-percent", 3)},
		{Path: "qos link-pause <profile> tx", Leaf: true, Span: since(4), Source: refQoS, Quote: refQuote("qos link-pause <profile-id> tx", 4),
			Words: enableDisable(since(4), refQoS, "cumulus@switch:~$ nv set qos link-pause my_pause_ports tx enable")},
		{Path: "qos link-pause <profile> rx", Leaf: true, Span: since(4), Source: refQoS, Quote: refQuote("qos link-pause <profile-id> rx", 4),
			Words: enableDisable(since(4), refQoS, "cumulus@switch:~$ nv set qos link-pause my_pause_ports rx disable")},
		{Path: "qos link-pause <profile> cable-length", Leaf: true, Span: since(4), Source: refQoS, Quote: refQuote("qos link-pause <profile-id> cable-length", 4)},
		{Path: "qos remark <profile> rewrite", Leaf: true, Span: since(4), Source: refQoS, Quote: refQuote("qos remark <profile-id> rewrite", 4),
			Words: words(since(4), refQoS, "You can specify `l2`, `l3`, or `both`.", "l2", "l3", "both")},
		{Path: "qos remark <profile> switch-priority <sp> dscp", Leaf: true, Span: since(4), Source: refQoS, Quote: refQuote("qos remark <profile-id> switch-priority <qos-sp-id> dscp", 4)},
		{Path: "qos remark <profile> switch-priority <sp> pcp", Leaf: true, Span: since(4), Source: refQoS, Quote: refQuote("qos remark <profile-id> switch-priority <qos-sp-id> pcp", 4)},
		// "In Cumulus Linux 5.10 and earlier, `ingress-service-pool` is
		// `ingress-pool`" (refQoS; egress likewise), both "Introduced in
		// Cumulus Linux 5.4.0".
		{Path: "qos advance-buffer-config <profile> ingress-pool <pool>", Span: between(4, 10), Renamed: "qos advance-buffer-config <profile> ingress-service-pool <pool>",
			Source: refQoS, Quote: "In Cumulus Linux 5.10 and earlier, `ingress-service-pool` is `ingress-pool`."},
		{Path: "qos advance-buffer-config <profile> ingress-service-pool <pool>", Span: since(11), Source: refQoS, Quote: "In Cumulus Linux 5.10 and earlier, `ingress-service-pool` is `ingress-pool`."},
		{Path: "qos advance-buffer-config <profile> egress-pool <pool>", Span: between(4, 10), Renamed: "qos advance-buffer-config <profile> egress-service-pool <pool>",
			Source: refQoS, Quote: "In Cumulus Linux 5.10 and earlier, `egress-service-pool` is `egress-pool`."},
		{Path: "qos advance-buffer-config <profile> egress-service-pool <pool>", Span: since(11), Source: refQoS, Quote: "In Cumulus Linux 5.10 and earlier, `egress-service-pool` is `egress-pool`."},

		// The PFC watchdog: "Introduced in Cumulus Linux 5.6.0" (refQoS,
		// interface qos pfc-watchdog state). The user guides enable it
		// bare, "nv set interface swp1 qos pfc-watchdog", and disable it
		// with `state disable` up to 5.14 (guide514: "the `nv set interface
		// <interface> qos pfc-watchdog state disable` command") and `state
		// disabled` later (guide518: "the `nv set interface <interface-id>
		// qos pfc-watchdog state disabled` command"). 5.15 to 5.17 are
		// taken to spell it as 5.18 does (not verified: no stored QoS user
		// guide of those releases).
		{Path: "interface <if> qos pfc-watchdog", Span: since(6), Source: guide518, Quote: "Enable PFC watchdog on the interfaces where you enable PFC: nv set interface swp1 qos pfc-watchdog"},
		{Path: "interface <if> qos pfc-watchdog state", Leaf: true, Span: since(6), Source: refQoS, Quote: refQuote("interface <interface-id> qos pfc-watchdog state", 6),
			Words: append(enableDisable(between(6, 14), guide514, "To disable PFC watchdog, run the `nv unset interface <interface> qos pfc-watchdog` command or the `nv set interface <interface> qos pfc-watchdog state disable` command."),
				enabledDisabled(since(15), guide518, "To disable PFC watchdog, run the `nv unset interface <interface-id> qos pfc-watchdog` command or the `nv set interface <interface-id> qos pfc-watchdog state disabled` command.")...)},
		{Path: "interface <if> qos link-pause", Span: since(4), Source: refQoS, Quote: refQuote("interface <interface-id> qos link-pause", 4)},
		{Path: "interface <if> link mtu", Leaf: true, Span: since(0), Source: refIface, Quote: refQuote("interface <interface-id> link mtu", 0)},

		// Adaptive routing, globally and per port: "Introduced in Cumulus
		// Linux 5.1.0" (refAR); 5.15 renamed enable to state (changed515).
		{Path: "router adaptive-routing enable", Leaf: true, Span: between(1, 14), Renamed: "router adaptive-routing state",
			Words:  onOff(between(1, 14), refAR, "cumulus@switch:~$ nv set router adaptive-routing enable on"),
			Source: refAR, Quote: refQuote("router adaptive-routing enable", 1)},
		{Path: "router adaptive-routing state", Leaf: true, Span: since(15),
			Words:  enabledDisabled(since(15), changed515, "| `nv set router adaptive-routing enable on\\|off` | `nv set router adaptive-routing state enabled\\|disabled` |"),
			Source: changed515, Quote: "| `nv set router adaptive-routing enable on\\|off` | `nv set router adaptive-routing state enabled\\|disabled` |"},
		{Path: "interface <if> router adaptive-routing enable", Leaf: true, Span: between(1, 14), Renamed: "interface <if> router adaptive-routing state",
			Words:  onOff(between(1, 14), refAR, "cumulus@switch:~$ nv set interface swp1 router adaptive-routing enable on"),
			Source: refAR, Quote: refQuote("interface <interface-id> router adaptive-routing enable", 1)},
		{Path: "interface <if> router adaptive-routing state", Leaf: true, Span: since(15),
			Words:  enabledDisabled(since(15), changed515, "| `nv set interface <interface-id> router adaptive-routing enable on\\|off` | `nv set interface <interface-id> router adaptive-routing state enabled\\|disabled` |"),
			Source: changed515, Quote: "| `nv set interface <interface-id> router adaptive-routing enable on\\|off` | `nv set interface <interface-id> router adaptive-routing state enabled\\|disabled` |"},

		{Path: "system forwarding hash-seed", Leaf: true, Span: since(2), Source: refFwd, Quote: refQuote("system forwarding hash-seed", 2)},
		// "The following NVUE commands are new in Cumulus Linux 5.19. ...
		// nv set system forwarding resilient-hash state" (new519).
		{Path: "system forwarding resilient-hash state", Leaf: true, Span: since(19), Source: new519, Quote: "nv set system forwarding resilient-hash state",
			Words: enabledDisabled(since(19), guide519Fwd, "cumulus@switch:~$ nv set system forwarding resilient-hash state enabled")},
		{Path: "system forwarding resilient-hash bucket-size", Leaf: true, Span: since(19), Source: new519, Quote: "nv set system forwarding resilient-hash bucket-size"},
		{Path: "system forwarding resilient-hash active-timer", Leaf: true, Span: since(19), Source: new519, Quote: "nv set system forwarding resilient-hash active-timer"},

		// Packet trimming: "Introduced in Cumulus Linux 5.14.0" (refTrim),
		// spelled `state enabled` already in 5.14 (guide514: "nv set system
		// forwarding packet-trim state enabled").
		{Path: "system forwarding packet-trim state", Leaf: true, Span: since(14), Source: refTrim, Quote: refQuote("system forwarding packet-trim state", 14),
			Words: enabledDisabled(since(14), guide514, "cumulus@switch:~$ nv set system forwarding packet-trim state enabled")},
		{Path: "system forwarding packet-trim profile", Leaf: true, Span: since(14), Source: refTrim, Quote: refQuote("system forwarding packet-trim profile packet-trim-default", 14)},
		{Path: "system forwarding packet-trim remark dscp", Leaf: true, Span: since(14), Source: refTrim, Quote: refQuote("system forwarding packet-trim remark dscp", 14)},
		{Path: "system forwarding packet-trim size", Leaf: true, Span: since(14), Source: refTrim, Quote: refQuote("system forwarding packet-trim size", 14)},
		{Path: "system forwarding packet-trim switch-priority", Leaf: true, Span: since(14), Source: refTrim, Quote: refQuote("system forwarding packet-trim switch-priority", 14)},
		{Path: "system forwarding packet-trim service-port", Leaf: true, Span: since(14), Source: refTrim, Quote: refQuote("system forwarding packet-trim service-port <port>", 14)},
		{Path: "interface <if> packet-trim egress-eligibility traffic-class <tc>", Span: since(14), Source: refTrim, Quote: refQuote("interface <interface-id> packet-trim egress-eligibility traffic-class <tc-id>", 14)},
	}
	// Per-interface profile bindings: mapping and pfc "Introduced in
	// Cumulus Linux 5.3.0", the others "Introduced in Cumulus Linux 5.4.0"
	// (refQoS, nv set interface <interface-id> qos <feature> profile).
	for _, b := range []struct {
		feature string
		minor   int
	}{{"mapping", 3}, {"pfc", 3}, {"congestion-control", 4}, {"egress-scheduler", 4}, {"egress-shaper", 4}, {"link-pause", 4}, {"remark", 4}} {
		cs = append(cs, NVUECommand{Path: "interface <if> qos " + b.feature + " profile", Leaf: true, Span: since(b.minor),
			Source: refQoS, Quote: refQuote("interface <interface-id> qos "+b.feature+" profile <profile-name>", b.minor)})
	}
	// Every ecmp-hash field: "Introduced in Cumulus Linux 5.2.0" (refFwd),
	// on|off up to 5.14 and enabled|disabled later ("| `nv set system
	// forwarding ecmp-hash source-port on\|off` | `nv set system forwarding
	// ecmp-hash source-port enabled\|disabled` |", changed515, "and the
	// same for every inner-* ecmp-hash field").
	for _, f := range ECMPFields {
		path := "system forwarding ecmp-hash " + f.Name
		cs = append(cs, NVUECommand{Path: path, Leaf: true, Span: since(2), Source: refFwd, Quote: refQuote(path, 2),
			Words: append(onOff(between(2, 14), refFwd, "cumulus@switch:~$ nv set "+path+" on"),
				enabledDisabled(since(15), changed515, "| `nv set system forwarding ecmp-hash source-port on\\|off` | `nv set system forwarding ecmp-hash source-port enabled\\|disabled` |")...)})
	}
	return cs
}()

// NVUECommands lists the table.
func NVUECommands() []NVUECommand { return append([]NVUECommand(nil), nvueCommands...) }

// LookupNVUE finds the command of an `nv set` (unset false) or `nv unset`
// line's words after the verb. For a set of a leaf, value is the last word.
func LookupNVUE(unset bool, ws []string) (cmd NVUECommand, value string, ok bool) {
	for _, c := range nvueCommands {
		p := strings.Fields(c.Path)
		switch {
		case len(ws) == len(p) && matchWords(p, ws) && (unset || !c.Leaf):
			return c, "", true
		case !unset && c.Leaf && len(ws) == len(p)+1 && matchWords(p, ws[:len(p)]):
			return c, ws[len(p)], true
		}
	}
	return NVUECommand{}, "", false
}

func matchWords(pattern, ws []string) bool {
	for i, p := range pattern {
		if !(strings.HasPrefix(p, "<") && strings.HasSuffix(p, ">")) && p != ws[i] {
			return false
		}
	}
	return true
}

// Word is the value w of the leaf; ok is false when the leaf names its
// values and w is none of them. A leaf without named values takes any.
func (c NVUECommand) Word(w string) (NVUEWord, bool) {
	if c.Words == nil {
		return NVUEWord{Word: w, Span: c.Span}, true
	}
	for _, x := range c.Words {
		if x.Word == w {
			return x, true
		}
	}
	return NVUEWord{}, false
}

// NVUEBool is how release r spells b as the value of the leaf at path
// ("qos", "pfc", "default-global", "tx"): the first documented word of
// that meaning r accepts, else the first of any release (the command gate
// then says r cannot express it). "" when the table has no such leaf.
func NVUEBool(r CLRelease, b bool, path ...string) string {
	c, _, ok := LookupNVUE(true, path)
	if !ok || !c.Leaf {
		return ""
	}
	first := ""
	for _, w := range c.Words {
		if v, known := ParseBool(w.Word); !known || v != b {
			continue
		}
		if w.In(r) {
			return w.Word
		}
		if first == "" {
			first = w.Word
		}
	}
	return first
}
