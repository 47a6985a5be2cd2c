package inventory

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"gopkg.in/yaml.v3"
)

// The inventory is committed next to the collected evidence and pasted into
// bug reports, so it may only say where a secret comes from (password_env,
// key_file, agent). A key that looks like it holds a secret is refused
// wherever it appears, with its own message instead of "unknown key", and
// its value is never shown: not in that message, and not in any other (see
// problems.hide).

const secretMsg = "inventory holds credential references, not secrets: use password_env"

// secretWords end the names of keys that hold secrets: "password",
// "sudo_password", "enablePassword", "api-token", ... password_env does not
// end in one of them.
var secretWords = []string{"password", "passwd", "secret", "passphrase", "token"}

func secretKey(name string) bool {
	k := strings.ToLower(name)
	for _, w := range secretWords {
		if strings.HasSuffix(k, w) {
			return true
		}
	}
	return false
}

// yamlSecrets reports every secret-looking key in the document. It walks
// the whole tree, not following aliases (an anchor's content is walked where
// it is defined), so a secret is found even under a key the decoder gave up
// on.
func yamlSecrets(root *yaml.Node, p *problems) {
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Kind == yaml.ScalarNode && secretKey(k.Value) {
					p.decode(k.Line, "key %q: %s", k.Value, secretMsg)
					hideYAML(v, p)
				}
			}
		}
		stack = append(stack, n.Content...)
	}
}

// hideYAML hides every scalar under n.
func hideYAML(n *yaml.Node, p *problems) {
	stack := []*yaml.Node{n}
	for steps := 0; len(stack) > 0 && steps < 10000; steps++ {
		n := resolve(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		if n.Kind == yaml.ScalarNode {
			p.hide(n.Value)
		}
		stack = append(stack, n.Content...)
	}
}

// hclSecrets reports every secret-looking argument, block type or object
// key in the file; content then drops those arguments and blocks so they
// are not also reported as unsupported.
func hclSecrets(body hcl.Body, p *problems) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return
	}
	type hit struct {
		name string
		at   hcl.Range
		val  hclsyntax.Expression // nil for a block
	}
	var hits []hit
	hclsyntax.VisitAll(sb, func(n hclsyntax.Node) hcl.Diagnostics {
		switch n := n.(type) {
		case *hclsyntax.Attribute:
			if secretKey(n.Name) {
				hits = append(hits, hit{n.Name, n.NameRange, n.Expr})
			}
		case *hclsyntax.Block:
			if secretKey(n.Type) {
				hits = append(hits, hit{n.Type, n.TypeRange, nil})
			}
		case *hclsyntax.ObjectConsExpr:
			for _, it := range n.Items {
				if name, ok := literalKey(it.KeyExpr); ok && secretKey(name) {
					hits = append(hits, hit{name, it.KeyExpr.Range(), it.ValueExpr})
				}
			}
		}
		return nil
	})
	// VisitAll walks attributes in map order.
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Compare(a.at.Start.Byte, b.at.Start.Byte) })
	for _, h := range hits {
		p.decode(h.at.Start.Line, "key %q: %s", h.name, secretMsg)
		if h.val == nil {
			continue
		}
		if v, diags := h.val.Value(nil); !diags.HasErrors() {
			hideCty(v, p)
		}
	}
}

// literalKey is an object key written as a name or a constant string.
func literalKey(e hclsyntax.Expression) (string, bool) {
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

func hideCty(v cty.Value, p *problems) {
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		switch {
		case !v.IsKnown() || v.IsNull():
		case v.Type() == cty.String:
			p.hide(v.AsString())
		case v.Type() == cty.Number:
			p.hide(v.AsBigFloat().Text('g', -1))
		}
		return true, nil
	})
}

// withoutSecrets is body without its secret-looking arguments and blocks,
// which hclSecrets has already reported.
func withoutSecrets(body hcl.Body) hcl.Body {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return body
	}
	var drop bool
	for name := range sb.Attributes {
		drop = drop || secretKey(name)
	}
	for _, b := range sb.Blocks {
		drop = drop || secretKey(b.Type)
	}
	if !drop {
		return body
	}
	c := *sb
	c.Attributes = hclsyntax.Attributes{}
	for name, a := range sb.Attributes {
		if !secretKey(name) {
			c.Attributes[name] = a
		}
	}
	c.Blocks = slices.DeleteFunc(slices.Clone(sb.Blocks), func(b *hclsyntax.Block) bool { return secretKey(b.Type) })
	return &c
}

// minHidden is the shortest value hidden from messages: replacing a shorter
// one would garble every message containing those letters, and a 1-3
// character secret protects nothing anyway.
const minHidden = 4

// hide keeps v out of every message: in messages, values appear raw or
// Go-quoted, so both spellings are hidden.
func (p *problems) hide(v string) {
	if len(v) < minHidden {
		return
	}
	p.secrets = append(p.secrets, v)
	if q := strconv.Quote(v); q[1:len(q)-1] != v {
		p.secrets = append(p.secrets, q[1:len(q)-1])
	}
}

// redact replaces the hidden values in msg, longest first so a secret that
// contains another is hidden whole. The advice of secretMsg itself is kept
// whole whatever the secret's value.
func (p *problems) redact(msg string) string {
	if len(p.secrets) == 0 {
		return msg
	}
	if head, ok := strings.CutSuffix(msg, secretMsg); ok {
		return p.redact(head) + secretMsg
	}
	s := slices.Clone(p.secrets)
	slices.SortFunc(s, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	for _, v := range s {
		msg = strings.ReplaceAll(msg, v, "[hidden]")
	}
	return msg
}
