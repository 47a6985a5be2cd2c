package nvue

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"gopkg.in/yaml.v3"

	"github.com/qoslint/qoslint/internal/source"
)

// ParseYAML parses `nv config show -o yaml` output or /etc/nvue.d/startup.yaml.
//
// The top level is a list of single-key maps `- header:`, `- set:`, and in
// `nv config diff` output `- unset:` (ytti/oxidized
// spec/model/data/cumulus#MSN2010_5.9.2_nvue#custom_simulation.yaml, and
// CL-DOCS NVUE-CLI.md). The docs sometimes drop the leading `- `, so a
// mapping with header/set keys is accepted too, and a mapping with neither
// is taken as a bare `set` body.
func ParseYAML(file string, data []byte) (*Config, error) {
	// YAML text is Unicode (YAML 1.2 §5.2), and yaml.v3 reports a bad byte
	// at the line after it: find the real one first.
	if e := source.CheckUTF8(file, data, "YAML"); e != nil {
		return nil, e
	}
	doc, err := decodeYAML(file, data)
	if err != nil {
		return nil, err
	}
	// The root stands for the whole file; line 1 keeps every Line ≥ 1.
	cfg := &Config{File: file, Format: "yaml", Root: &Node{Line: 1}}
	top := doc.Content[0]
	b := newBuilder()
	defer b.finish()
	switch top.Kind {
	case yaml.SequenceNode:
		for _, item := range top.Content {
			if item.Kind != yaml.MappingNode {
				return nil, source.Errorf(file, line(item), "top-level list item must be a `header:`, `set:` or `unset:` mapping, not %s", kindName(item))
			}
			if err := applyEntries(b, file, cfg, item, true); err != nil {
				return nil, err
			}
		}
	case yaml.MappingNode:
		if err := applyEntries(b, file, cfg, top, hasEntryKey(top)); err != nil {
			return nil, err
		}
	default:
		return nil, source.Errorf(file, line(top), "NVUE configuration must be a list of `header:`/`set:` entries or a mapping, not %s", kindName(top))
	}
	return cfg, nil
}

// decodeYAML parses data into one document node with non-null content.
func decodeYAML(file string, data []byte) (*yaml.Node, error) {
	var docs []*yaml.Node
	err := safeDecode(data, func(n *yaml.Node) { docs = append(docs, n) })
	if err != nil {
		return nil, yamlError(file, data, err)
	}
	var doc *yaml.Node
	for _, d := range docs {
		if isEmptyDoc(d) {
			continue
		}
		if doc != nil {
			return nil, source.Errorf(file, line(d), "more than one YAML document; NVUE writes one")
		}
		doc = d
	}
	if doc == nil {
		return nil, source.Errorf(file, 1, "empty configuration")
	}
	return doc, nil
}

// safeDecode decodes every document of data. yaml.v3 is not supposed to
// panic, but a parser must never do so on bad input, so a panic becomes an
// error.
func safeDecode(data []byte, each func(*yaml.Node)) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: internal error: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		each(&n)
	}
}

func isEmptyDoc(d *yaml.Node) bool {
	if d.Kind != yaml.DocumentNode || len(d.Content) == 0 {
		return true
	}
	c := d.Content[0]
	return c.Kind == yaml.ScalarNode && c.ShortTag() == "!!null"
}

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns a yaml.v3 error into a *source.Error. Some yaml.v3 syntax
// errors carry no line ("mapping values are not allowed in this context",
// gopkg.in/yaml.v3 v3.0.1 scannerc.go); for those the line is the shortest prefix of the input that
// already fails with the same message.
func yamlError(file string, data []byte, err error) *source.Error {
	msg := err.Error()
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		n, convErr := strconv.Atoi(m[1])
		if convErr != nil || n < 1 {
			n = 1
		}
		return source.Errorf(file, n, "YAML: %s", m[2])
	}
	return source.Errorf(file, failingLine(data, msg), "YAML: %s", strings.TrimPrefix(msg, "yaml: "))
}

// failingLine bisects on line prefixes for one where parsing first fails with
// msg. The predicate need not be monotonic: bisection keeps a passing lower
// and a failing upper bound, so the answer is always a line at which the
// prefix goes from parsing to failing.
func failingLine(data []byte, msg string) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	fails := func(k int) bool {
		e := safeDecode(bytes.Join(lines[:k], nil), func(*yaml.Node) {})
		return e != nil && e.Error() == msg
	}
	lo, hi := 0, len(lines)
	if !fails(hi) {
		return 1
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return max(hi, 1)
}

// hasEntryKey reports whether a top-level mapping is the doc form
// `header: ... set: ...` rather than a bare set body.
func hasEntryKey(m *yaml.Node) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "header", "set", "unset":
			return true
		}
	}
	return false
}

// applyEntries applies one `header`/`set`/`unset` mapping in key order; when
// entries is false the whole mapping is a set body.
func applyEntries(b *builder, file string, cfg *Config, m *yaml.Node, entries bool) error {
	if !entries {
		tree, err := convertObject(file, m, &Node{Line: 1})
		if err != nil {
			return err
		}
		b.mergeInto(cfg.Root, tree)
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return source.Errorf(file, line(k), "top-level key must be header, set or unset, not %s", kindName(k))
		}
		switch k.Value {
		case "header":
			if err := readHeader(file, cfg, v); err != nil {
				return err
			}
		case "set", "unset":
			tree, err := convertValue(file, k, v)
			if err != nil {
				return err
			}
			if k.Value == "set" {
				b.mergeInto(cfg.Root, tree)
			} else {
				b.unsetFrom(cfg.Root, tree)
			}
		default:
			return source.Errorf(file, line(k), "unexpected top-level key %q (want header, set or unset)", k.Value)
		}
	}
	return nil
}

// convertValue converts the body of a `set:`/`unset:` key: an object, or
// null for an empty one.
func convertValue(file string, k, v *yaml.Node) (*Node, error) {
	if isNull(v) {
		return &Node{Key: k.Value, Line: line(k), Column: k.Column}, nil
	}
	if v.Kind != yaml.MappingNode {
		return nil, source.Errorf(file, line(v), "`%s:` must hold a mapping, not %s", k.Value, kindName(v))
	}
	return convertObject(file, v, &Node{Key: k.Value, Line: line(k), Column: k.Column})
}

// readHeader keeps every header field, in order; a field a later header
// repeats takes the later value in its first place.
func readHeader(file string, cfg *Config, v *yaml.Node) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		return source.Errorf(file, line(v), "`header:` must hold a mapping, not %s", kindName(v))
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return source.Errorf(file, line(k), "a header key must be a plain scalar, not %s", kindName(k))
		}
		if val.Kind == yaml.AliasNode && val.Alias != nil {
			val = val.Alias
		}
		f, err := headerField(file, k.Value, val)
		if err != nil {
			return err
		}
		if k.Value == "version" && val.Kind == yaml.ScalarNode && !isNull(val) {
			cfg.Version = val.Value
		}
		setHeaderField(cfg, f)
	}
	return nil
}

func setHeaderField(cfg *Config, f HeaderField) {
	for i := range cfg.Header {
		if cfg.Header[i].Key == f.Key {
			cfg.Header[i] = f
			return
		}
	}
	cfg.Header = append(cfg.Header, f)
}

// headerField encodes a header value back to YAML as it was written. An
// alias (or anchor) would not survive being written alone, so a value that
// holds one is written resolved; yaml.v3's decoder bounds that expansion.
func headerField(file, key string, val *yaml.Node) (HeaderField, error) {
	f := HeaderField{Key: key}
	if val.Kind == yaml.ScalarNode && !isNull(val) {
		f.Value = val.Value
	}
	node := val
	if hasAlias(val) {
		var v any
		if err := val.Decode(&v); err != nil {
			return f, source.Errorf(file, line(val), "header %q: %v", key, err)
		}
		node = &yaml.Node{}
		if err := node.Encode(v); err != nil {
			return f, source.Errorf(file, line(val), "header %q: %v", key, err)
		}
	}
	// A scalar with a comment is encoded each time: the encoder writes the
	// comment too.
	cacheable := node.Kind == yaml.ScalarNode && node.HeadComment == "" && node.LineComment == "" && node.FootComment == ""
	k := scalarKey{node.Tag, node.Value, node.Style}
	if cacheable {
		if y, ok := scalarYAML.Load(k); ok {
			f.YAML = y.(string)
			return f, nil
		}
	}
	y, err := encodeHeader(node)
	if err != nil {
		return f, source.Errorf(file, line(val), "header %q: %v", key, err)
	}
	if cacheable && scalarCount.Add(1) <= scalarCacheMax {
		scalarYAML.Store(k, y)
	}
	f.YAML = y
	return f, nil
}

// scalarYAML caches the encoding of scalar header values, which every
// switch of a fabric repeats (`version: 5.9.1`...): a yaml.v3 encoder
// allocates some 4 kB to start, which at TestLintScale's size was 85 MB of
// garbage per lint. A scalar's encoding depends only on its tag, text and
// style; the cache is bounded, past which values are encoded each time.
var (
	scalarYAML  sync.Map // scalarKey → string
	scalarCount atomic.Int64
)

const scalarCacheMax = 4096

type scalarKey struct {
	tag, value string
	style      yaml.Style
}

func encodeHeader(node *yaml.Node) (string, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

// convertObject fills obj with the members of the YAML mapping m. Keys stay
// as written (yaml.v3 already removed the quotes: `'26'` is "26"); `swp1-18`
// is not expanded here.
func convertObject(file string, m *yaml.Node, obj *Node) (*Node, error) {
	seen := make(map[string]int, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, source.Errorf(file, line(k), "a key must be a plain scalar, not %s", kindName(k))
		}
		if k.Value == "" {
			return nil, source.Errorf(file, line(k), "empty key")
		}
		if first, dup := seen[k.Value]; dup {
			return nil, source.Errorf(file, line(k), "duplicate key %q (first at line %d)", k.Value, first)
		}
		seen[k.Value] = line(k)
		n := &Node{Key: k.Value, Line: line(k), Column: k.Column}
		switch {
		case isNull(v):
			// `k:` is an object with no members, like `k: {}`.
		case v.Kind == yaml.ScalarNode:
			n.IsLeaf, n.Value = true, v.Value
		case v.Kind == yaml.MappingNode:
			if _, err := convertObject(file, v, n); err != nil {
				return nil, err
			}
		default:
			// NVUE writes sets as `{'3': {}}`, never as YAML sequences.
			return nil, source.Errorf(file, line(v), "%q holds %s; NVUE configuration has only mappings and scalars", k.Value, kindName(v))
		}
		obj.Children = append(obj.Children, n)
	}
	return obj, nil
}

func isNull(v *yaml.Node) bool {
	return v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null"
}

func line(n *yaml.Node) int { return max(n.Line, 1) }

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		if isNull(n) {
			return "null"
		}
		return fmt.Sprintf("the scalar %q", n.Value)
	}
	return "a document"
}
