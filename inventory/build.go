package inventory

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/names"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/internal/source"
)

var (
	// NVUE interface names and ranges ("swp1", "swp1-32", "swp1s0,swp2").
	portName = regexp.MustCompile(`^[A-Za-z0-9_.,-]+$`)
	// A switch model as NVUE headers and NVIDIA's pages write it (MSN2010,
	// SN5600, SN6600-LD, SN2201_M).
	platformName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)
	ipChars      = regexp.MustCompile(`^[0-9A-Fa-f.:][0-9A-Za-z.:%_-]*$`)
	// RFC 1123 host name.
	hostName = regexp.MustCompile(`^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$`)
)

// roles a switch may have.
var roles = []string{"leaf", "spine", "super-spine", "border"}

// hashFieldNames is the complete NVUE `nv set system forwarding ecmp-hash`
// field list (CumulusNetworks/docs content/cumulus-linux-515/Layer-3/Routing/
// Equal-Cost-Multipath-Load-Sharing.md and the NVUE reference
// System-Forwarding page).
var hashFieldNames = []string{
	"source-ip", "destination-ip", "source-port", "destination-port",
	"ip-protocol", "ipv6-label", "ingress-interface", "gtp-teid",
	"inner-ip-protocol", "inner-source-ip", "inner-destination-ip",
	"inner-source-port", "inner-destination-port", "inner-ipv6-label",
}

// A device name names a folder of collected evidence and reaches shell
// commands later, so it must be one safe path component (internal/names,
// the rule the live collector checks too).
const safeNameRule = names.DeviceRule

// Validation rules, the same for YAML and HCL:
//
//   - fabric is required and, like device names, must be a safe single path
//     component (it may name a folder too).
//   - Device names are required, unique across switches and hosts, and match
//     safeName. Addresses, when given, are an IP address or a host name.
//   - A switch's role is leaf, spine, super-spine or border. It may be left
//     out only when the name starts with "leaf" (any case); it is then leaf.
//   - Ports are kept as written (ranges are expanded by model/); NICs are
//     netdev names.
//   - Policy values are range-checked, DSCP and hash-field lists sorted and
//     deduplicated, and CNP may share neither DSCP nor priority with RoCE.
//   - ssh settings follow the credential rules in creds.go.
//   - Values are case-sensitive: NVUE and mlnx_qos spell them in lower case.

// build validates raw and turns it into an Inventory. It returns nil when p
// holds any problem afterwards.
func build(file string, raw *rawInventory, p *problems) *Inventory {
	inv := &Inventory{File: file}
	switch f := raw.Fabric; {
	case !f.Set:
		p.missing(1, "fabric is required")
	case f.V == "":
		p.semantic(f.Line, "fabric is required")
	case !names.Device(f.V):
		p.semantic(f.Line, "fabric name %q is not a safe name: %s", f.V, safeNameRule)
	default:
		inv.Fabric = f.V
	}
	inv.FabricType = buildFabricType(raw.FabricType, p)
	inv.Policy = buildPolicy(file, &raw.Policy, p)
	inv.Policy.IB = buildIB(file, &raw.Policy, inv.Policy.Pos, p)
	inv.SSH = buildSSH(raw.SSH, p)
	inv.GNMI = buildGNMI(raw.GNMI, p)
	inv.Checks.Enable = checkNames(file, "checks.enable", raw.Checks.Enable, p)
	inv.Checks.Disable = checkNames(file, "checks.disable", raw.Checks.Disable, p)

	seen := map[string]int{} // device name -> line of its first definition
	for _, d := range raw.Switches {
		if sw, ok := buildSwitch(file, d, seen, p); ok {
			inv.Switches = append(inv.Switches, sw)
		}
	}
	for _, d := range raw.Hosts {
		if h, ok := buildHost(file, d, seen, p); ok {
			inv.Hosts = append(inv.Hosts, h)
		}
	}
	inv.Policy.Rails = buildRails(raw.Policy.RailGroups, inv.Switches, p)
	if inv.Policy.Rails != nil {
		inv.Policy.Pos["rails.groups"] = source.Pos{File: file, Line: raw.Policy.RailGroups.Line}
	}
	if !p.empty() {
		return nil
	}
	return inv
}

// buildRails checks the rail rule: rails.groups[k] are the leaves of rail
// k, each an inventory switch, none in two rails.
func buildRails(l list[[]string], switches []Switch, p *problems) [][]string {
	if !l.Set {
		return nil
	}
	if len(l.V) == 0 {
		p.semantic(l.Line, "rails.groups must list at least one rail")
	}
	known := map[string]bool{}
	for _, s := range switches {
		known[s.Name] = true
	}
	rail := map[string]int{}
	for k, g := range l.V {
		line := l.lineOf(k)
		if len(g) == 0 {
			p.semantic(line, "rails.groups[%d]: a rail needs at least one leaf", k)
		}
		for _, leaf := range g {
			if !known[leaf] {
				p.semantic(line, "rails.groups[%d]: %q is not a switch of the inventory", k, leaf)
			}
			if j, ok := rail[leaf]; ok && j != k {
				p.semantic(line, "rails.groups[%d]: %s is already in rail %d", k, leaf, j)
			}
			rail[leaf] = k
		}
	}
	return l.V
}

func buildPolicy(file string, raw *rawPolicy, p *problems) policy.Policy {
	pol, _ := policy.Preset(policy.DefaultPreset)
	if f := raw.Preset; f.Set {
		if named, ok := policy.Preset(f.V); ok {
			pol = named
		} else if why, gone := policy.RenamedPreset(f.V); gone {
			p.semantic(f.Line, "preset %q was renamed: %s", f.V, why)
		} else {
			p.semantic(f.Line, "unknown preset %q (want %s)", f.V, orList(policy.PresetNames()))
		}
	}
	pol.Pos = map[string]source.Pos{}
	at := func(key string, set bool, line int) {
		if set {
			pol.Pos[key] = source.Pos{File: file, Line: line}
		}
	}
	at("preset", raw.Preset.Set, raw.Preset.Line)

	if l := raw.RoCEDSCP; l.Set {
		at("roce.dscp", true, l.Line)
		if len(l.V) == 0 {
			p.semantic(l.Line, "roce.dscp must list at least one value")
		}
		for i, v := range l.V {
			inRange(p, l.lineOf(i), "roce.dscp", v, 0, 63)
		}
		pol.RoCE.DSCP = slices.Compact(slices.Sorted(slices.Values(l.V)))
	}
	setInt(&pol.RoCE.Priority, raw.RoCEPriority, "roce.priority", 0, 7, p, at)
	setInt(&pol.RoCE.TrafficClass, raw.RoCETrafficClass, "roce.traffic_class", 0, 7, p, at)
	setWord(&pol.RoCE.Mode, raw.RoCEMode, "roce.mode", policy.RoCEModes, p, at)
	setInt(&pol.RoCE.MinBandwidth, raw.RoCEMinBandwidth, "roce.min_bandwidth", 1, 100, p, at)
	setWord(&pol.RoCE.HostTSA, raw.RoCEHostTSA, "roce.host_tsa", policy.HostTSAs, p, at)
	setInt(&pol.CNP.DSCP, raw.CNPDSCP, "cnp.dscp", 0, 63, p, at)
	setInt(&pol.CNP.Priority, raw.CNPPriority, "cnp.priority", 0, 7, p, at)
	setWord(&pol.Trust, raw.Trust, "trust", []string{"dscp", "pcp"}, p, at)
	setInt(&pol.MTU.Host, raw.MTUHost, "mtu.host", 68, 65535, p, at)
	setInt(&pol.MTU.Switch, raw.MTUSwitch, "mtu.switch", 68, 65535, p, at)
	if l := raw.HashFields; l.Set {
		at("ecmp.hash_fields", true, l.Line)
		if len(l.V) == 0 {
			p.semantic(l.Line, "ecmp.hash_fields must list at least one field")
		}
		for i, v := range l.V {
			if !slices.Contains(hashFieldNames, v) {
				p.semantic(l.lineOf(i), "ecmp.hash_fields: unknown field %q (want NVUE ecmp-hash fields: %s)",
					v, strings.Join(hashFieldNames, ", "))
			}
		}
		// NVUE switches each field on or off: order and repeats mean nothing.
		pol.ECMP.HashFields = slices.Compact(slices.Sorted(slices.Values(l.V)))
	}
	// NVUE accepts a cable length of 1 to 100000 metres (nv set qos roce
	// cable-length, CumulusNetworks/docs content/nvue-reference/).
	setInt(&pol.PFC.CableLength, raw.CableLength, "pfc.cable_length", 1, 100000, p, at)
	if f := raw.AdaptiveRouting; f.Set {
		at("ecmp.adaptive_routing", true, f.Line)
		pol.ECMP.AdaptiveRouting = f.V
	}

	// CNPs ride a strict-priority queue of their own (Cumulus default: SP 6
	// -> TC 6 strict, RoCE TC 3 DWRR): sharing RoCE's DSCP or priority would
	// queue the congestion signal behind the very traffic it is meant to slow.
	if slices.Contains(pol.RoCE.DSCP, pol.CNP.DSCP) {
		line := firstLine(raw.CNPDSCP.Line, dscpLine(raw.RoCEDSCP, pol.CNP.DSCP), raw.Line)
		p.semantic(line, "cnp.dscp %d is also a roce.dscp value: CNPs must have their own DSCP and strict priority", pol.CNP.DSCP)
	}
	if pol.RoCE.Priority == pol.CNP.Priority {
		line := firstLine(raw.CNPPriority.Line, raw.RoCEPriority.Line, raw.Line)
		p.semantic(line, "cnp.priority %d equals roce.priority: CNPs must have their own strict priority", pol.CNP.Priority)
	}
	return pol
}

func setInt(dst *int, f field[int], key string, lo, hi int, p *problems, at func(string, bool, int)) {
	if !f.Set {
		return
	}
	at(key, true, f.Line)
	if inRange(p, f.Line, key, f.V, lo, hi) {
		*dst = f.V
	}
}

func setWord(dst *string, f field[string], key string, allowed []string, p *problems, at func(string, bool, int)) {
	if !f.Set {
		return
	}
	at(key, true, f.Line)
	if !slices.Contains(allowed, f.V) {
		p.semantic(f.Line, "%s %q invalid (want %s)", key, f.V, orList(allowed))
		return
	}
	*dst = f.V
}

func inRange(p *problems, line int, key string, v, lo, hi int) bool {
	if v < lo || v > hi {
		p.semantic(line, "%s %d out of range %d..%d", key, v, lo, hi)
		return false
	}
	return true
}

func dscpLine(l list[int], dscp int) int {
	if i := slices.Index(l.V, dscp); i >= 0 {
		return l.lineOf(i)
	}
	return 0
}

func firstLine(lines ...int) int {
	for _, l := range lines {
		if l > 0 {
			return l
		}
	}
	return 1
}

// deviceName checks a switch's or host's name and records it in seen.
func deviceName(kind string, d rawDevice, seen map[string]int, p *problems) bool {
	line := firstLine(d.Name.Line, d.Line)
	switch {
	case !d.Name.Set || d.Name.V == "":
		p.semantic(line, "%s name is required", kind)
		return false
	case !names.Device(d.Name.V):
		p.semantic(line, "%s name %q is not a safe name: %s", kind, d.Name.V, safeNameRule)
		return false
	}
	if first, dup := seen[d.Name.V]; dup {
		p.semantic(line, "duplicate device name %q (first defined at line %d)", d.Name.V, first)
		return false
	}
	seen[d.Name.V] = line
	return true
}

func deviceAddress(kind string, d rawDevice, p *problems) string {
	a := d.Address
	if !a.Set {
		return ""
	}
	// The address reaches ssh and other commands as an argument: allow only
	// an IP address or a host name, so it can never be read as an option.
	// netip accepts any IPv6 zone ("fe80::1%anything"), hence the charset.
	_, err := netip.ParseAddr(a.V)
	isIP := err == nil && ipChars.MatchString(a.V)
	if !isIP && (len(a.V) > 253 || !hostName.MatchString(a.V)) {
		p.semantic(a.Line, "%s %q: invalid address %q (want an IP address or a host name)", kind, d.Name.V, a.V)
		return ""
	}
	return a.V
}

func buildSwitch(file string, d rawDevice, seen map[string]int, p *problems) (Switch, bool) {
	if !deviceName(layout.KindSwitch, d, seen, p) {
		return Switch{}, false
	}
	sw := Switch{
		Name:        d.Name.V,
		Address:     deviceAddress(layout.KindSwitch, d, p),
		Credentials: buildCreds(fmt.Sprintf("switch %q", d.Name.V), d.Creds, true, p),
		Pos:         source.Pos{File: file, Line: firstLine(d.Line, d.Name.Line)},
	}
	// Role decides which checks apply. Only a switch called leaf* may leave
	// it out: guessing "leaf" for a spine would run the host-facing checks
	// on it and report nonsense.
	switch r := d.Role; {
	case r.Set && slices.Contains(roles, r.V):
		sw.Role = r.V
	case r.Set:
		p.semantic(r.Line, "switch %q: unknown role %q (want %s)", d.Name.V, r.V, orList(roles))
	case strings.HasPrefix(strings.ToLower(d.Name.V), "leaf"):
		sw.Role = "leaf"
	default:
		p.semantic(sw.Pos.Line, "switch %q: role is required (%s); only switches named leaf* default to leaf", d.Name.V, orList(roles))
	}
	if f := d.GNMIPort; f.Set && inRange(p, f.Line, fmt.Sprintf("switch %q: gnmi_port", d.Name.V), f.V, 1, 65535) {
		sw.GNMIPort = f.V
	}
	if f := d.Platform; f.Set {
		if platformName.MatchString(f.V) {
			sw.Platform, sw.PlatformLine = f.V, f.Line
		} else {
			p.semantic(f.Line, "switch %q: platform %q is not a switch model (want the model as the configuration header names it, such as SN5600 or MSN4700)", d.Name.V, f.V)
		}
	}
	if f := d.OS; f.Set {
		switch os := strings.ToLower(f.V); os {
		case OSCumulus, OSSONiC:
			sw.OS, sw.OSLine = os, f.Line
		default:
			p.semantic(f.Line, "switch %q: unknown os %q (want %s or %s)", d.Name.V, f.V, OSCumulus, OSSONiC)
		}
	}
	if d.Items.Set {
		for i, port := range d.Items.V {
			if !portName.MatchString(port) {
				p.semantic(d.Items.lineOf(i), "switch %q: invalid port %q (want NVUE port names or ranges such as swp1 or swp1-32)", d.Name.V, port)
				continue
			}
			sw.Ports = append(sw.Ports, port)
		}
	}
	return sw, true
}

func buildHost(file string, d rawDevice, seen map[string]int, p *problems) (Host, bool) {
	if !deviceName(layout.KindHost, d, seen, p) {
		return Host{}, false
	}
	h := Host{
		Name:        d.Name.V,
		Address:     deviceAddress(layout.KindHost, d, p),
		Credentials: buildCreds(fmt.Sprintf("host %q", d.Name.V), d.Creds, false, p),
		Pos:         source.Pos{File: file, Line: firstLine(d.Line, d.Name.Line)},
	}
	if d.Items.Set {
		for i, nic := range d.Items.V {
			// "." and ".." match the pattern but are not netdev names
			// (dev_valid_name, net/core/dev.c) and would climb out of
			// /sys/class/net/<nic>.
			if !names.Netdev(nic) {
				p.semantic(d.Items.lineOf(i), "host %q: invalid NIC name %q (want a netdev name: 1-15 letters, digits, '.', '_' or '-')", d.Name.V, nic)
				continue
			}
			h.NICs = append(h.NICs, nic)
		}
	}
	buildK8s(&h, d, p)
	return h, true
}

// orList renders ["a", "b", "c"] as "a, b or c".
func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return fmt.Sprintf("%s or %s", strings.Join(words[:len(words)-1], ", "), words[len(words)-1])
}

// checkNames are the names of a checks list at their lines. Whether each
// names a check or a kind is for package checks to say (it knows the
// catalog; this package cannot import it): an empty name is refused here.
func checkNames(file, key string, l list[string], p *problems) []CheckName {
	var out []CheckName
	for i, v := range l.V {
		line := l.lineOf(i)
		if strings.TrimSpace(v) == "" {
			p.semantic(line, "%s: an empty name: want a check ID or a kind", key)
			continue
		}
		out = append(out, CheckName{Name: v, Pos: source.Pos{File: file, Line: line}})
	}
	return out
}
