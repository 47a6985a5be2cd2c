package k8s

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/qoslint/qoslint/internal/source"
)

// resolve follows aliases; the bound stops a malformed cycle.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 16; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// entry returns the key and value of key in mapping n (nil, nil when
// absent, null, or n is not a mapping).
func entry(n *yaml.Node, key string) (k, v *yaml.Node) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			v := resolve(n.Content[i+1])
			if v == nil || isNull(v) {
				return n.Content[i], nil
			}
			return n.Content[i], v
		}
	}
	return nil, nil
}

func get(n *yaml.Node, key string) *yaml.Node {
	_, v := entry(n, key)
	return v
}

// pairs are the key/value pairs of mapping n, in file order.
func pairs(n *yaml.Node) (keys, vals []*yaml.Node) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := resolve(n.Content[i+1]); v != nil {
			keys, vals = append(keys, n.Content[i]), append(vals, v)
		}
	}
	return keys, vals
}

// seq are the items of sequence n.
func seq(n *yaml.Node) []*yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	var out []*yaml.Node
	for _, it := range n.Content {
		if r := resolve(it); r != nil && !isNull(r) {
			out = append(out, r)
		}
	}
	return out
}

func pos(file string, n *yaml.Node) source.Pos {
	if n == nil {
		return source.Pos{File: file}
	}
	return source.Pos{File: file, Line: n.Line, Column: n.Column}
}

// str reads a scalar string at key; a mapping or list there is an error.
func str(file string, n *yaml.Node, key string) (Str, error) {
	k, v := entry(n, key)
	if v == nil {
		return Str{Pos: pos(file, k)}, nil
	}
	if v.Kind != yaml.ScalarNode {
		return Str{}, source.Errorf(file, v.Line, "%s: want a string, not a %s", key, kindName(v))
	}
	return Str{V: v.Value, Set: true, Pos: pos(file, k)}, nil
}

// integer reads an integer at key (a quoted number too, as the API server
// would refuse it but a person may write it).
func integer(file string, n *yaml.Node, key string) (Int, error) {
	k, v := entry(n, key)
	if v == nil {
		return Int{Pos: pos(file, k)}, nil
	}
	i, err := strconv.Atoi(strings.TrimSpace(v.Value))
	if v.Kind != yaml.ScalarNode || err != nil {
		return Int{}, source.Errorf(file, v.Line, "%s: want an integer, not %q", key, v.Value)
	}
	return Int{V: i, Set: true, Pos: pos(file, k)}, nil
}

// boolean reads a YAML boolean at key; nil when absent.
func boolean(file string, n *yaml.Node, key string) (*bool, error) {
	_, v := entry(n, key)
	if v == nil {
		return nil, nil
	}
	var b bool
	if v.Kind != yaml.ScalarNode || v.Decode(&b) != nil {
		return nil, source.Errorf(file, v.Line, "%s: want true or false, not %q", key, v.Value)
	}
	return &b, nil
}

// strMap reads a map of strings (labels, nodeSelector, ConfigMap data).
func strMap(file string, n *yaml.Node, what string) (map[string]Str, error) {
	n = resolve(n)
	if n == nil || isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, source.Errorf(file, n.Line, "%s: want a mapping, not a %s", what, kindName(n))
	}
	out := map[string]Str{}
	keys, vals := pairs(n)
	for i, k := range keys {
		if vals[i].Kind != yaml.ScalarNode {
			return nil, source.Errorf(file, vals[i].Line, "%s.%s: want a string, not a %s", what, k.Value, kindName(vals[i]))
		}
		out[k.Value] = Str{V: vals[i].Value, Set: true, Pos: pos(file, k)}
	}
	return out, nil
}

func plain(m map[string]Str) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v.V
	}
	return out
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	}
	return "scalar"
}

// pointer appends key to a JSON pointer (RFC 6901 escaping).
func pointer(base string, key string) string {
	return base + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}
