package inventory

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// yamlRoot returns the top mapping under the document node (nil for an
// empty document).
func yamlRoot(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		return resolve(doc.Content[0])
	}
	return nil
}

// resolve follows aliases; the bound stops a malformed cycle.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 16; i++ {
		n = n.Alias
	}
	return n
}

// child returns the key and value nodes of key in mapping n (nil, nil when
// absent or when n is not a mapping). A duplicate key is a decode error, so
// the first match is the one that counts.
func child(n *yaml.Node, key string) (k, v *yaml.Node) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], resolve(n.Content[i+1])
		}
	}
	return nil, nil
}

// keyLine is the line key was written on in mapping n, else fallback.
func keyLine(n *yaml.Node, key string, fallback int) int {
	if k, _ := child(n, key); k != nil {
		return k.Line
	}
	return fallback
}

func lineOf(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

// items returns the items of sequence n that the decoder kept, so they line
// up with the decoded slice: yaml.v3 drops an item whose kind does not fit
// the element type (a scalar where a mapping belongs, and the reverse) after
// reporting it, and drops a null item silently. The caller checks the
// lengths match before trusting the result.
func items(n *yaml.Node, mappings bool) []*yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	var out []*yaml.Node
	for _, it := range n.Content {
		r := resolve(it)
		switch {
		case r == nil || isNull(r):
		case mappings && r.Kind == yaml.MappingNode, !mappings && r.Kind == yaml.ScalarNode:
			out = append(out, it)
		}
	}
	return out
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// nullItems reports the empty items of a list, which the decoder would
// otherwise drop without a word.
func nullItems(n *yaml.Node, what string, p *problems) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return
	}
	for _, it := range n.Content {
		if r := resolve(it); r != nil && isNull(r) {
			p.semantic(it.Line, "empty entry in %s", what)
		}
	}
}

func yamlString(ptr *string, n *yaml.Node, key string, fallback int) field[string] {
	if ptr == nil {
		return field[string]{}
	}
	return field[string]{Set: true, V: *ptr, Line: keyLine(n, key, fallback)}
}

func yamlInt(ptr *int, n *yaml.Node, key string, fallback int) field[int] {
	if ptr == nil {
		return field[int]{}
	}
	return field[int]{Set: true, V: *ptr, Line: keyLine(n, key, fallback)}
}

func yamlBool(ptr *bool, n *yaml.Node, key string, fallback int) field[bool] {
	if ptr == nil {
		return field[bool]{}
	}
	return field[bool]{Set: true, V: *ptr, Line: keyLine(n, key, fallback)}
}

// yamlCredsRaw reads an ssh group or a device's own settings from mapping n.
func yamlCredsRaw(c *yamlCreds, n *yaml.Node, fallback int) rawCreds {
	return rawCreds{
		Username:    yamlString(c.Username, n, "username", fallback),
		PasswordEnv: yamlString(c.PasswordEnv, n, "password_env", fallback),
		KeyFile:     yamlString(c.KeyFile, n, "key_file", fallback),
		Agent:       yamlBool(c.Agent, n, "agent", fallback),
		Port:        yamlInt(c.Port, n, "port", fallback),
		Sudo:        yamlBool(c.Sudo, n, "sudo", fallback),
		JumpHost:    yamlString(c.JumpHost, n, "jump_host", fallback),
	}
}

func yamlStrings(v []string, n *yaml.Node, key, what string, fallback int, p *problems) list[string] {
	_, seq := child(n, key)
	if v == nil && (seq == nil || seq.Kind != yaml.SequenceNode) {
		// Absent or null. An empty flow list decodes to a non-nil slice.
		return list[string]{}
	}
	l := list[string]{Set: true, V: v, Line: keyLine(n, key, fallback)}
	nullItems(seq, what, p)
	if its := items(seq, false); len(its) == len(v) {
		for _, it := range its {
			l.Lines = append(l.Lines, it.Line)
		}
	}
	return l
}

// yamlDSCP reads roce.dscp: one integer or a list of integers.
func yamlDSCP(n *yaml.Node, line int, p *problems) list[int] {
	n = resolve(n)
	if n == nil || n.Kind == 0 || isNull(n) {
		return list[int]{}
	}
	// A bad element is reported and left out; the list stays set unless
	// nothing valid is left, so the other elements are still checked.
	l := list[int]{Set: true, Line: line, V: []int{}}
	bad := false
	one := func(it *yaml.Node) {
		r := resolve(it)
		var v int
		if r == nil || r.Kind != yaml.ScalarNode || r.ShortTag() != "!!int" || r.Decode(&v) != nil {
			p.unreadable(it.Line, "roce.dscp: want an integer or a list of integers, got %s", nodeText(r))
			bad = true
			return
		}
		l.V = append(l.V, v)
		l.Lines = append(l.Lines, it.Line)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		one(n)
	case yaml.SequenceNode:
		for _, it := range n.Content {
			one(it)
		}
	default:
		one(n)
	}
	if bad && len(l.V) == 0 {
		return list[int]{}
	}
	return l
}

func nodeText(n *yaml.Node) string {
	switch {
	case n == nil:
		return "nothing"
	case n.Kind == yaml.ScalarNode:
		return yamlKinds[n.ShortTag()] + " " + strconv.Quote(n.Value)
	}
	return yamlKinds[n.ShortTag()]
}

// yamlRaw pairs the strictly decoded f with positions from the node tree.
func yamlRaw(f *yamlFile, root *yaml.Node, p *problems) *rawInventory {
	raw := &rawInventory{Fabric: yamlString(f.Fabric, root, "fabric", 1)}
	raw.FabricType = yamlString(f.FabricType, root, "fabric_type", 1)
	if f.Policy != nil {
		yamlPolicyRaw(f.Policy, root, &raw.Policy, p)
	}
	if f.SSH != nil {
		yamlSSHRaw(f.SSH, root, &raw.SSH)
	}
	if x := f.GNMI; x != nil {
		k, n := child(root, "gnmi")
		at := lineOf(k)
		raw.GNMI.Line = at
		raw.GNMI.Port = yamlInt(x.Port, n, "port", at)
		raw.GNMI.TLS = yamlBool(x.TLS, n, "tls", at)
		raw.GNMI.CAFile = yamlString(x.CAFile, n, "ca_file", at)
		raw.GNMI.SkipVerify = yamlBool(x.SkipVerify, n, "skip_verify", at)
		raw.GNMI.Timeout = yamlString(x.Timeout, n, "timeout", at)
	}
	if x := f.Checks; x != nil {
		k, n := child(root, "checks")
		at := lineOf(k)
		raw.Checks.Enable = yamlStrings(x.Enable, n, "enable", "checks.enable", at, p)
		raw.Checks.Disable = yamlStrings(x.Disable, n, "disable", "checks.disable", at, p)
	}
	yamlDevicesRaw(f, root, raw, p)
	return raw
}

func yamlPolicyRaw(pol *yamlPolicy, root *yaml.Node, r *rawPolicy, p *problems) {
	pk, pn := child(root, "policy")
	r.Line = lineOf(pk)
	r.Preset = yamlString(pol.Preset, pn, "preset", r.Line)
	r.Trust = yamlString(pol.Trust, pn, "trust", r.Line)
	if x := pol.RoCE; x != nil {
		k, n := child(pn, "roce")
		at := max(lineOf(k), r.Line)
		r.RoCEDSCP = yamlDSCP(&x.DSCP, keyLine(n, "dscp", at), p)
		r.RoCEPriority = yamlInt(x.Priority, n, "priority", at)
		r.RoCETrafficClass = yamlInt(x.TrafficClass, n, "traffic_class", at)
		r.RoCEMode = yamlString(x.Mode, n, "mode", at)
		r.RoCEMinBandwidth = yamlInt(x.MinBandwidth, n, "min_bandwidth", at)
		r.RoCEHostTSA = yamlString(x.HostTSA, n, "host_tsa", at)
	}
	if x := pol.CNP; x != nil {
		k, n := child(pn, "cnp")
		at := max(lineOf(k), r.Line)
		r.CNPDSCP = yamlInt(x.DSCP, n, "dscp", at)
		r.CNPPriority = yamlInt(x.Priority, n, "priority", at)
	}
	if x := pol.MTU; x != nil {
		k, n := child(pn, "mtu")
		at := max(lineOf(k), r.Line)
		r.MTUHost = yamlInt(x.Host, n, "host", at)
		r.MTUSwitch = yamlInt(x.Switch, n, "switch", at)
	}
	if x := pol.ECMP; x != nil {
		k, n := child(pn, "ecmp")
		at := max(lineOf(k), r.Line)
		r.HashFields = yamlStrings(x.HashFields, n, "hash_fields", "ecmp.hash_fields", at, p)
		r.AdaptiveRouting = yamlBool(x.AdaptiveRouting, n, "adaptive_routing", at)
	}
	if x := pol.PFC; x != nil {
		k, n := child(pn, "pfc")
		at := max(lineOf(k), r.Line)
		r.CableLength = yamlInt(x.CableLength, n, "cable_length", at)
	}
	if x := pol.Rails; x != nil {
		k, n := child(pn, "rails")
		at := max(lineOf(k), r.Line)
		r.RailGroups = yamlGroups(x.Groups, n, at, p)
	}
	if x := pol.IB; x != nil {
		k, n := child(pn, "ib")
		at := max(lineOf(k), r.Line)
		r.IBSL = yamlInt(x.SL, n, "sl", at)
		r.IBVL = yamlInt(x.VL, n, "vl", at)
		r.IBAdaptiveRouting = yamlBool(x.AdaptiveRouting, n, "adaptive_routing", at)
	}
}

// yamlGroups reads rails.groups, a list of lists of leaf names, each group
// at its line.
func yamlGroups(v [][]string, n *yaml.Node, fallback int, p *problems) list[[]string] {
	_, seq := child(n, "groups")
	if v == nil && (seq == nil || seq.Kind != yaml.SequenceNode) {
		return list[[]string]{}
	}
	l := list[[]string]{Set: true, V: v, Line: keyLine(n, "groups", fallback)}
	nullItems(seq, "rails.groups", p)
	var lines []int
	if seq = resolve(seq); seq != nil && seq.Kind == yaml.SequenceNode {
		for _, it := range seq.Content {
			nullItems(resolve(it), "rails.groups", p)
			lines = append(lines, it.Line)
		}
	}
	if len(lines) == len(v) {
		l.Lines = lines
	}
	return l
}

func yamlSSHRaw(x *yamlSSH, root *yaml.Node, r *rawSSH) {
	k, n := child(root, "ssh")
	at := lineOf(k)
	r.KnownHosts = yamlString(x.KnownHosts, n, "known_hosts", at)
	r.JumpHost = yamlString(x.JumpHost, n, "jump_host", at)
	if x.Switches != nil {
		gk, g := child(n, "switches")
		r.Switches = yamlCredsRaw(x.Switches, g, max(lineOf(gk), at))
	}
	if x.Hosts != nil {
		gk, g := child(n, "hosts")
		r.Hosts = yamlCredsRaw(x.Hosts, g, max(lineOf(gk), at))
	}
}

// yamlDevicesRaw reads the switches and hosts lists, each device at the
// line of its list item.
func yamlDevicesRaw(f *yamlFile, root *yaml.Node, raw *rawInventory, p *problems) {
	swKey, swSeq := child(root, "switches")
	swItems := items(swSeq, true)
	nullItems(swSeq, "switches", p)
	for i, s := range f.Switches {
		n, line := yamlItem(swItems, i, len(f.Switches), swKey)
		raw.Switches = append(raw.Switches, rawDevice{
			Line:     line,
			Name:     yamlString(s.Name, n, "name", line),
			Role:     yamlString(s.Role, n, "role", line),
			Address:  yamlString(s.Address, n, "address", line),
			Items:    yamlStrings(s.Ports, n, "ports", "ports", line, p),
			Creds:    yamlCredsRaw(&s.yamlCreds, n, line),
			GNMIPort: yamlInt(s.GNMIPort, n, "gnmi_port", line),
			Platform: yamlString(s.Platform, n, "platform", line),
			OS:       yamlString(s.OS, n, "os", line),
		})
	}
	hKey, hSeq := child(root, "hosts")
	hItems := items(hSeq, true)
	nullItems(hSeq, "hosts", p)
	for i, h := range f.Hosts {
		n, line := yamlItem(hItems, i, len(f.Hosts), hKey)
		raw.Hosts = append(raw.Hosts, rawDevice{
			Line:    line,
			Name:    yamlString(h.Name, n, "name", line),
			Address: yamlString(h.Address, n, "address", line),
			Items:   yamlStrings(h.NICs, n, "nics", "nics", line, p),
			Creds:   yamlCredsRaw(&h.yamlCreds, n, line),
			K8sNode: yamlString(h.K8sNode, n, "k8s_node", line),
			K8sLabels: field[map[string]string]{Set: h.K8sLabels != nil, V: h.K8sLabels,
				Line: keyLine(n, "k8s_labels", line)},
		})
	}
}

// yamlItem returns the node of the i-th decoded device and its line; when
// the tree and the slice do not line up (the decoder reported why), it falls
// back to the list's key.
func yamlItem(its []*yaml.Node, i, decoded int, key *yaml.Node) (*yaml.Node, int) {
	if len(its) == decoded {
		return its[i], its[i].Line
	}
	return nil, max(lineOf(key), 1)
}
