package inventory

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"
)

// The HCL schema mirrors the YAML one, with `switch "name" {}` and
// `host "name" {}` blocks instead of lists.
//
// We decode with hcl.BodySchema rather than gohcl: gohcl imports hclwrite,
// which needs github.com/google/go-cmp, absent from go.sum. Body.Content is
// what gohcl calls underneath, so unknown arguments and blocks get the same
// diagnostics ("Unsupported argument ... Did you mean ...?"), and evaluating
// each attribute ourselves lets dscp be a number or a list and gives every
// list element its own line.
var (
	fileSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "fabric"}, {Name: "fabric_type"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "policy"},
			{Type: "ssh"},
			{Type: "gnmi"},
			{Type: "checks"},
			{Type: layout.KindSwitch, LabelNames: []string{"name"}},
			{Type: layout.KindHost, LabelNames: []string{"name"}},
		},
	}
	policySchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "preset"}, {Name: "trust"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "roce"}, {Type: "cnp"}, {Type: "mtu"}, {Type: "ecmp"}, {Type: "pfc"}, {Type: "rails"}, {Type: "ib"}},
	}
	roceSchema  = attrSchema("dscp", "priority", "traffic_class", "mode", "min_bandwidth", "host_tsa")
	cnpSchema   = attrSchema("dscp", "priority")
	mtuSchema   = attrSchema("host", "switch")
	ecmpSchema  = attrSchema("hash_fields", "adaptive_routing")
	pfcSchema   = attrSchema("cable_length")
	railsSchema = attrSchema("groups")
	ibSchema    = attrSchema("sl", "vl", "adaptive_routing")
	sshSchema   = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "known_hosts"}, {Name: "jump_host"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "switches"}, {Type: "hosts"}},
	}
	checksSchema = attrSchema("enable", "disable")
	gnmiSchema   = attrSchema("port", "tls", "ca_file", "skip_verify", "timeout")
	credKeys     = []string{"username", "password_env", "key_file", "agent", "port", "sudo", "jump_host"}
	credsSchema  = attrSchema(credKeys...)
	switchSchema = attrSchema(append([]string{"role", "address", "ports", "gnmi_port", "platform", "os"}, credKeys...)...)
	hostSchema   = attrSchema(append([]string{"address", "nics", "k8s_node", "k8s_labels"}, credKeys...)...)
)

func attrSchema(names ...string) *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, n := range names {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: n})
	}
	return s
}

func parseHCL(name string, data []byte) (*Inventory, error) {
	p := newProblems(name)
	f, diags := hclparse.NewParser().ParseHCL(data, name)
	if diags.HasErrors() || f == nil {
		addDiags(p, diags)
		return nil, p.sorted()
	}
	raw := hclRaw(f.Body, p)
	inv := build(name, raw, p)
	if !p.empty() {
		return nil, p.sorted()
	}
	return inv, nil
}

// addDiags records HCL error diagnostics, sorted by position first: HCL
// reports unknown arguments in map order (hashicorp/hcl v2.25.0
// hclsyntax/structure.go Body.Content ranges over the Attributes map).
func addDiags(p *problems, diags hcl.Diagnostics) {
	diags = slices.Clone(diags)
	slices.SortStableFunc(diags, func(a, b *hcl.Diagnostic) int {
		switch {
		case a.Subject == nil && b.Subject == nil:
			return 0
		case a.Subject == nil:
			return -1
		case b.Subject == nil:
			return 1
		}
		return cmp.Or(strings.Compare(a.Subject.Filename, b.Subject.Filename),
			cmp.Compare(a.Subject.Start.Byte, b.Subject.Start.Byte))
	})
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		line := 1
		if d.Subject != nil {
			line = d.Subject.Start.Line
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + d.Detail
		}
		p.decode(line, "%s", msg)
	}
}

// content applies schema to body, reporting what does not fit.
func content(body hcl.Body, schema *hcl.BodySchema, p *problems) *hcl.BodyContent {
	c, diags := withoutSecrets(body).Content(schema)
	addDiags(p, diags)
	if c == nil {
		c = &hcl.BodyContent{Attributes: hcl.Attributes{}}
	}
	return c
}

// single returns the only block of type typ, reporting any repeat.
func single(c *hcl.BodyContent, typ string, p *problems) *hcl.Block {
	var first *hcl.Block
	for _, b := range c.Blocks {
		if b.Type != typ {
			continue
		}
		if first != nil {
			p.decode(b.DefRange.Start.Line, "duplicate %s block (first at line %d)", typ, first.DefRange.Start.Line)
			continue
		}
		first = b
	}
	return first
}

func hclRaw(body hcl.Body, p *problems) *rawInventory {
	hclSecrets(body, p)
	top := content(body, fileSchema, p)
	raw := &rawInventory{Fabric: hclScalar(top.Attributes["fabric"], "fabric", asString, p)}
	raw.FabricType = hclScalar(top.Attributes["fabric_type"], "fabric_type", asString, p)
	if b := single(top, "policy", p); b != nil {
		hclPolicyRaw(b, &raw.Policy, p)
	}
	if b := single(top, "ssh", p); b != nil {
		c := content(b.Body, sshSchema, p)
		raw.SSH.KnownHosts = hclScalar(c.Attributes["known_hosts"], "ssh.known_hosts", asString, p)
		raw.SSH.JumpHost = hclScalar(c.Attributes["jump_host"], "ssh.jump_host", asString, p)
		if b := single(c, "switches", p); b != nil {
			raw.SSH.Switches = hclCreds(content(b.Body, credsSchema, p).Attributes, "ssh.switches.", p)
		}
		if b := single(c, "hosts", p); b != nil {
			raw.SSH.Hosts = hclCreds(content(b.Body, credsSchema, p).Attributes, "ssh.hosts.", p)
		}
	}
	if b := single(top, "gnmi", p); b != nil {
		a := content(b.Body, gnmiSchema, p).Attributes
		g := &raw.GNMI
		g.Line = b.DefRange.Start.Line
		g.Port = hclScalar(a["port"], "gnmi.port", asInt, p)
		g.TLS = hclScalar(a["tls"], "gnmi.tls", asBool, p)
		g.CAFile = hclScalar(a["ca_file"], "gnmi.ca_file", asString, p)
		g.SkipVerify = hclScalar(a["skip_verify"], "gnmi.skip_verify", asBool, p)
		g.Timeout = hclScalar(a["timeout"], "gnmi.timeout", asString, p)
	}
	if b := single(top, "checks", p); b != nil {
		a := content(b.Body, checksSchema, p).Attributes
		raw.Checks.Enable = hclList(a["enable"], "checks.enable", false, asString, p)
		raw.Checks.Disable = hclList(a["disable"], "checks.disable", false, asString, p)
	}
	hclDevicesRaw(top, raw, p)
	return raw
}

// hclPolicyRaw reads the policy block into r.
func hclPolicyRaw(b *hcl.Block, r *rawPolicy, p *problems) {
	c := content(b.Body, policySchema, p)
	r.Line = b.DefRange.Start.Line
	r.Preset = hclScalar(c.Attributes["preset"], "preset", asString, p)
	r.Trust = hclScalar(c.Attributes["trust"], "trust", asString, p)
	if b := single(c, "roce", p); b != nil {
		a := content(b.Body, roceSchema, p).Attributes
		r.RoCEDSCP = hclList(a["dscp"], "roce.dscp", true, asInt, p)
		r.RoCEPriority = hclScalar(a["priority"], "roce.priority", asInt, p)
		r.RoCETrafficClass = hclScalar(a["traffic_class"], "roce.traffic_class", asInt, p)
		r.RoCEMode = hclScalar(a["mode"], "roce.mode", asString, p)
		r.RoCEMinBandwidth = hclScalar(a["min_bandwidth"], "roce.min_bandwidth", asInt, p)
		r.RoCEHostTSA = hclScalar(a["host_tsa"], "roce.host_tsa", asString, p)
	}
	if b := single(c, "cnp", p); b != nil {
		a := content(b.Body, cnpSchema, p).Attributes
		r.CNPDSCP = hclScalar(a["dscp"], "cnp.dscp", asInt, p)
		r.CNPPriority = hclScalar(a["priority"], "cnp.priority", asInt, p)
	}
	if b := single(c, "mtu", p); b != nil {
		a := content(b.Body, mtuSchema, p).Attributes
		r.MTUHost = hclScalar(a["host"], "mtu.host", asInt, p)
		r.MTUSwitch = hclScalar(a["switch"], "mtu.switch", asInt, p)
	}
	if b := single(c, "ecmp", p); b != nil {
		a := content(b.Body, ecmpSchema, p).Attributes
		r.HashFields = hclList(a["hash_fields"], "ecmp.hash_fields", false, asString, p)
		r.AdaptiveRouting = hclScalar(a["adaptive_routing"], "ecmp.adaptive_routing", asBool, p)
	}
	if b := single(c, "pfc", p); b != nil {
		a := content(b.Body, pfcSchema, p).Attributes
		r.CableLength = hclScalar(a["cable_length"], "pfc.cable_length", asInt, p)
	}
	if b := single(c, "rails", p); b != nil {
		a := content(b.Body, railsSchema, p).Attributes
		r.RailGroups = hclList(a["groups"], "rails.groups", false, asStrings, p)
	}
	if b := single(c, "ib", p); b != nil {
		a := content(b.Body, ibSchema, p).Attributes
		r.IBSL = hclScalar(a["sl"], "ib.sl", asInt, p)
		r.IBVL = hclScalar(a["vl"], "ib.vl", asInt, p)
		r.IBAdaptiveRouting = hclScalar(a["adaptive_routing"], "ib.adaptive_routing", asBool, p)
	}
}

// hclDevicesRaw reads the switch and host blocks, each at its line.
func hclDevicesRaw(top *hcl.BodyContent, raw *rawInventory, p *problems) {
	for _, b := range top.Blocks {
		if b.Type != layout.KindSwitch && b.Type != layout.KindHost || len(b.Labels) != 1 {
			continue
		}
		line := b.DefRange.Start.Line
		d := rawDevice{Line: line, Name: field[string]{Set: true, V: b.Labels[0], Line: line}}
		who := fmt.Sprintf("%s %q: ", b.Type, b.Labels[0])
		if b.Type == layout.KindSwitch {
			a := content(b.Body, switchSchema, p).Attributes
			d.Role = hclScalar(a["role"], who+"role", asString, p)
			d.Address = hclScalar(a["address"], who+"address", asString, p)
			d.Items = hclList(a["ports"], who+"ports", false, asString, p)
			d.Creds = hclCreds(a, who, p)
			d.GNMIPort = hclScalar(a["gnmi_port"], who+"gnmi_port", asInt, p)
			d.Platform = hclScalar(a["platform"], who+"platform", asString, p)
			d.OS = hclScalar(a["os"], who+"os", asString, p)
			raw.Switches = append(raw.Switches, d)
			continue
		}
		a := content(b.Body, hostSchema, p).Attributes
		d.Address = hclScalar(a["address"], who+"address", asString, p)
		d.Items = hclList(a["nics"], who+"nics", false, asString, p)
		d.Creds = hclCreds(a, who, p)
		d.K8sNode = hclScalar(a["k8s_node"], who+"k8s_node", asString, p)
		d.K8sLabels = hclScalar(a["k8s_labels"], who+"k8s_labels", asStringMap, p)
		raw.Hosts = append(raw.Hosts, d)
	}
}

// hclCreds reads an ssh group's or a device's login settings; prefix
// names the body in messages.
func hclCreds(a hcl.Attributes, prefix string, p *problems) rawCreds {
	return rawCreds{
		Username:    hclScalar(a["username"], prefix+"username", asString, p),
		PasswordEnv: hclScalar(a["password_env"], prefix+"password_env", asString, p),
		KeyFile:     hclScalar(a["key_file"], prefix+"key_file", asString, p),
		Agent:       hclScalar(a["agent"], prefix+"agent", asBool, p),
		Port:        hclScalar(a["port"], prefix+"port", asInt, p),
		Sudo:        hclScalar(a["sudo"], prefix+"sudo", asBool, p),
		JumpHost:    hclScalar(a["jump_host"], prefix+"jump_host", asString, p),
	}
}

// value evaluates an attribute with no variables or functions; ok is false
// when it is absent, null or broken (and then reported).
func value(a *hcl.Attribute, key string, p *problems) (cty.Value, int, bool) {
	if a == nil {
		return cty.NilVal, 0, false
	}
	line := a.Expr.Range().Start.Line
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		addDiags(p, diags)
		return cty.NilVal, line, false
	}
	if v.IsNull() {
		return cty.NilVal, line, false
	}
	if !v.IsWhollyKnown() {
		p.unreadable(line, "%s: value must be known", key)
		return cty.NilVal, line, false
	}
	return v, line, true
}

// converter turns a cty value into T; kind names T in messages.
type converter[T any] struct {
	kind string
	conv func(cty.Value) (T, bool)
}

var (
	asInt = converter[int]{"integer", func(v cty.Value) (int, bool) {
		n, err := convert.Convert(v, cty.Number)
		var i int
		if err != nil || n.IsNull() || gocty.FromCtyValue(n, &i) != nil {
			return 0, false
		}
		return i, true
	}}
	asString = converter[string]{"string", func(v cty.Value) (string, bool) {
		s, err := convert.Convert(v, cty.String)
		if err != nil || s.IsNull() {
			return "", false
		}
		return s.AsString(), true
	}}
	// asStringMap is a map of strings (Kubernetes labels).
	asStringMap = converter[map[string]string]{"map of string", func(v cty.Value) (map[string]string, bool) {
		m, err := convert.Convert(v, cty.Map(cty.String))
		if err != nil || m.IsNull() || !m.IsWhollyKnown() {
			return nil, false
		}
		out := map[string]string{}
		for it := m.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if e.IsNull() {
				return nil, false
			}
			out[k.AsString()] = e.AsString()
		}
		return out, true
	}}
	// asStrings is one rail group: a list of leaf names.
	asStrings = converter[[]string]{"list of string", func(v cty.Value) ([]string, bool) {
		l, err := convert.Convert(v, cty.List(cty.String))
		if err != nil || l.IsNull() || !l.IsWhollyKnown() {
			return nil, false
		}
		out := []string{}
		for it := l.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if e.IsNull() {
				return nil, false
			}
			out = append(out, e.AsString())
		}
		return out, true
	}}
	asBool = converter[bool]{"boolean", func(v cty.Value) (bool, bool) {
		b, err := convert.Convert(v, cty.Bool)
		if err != nil || b.IsNull() {
			return false, false
		}
		return b.True(), true
	}}
)

func hclScalar[T any](a *hcl.Attribute, key string, c converter[T], p *problems) field[T] {
	v, line, ok := value(a, key, p)
	if !ok {
		return field[T]{}
	}
	x, ok := c.conv(v)
	if !ok {
		p.unreadable(line, "%s: want %s, got %s", key, article(c.kind), describe(v))
		return field[T]{}
	}
	return field[T]{Set: true, V: x, Line: line}
}

// hclList evaluates a list attribute (or, with scalar, also a single value)
// with the line of each element. A bad element is reported and left out; the
// list stays set unless nothing valid is left, so the rest is still checked.
func hclList[T any](a *hcl.Attribute, key string, scalar bool, c converter[T], p *problems) list[T] {
	v, line, ok := value(a, key, p)
	if !ok {
		return list[T]{}
	}
	out := list[T]{Set: true, Line: line, V: []T{}}
	ty := v.Type()
	if !ty.IsTupleType() && !ty.IsListType() && !ty.IsSetType() {
		x, ok := c.conv(v)
		switch {
		case !scalar:
			p.unreadable(line, "%s: want a list of %ss, got %s", key, c.kind, describe(v))
			return list[T]{}
		case !ok:
			p.unreadable(line, "%s: want %s or a list of %ss, got %s", key, article(c.kind), c.kind, describe(v))
			return list[T]{}
		}
		out.V = append(out.V, x)
		out.Lines = append(out.Lines, line)
		return out
	}
	elems, _ := hcl.ExprList(a.Expr)
	aligned := len(elems) == v.LengthInt()
	bad := false
	i := 0
	for it := v.ElementIterator(); it.Next(); i++ {
		_, ev := it.Element()
		at := line
		if aligned {
			at = elems[i].Range().Start.Line
		}
		x, good := c.conv(ev)
		if !good {
			p.unreadable(at, "%s: want a list of %ss, got %s", key, c.kind, describe(ev))
			bad = true
			continue
		}
		out.V = append(out.V, x)
		out.Lines = append(out.Lines, at)
	}
	if bad && len(out.V) == 0 {
		return list[T]{}
	}
	return out
}

func article(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// describe names a bad value for a message.
func describe(v cty.Value) string {
	switch {
	case v.IsNull():
		return "null"
	case !v.IsKnown():
		return "an unknown value"
	case v.Type() == cty.String:
		return "string " + strconv.Quote(v.AsString())
	case v.Type() == cty.Number:
		return "number " + v.AsBigFloat().Text('g', 10)
	}
	return v.Type().FriendlyName()
}
