package inventory

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The YAML schema. Pointers tell "absent" from a zero value. A Node.Decode
// does not honour KnownFields (gopkg.in/yaml.v3 v3.0.1 yaml.go: its
// decoder has no knownFields), so the whole document is
// decoded at once by a strict Decoder and positions come from a second parse
// into a yaml.Node tree.
type yamlFile struct {
	Fabric     *string      `yaml:"fabric"`
	FabricType *string      `yaml:"fabric_type"`
	Policy     *yamlPolicy  `yaml:"policy"`
	SSH        *yamlSSH     `yaml:"ssh"`
	GNMI       *yamlGNMI    `yaml:"gnmi"`
	Checks     *yamlChecks  `yaml:"checks"`
	Switches   []yamlSwitch `yaml:"switches"`
	Hosts      []yamlHost   `yaml:"hosts"`
}

type yamlPolicy struct {
	Preset *string    `yaml:"preset"`
	RoCE   *yamlRoCE  `yaml:"roce"`
	CNP    *yamlCNP   `yaml:"cnp"`
	Trust  *string    `yaml:"trust"`
	MTU    *yamlMTU   `yaml:"mtu"`
	ECMP   *yamlECMP  `yaml:"ecmp"`
	PFC    *yamlPFC   `yaml:"pfc"`
	Rails  *yamlRails `yaml:"rails"`
	IB     *yamlIB    `yaml:"ib"`
}

// yamlIB is the InfiniBand intent: the applications' SL and the VL it
// must reach.
type yamlIB struct {
	SL              *int  `yaml:"sl"`
	VL              *int  `yaml:"vl"`
	AdaptiveRouting *bool `yaml:"adaptive_routing"`
}

// yamlRails is the rail rule: per rail, the leaves of its group.
type yamlRails struct {
	Groups [][]string `yaml:"groups"`
}

type yamlRoCE struct {
	// DSCP is one value or a list; a Node-typed field keeps the decode of
	// the enclosing document strict and we read the scalar(s) ourselves.
	DSCP         yaml.Node `yaml:"dscp"`
	Priority     *int      `yaml:"priority"`
	TrafficClass *int      `yaml:"traffic_class"`
	Mode         *string   `yaml:"mode"`
	MinBandwidth *int      `yaml:"min_bandwidth"`
	HostTSA      *string   `yaml:"host_tsa"`
}

type yamlCNP struct {
	DSCP     *int `yaml:"dscp"`
	Priority *int `yaml:"priority"`
}

type yamlMTU struct {
	Host   *int `yaml:"host"`
	Switch *int `yaml:"switch"`
}

type yamlPFC struct {
	CableLength *int `yaml:"cable_length"`
}

type yamlECMP struct {
	HashFields      []string `yaml:"hash_fields"`
	AdaptiveRouting *bool    `yaml:"adaptive_routing"`
}

// yamlChecks is the checks section: check IDs or kinds.
type yamlChecks struct {
	Enable  []string `yaml:"enable"`
	Disable []string `yaml:"disable"`
}

type yamlSSH struct {
	KnownHosts *string    `yaml:"known_hosts"`
	JumpHost   *string    `yaml:"jump_host"`
	Switches   *yamlCreds `yaml:"switches"`
	Hosts      *yamlCreds `yaml:"hosts"`
}

type yamlGNMI struct {
	Port       *int    `yaml:"port"`
	TLS        *bool   `yaml:"tls"`
	CAFile     *string `yaml:"ca_file"`
	SkipVerify *bool   `yaml:"skip_verify"`
	// Timeout is a Go duration ("30s"), parsed by build.
	Timeout *string `yaml:"timeout"`
}

// yamlCreds is an ssh group, and is inlined in every device: a device's
// settings sit directly on its entry.
type yamlCreds struct {
	Username    *string `yaml:"username"`
	PasswordEnv *string `yaml:"password_env"`
	KeyFile     *string `yaml:"key_file"`
	Agent       *bool   `yaml:"agent"`
	Port        *int    `yaml:"port"`
	Sudo        *bool   `yaml:"sudo"`
	JumpHost    *string `yaml:"jump_host"`
}

type yamlSwitch struct {
	Name      *string  `yaml:"name"`
	Role      *string  `yaml:"role"`
	Address   *string  `yaml:"address"`
	Ports     []string `yaml:"ports"`
	GNMIPort  *int     `yaml:"gnmi_port"`
	Platform  *string  `yaml:"platform"`
	OS        *string  `yaml:"os"`
	yamlCreds `yaml:",inline"`
}

type yamlHost struct {
	Name    *string  `yaml:"name"`
	Address *string  `yaml:"address"`
	NICs    []string `yaml:"nics"`
	// K8sNode and K8sLabels map the host to its Kubernetes node.
	K8sNode   *string           `yaml:"k8s_node"`
	K8sLabels map[string]string `yaml:"k8s_labels"`
	yamlCreds `yaml:",inline"`
}

var (
	yamlLineRe   = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	unknownKeyRe = regexp.MustCompile(`^field (.*) not found in type \S+$`)
	terrorRe     = regexp.MustCompile("^cannot unmarshal (!!\\w+|\\S+)(?: `(.*)`)? into (\\S+)$")
)

func parseYAML(name string, data []byte) (*Inventory, error) {
	p := newProblems(name)
	var f yamlFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(&f)
	var te *yaml.TypeError
	switch {
	case err == nil, errors.Is(err, io.EOF): // io.EOF: empty document
	case errors.As(err, &te):
		// Non-fatal: f is filled as far as possible.
	default:
		addYAMLSyntax(p, err)
		return nil, p.sorted()
	}
	if err == nil || te != nil {
		// A second document is almost always a paste error; say so rather
		// than ignore it.
		var extra yaml.Node
		switch err := dec.Decode(&extra); {
		case errors.Is(err, io.EOF):
		case err != nil:
			addYAMLSyntax(p, err)
		default:
			p.decode(extra.Line, "only one YAML document allowed (found another)")
		}
	}

	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		addYAMLSyntax(p, err)
		return nil, p.sorted()
	}
	root := yamlRoot(&doc)
	yamlSecrets(root, p)
	if te != nil {
		index := indexYAML(root)
		for _, msg := range te.Errors {
			line, msg := splitYAMLLine(msg)
			if m := unknownKeyRe.FindStringSubmatch(msg); m != nil && secretKey(m[1]) {
				continue // yamlSecrets reports it
			}
			p.decode(line, "%s", explainYAML(index, line, msg))
		}
	}
	raw := yamlRaw(&f, root, p)
	inv := build(name, raw, p)
	if !p.empty() {
		return nil, p.sorted()
	}
	return inv, nil
}

func addYAMLSyntax(p *problems, err error) {
	line, msg := splitYAMLLine(err.Error())
	p.decode(line, "%s", strings.TrimPrefix(msg, "yaml: "))
}

// splitYAMLLine takes "line N: msg" or "yaml: line N: msg" apart; messages
// without a line (some syntax errors have none) go to line 1.
func splitYAMLLine(s string) (int, string) {
	if m := yamlLineRe.FindStringSubmatch(s); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n, m[2]
		}
	}
	return 1, s
}

// yamlEntry is one key or sequence item in the document, with its dotted
// path as the user would write it ("switches[1].ports[0]").
type yamlEntry struct {
	path     string
	key, val *yaml.Node // key is nil for sequence items
}

// indexYAML lists the document's keys and items, not following aliases.
// The schema is four levels deep; deeper nodes are not worth a path.
func indexYAML(root *yaml.Node) []yamlEntry {
	var out []yamlEntry
	var walk func(n *yaml.Node, path string, depth int)
	walk = func(n *yaml.Node, path string, depth int) {
		if n == nil || depth > 8 {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				child := k.Value
				if path != "" {
					child = path + "." + k.Value
				}
				out = append(out, yamlEntry{path: child, key: k, val: v})
				walk(v, child, depth+1)
			}
		case yaml.SequenceNode:
			for i, v := range n.Content {
				child := fmt.Sprintf("%s[%d]", path, i)
				out = append(out, yamlEntry{path: child, val: v})
				walk(v, child, depth+1)
			}
		}
	}
	walk(root, "", 0)
	return out
}

// explainYAML rewrites a yaml.v3 TypeError line in the schema's terms: Go
// type names mean nothing to the user, the key path does.
func explainYAML(index []yamlEntry, line int, msg string) string {
	if m := unknownKeyRe.FindStringSubmatch(msg); m != nil {
		for _, e := range index {
			if e.key != nil && e.key.Line == line && e.key.Value == m[1] {
				if parent, ok := cutLast(e.path); ok {
					return fmt.Sprintf("unknown key %q in %s", m[1], parent)
				}
				return fmt.Sprintf("unknown top-level key %q", m[1])
			}
		}
		return fmt.Sprintf("unknown key %q", m[1])
	}
	m := terrorRe.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	tag, value, target := m[1], m[2], m[3]
	got := yamlKinds[tag]
	if got == "" {
		got = tag
	}
	if strings.Contains(msg, "`") {
		got += " " + strconv.Quote(value)
	}
	want := goKinds[target]
	switch {
	case want != "":
	case strings.HasPrefix(target, "[]"):
		want = "a list"
	case strings.HasPrefix(target, "inventory."):
		want = "a mapping"
	default:
		want = target
	}
	text := fmt.Sprintf("want %s, got %s", want, got)
	// Name the key when exactly one value on that line fits the message.
	var path string
	n := 0
	for _, e := range index {
		if e.val.Line != line || yamlKinds[e.val.ShortTag()] != yamlKinds[tag] {
			continue
		}
		if e.val.Kind == yaml.ScalarNode && !strings.HasPrefix(e.val.Value, strings.TrimSuffix(value, "...")) {
			continue
		}
		path = e.path
		n++
	}
	if n == 1 && path != "" {
		return path + ": " + text
	}
	return text
}

func cutLast(path string) (string, bool) {
	i := strings.LastIndexAny(path, ".[")
	if i <= 0 {
		return "", false
	}
	return path[:i], true
}

var yamlKinds = map[string]string{
	"!!str": "string", "!!int": "integer", "!!float": "number", "!!bool": "boolean",
	"!!null": "null", "!!seq": "list", "!!map": "mapping", "!!timestamp": "timestamp",
	"!!binary": "binary",
}

var goKinds = map[string]string{
	"int": "an integer", "string": "a string", "bool": "true or false",
	"[]string":               "a list of strings",
	"[]inventory.yamlSwitch": "a list of switches", "[]inventory.yamlHost": "a list of hosts",
}
