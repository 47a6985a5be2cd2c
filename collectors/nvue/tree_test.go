package nvue

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// The builder indexes objects with many members; these tests hold it to
// the plain scan it replaces (refSet, refUnset: the tree code before the
// index), order of members and lines included, since the writers and the
// goldens depend on first-seen order.

func refChild(n *Node, key string) *Node {
	for _, c := range n.Children {
		if c.Key == key {
			return c
		}
	}
	return nil
}

func refRemove(n *Node, key string) {
	for i, c := range n.Children {
		if c.Key == key {
			n.Children = append(n.Children[:i], n.Children[i+1:]...)
			return
		}
	}
}

func refSet(root *Node, keys []string, value string, leaf bool, ln int) {
	n := root
	for i, k := range keys {
		c := refChild(n, k)
		if leaf && i == len(keys)-1 {
			if c == nil {
				c = &Node{Key: k}
				n.Children = append(n.Children, c)
			}
			c.IsLeaf, c.Value, c.Children, c.Line = true, value, nil, ln
			return
		}
		if c == nil {
			c = &Node{Key: k, Line: ln}
			n.Children = append(n.Children, c)
		} else if c.IsLeaf {
			c.IsLeaf, c.Value, c.Line = false, "", ln
		}
		n = c
	}
	n.Line = ln
}

func refUnset(root *Node, path []string) {
	last := len(path) - 1
	parent := root
	for _, k := range path[:last] {
		if parent = refChild(parent, k); parent == nil {
			return
		}
	}
	if !parent.IsLeaf {
		refRemove(parent, path[last])
		return
	}
	if parent.Value == path[last] && last >= 1 {
		gp := root
		for _, k := range path[:last-1] {
			if gp = refChild(gp, k); gp == nil {
				return
			}
		}
		refRemove(gp, path[last-1])
	}
}

// randomCommands sets and unsets, over 40 interfaces (past indexFrom), a
// description, an MTU and a qos binding, and now and then a whole
// interface or all of them.
func randomCommands(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		p := fmt.Sprintf("swp%d", r.IntN(40)+1)
		switch r.IntN(10) {
		case 0:
			fmt.Fprintf(&b, "nv unset interface %s\n", p)
		case 1:
			fmt.Fprintf(&b, "nv unset interface %s link mtu\n", p)
		case 2:
			fmt.Fprintf(&b, "nv unset interface %s description d%d\n", p, r.IntN(3))
		case 3:
			if r.IntN(20) == 0 {
				b.WriteString("nv unset interface\n")
			}
			fmt.Fprintf(&b, "nv set interface %s link mtu %d\n", p, 9000+r.IntN(3))
		case 4:
			fmt.Fprintf(&b, "nv set interface %s link\n", p)
		case 5:
			fmt.Fprintf(&b, "nv set interface %s qos pfc profile P%d\n", p, r.IntN(3))
		default:
			fmt.Fprintf(&b, "nv set interface %s description d%d\n", p, r.IntN(3))
		}
	}
	return b.String()
}

func TestBuilderMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	indexed := 0
	for i := range 200 {
		text := randomCommands(r, 300)
		got, errs, _ := ParseCommands("c", []byte(text))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		want := &Node{Line: 1}
		for _, cmd := range readCommands("c", []byte(text)).cmds {
			if cmd.unset {
				refUnset(want, cmd.words)
				continue
			}
			keys, value, leaf := cmd.setPath()
			refSet(want, keys, value, leaf, cmd.line)
		}
		if !reflect.DeepEqual(got.Root, want) {
			t.Fatalf("case %d: the indexed tree differs from the scanned one: %s\n%s", i, treeDiff(want, got.Root), text)
		}
		if in := got.Root.Child("interface"); in != nil && len(in.Children) >= indexFrom {
			indexed++
		}
	}
	if indexed < 100 {
		t.Fatalf("only %d of 200 cases end with an indexed object", indexed)
	}
}

// TestBuilderOrder: a member unset and set again moves to the end, as it
// did with the scan; the writers print members in this order.
func TestBuilderOrder(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "nv set interface swp%d link mtu 9216\n", i)
	}
	b.WriteString("nv unset interface swp5\nnv unset interface swp9\nnv set interface swp5 link mtu 9000\nnv unset interface swp30 link mtu 9216\n")
	cfg, errs, _ := ParseCommands("c", []byte(b.String()))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var keys []string
	for _, c := range cfg.Root.Child("interface").Children {
		keys = append(keys, c.Key)
	}
	want := "swp1 swp2 swp3 swp4 swp6 swp7 swp8"
	for i := 10; i <= 30; i++ {
		want += fmt.Sprintf(" swp%d", i)
	}
	want += " swp5"
	if got := strings.Join(keys, " "); got != want {
		t.Fatalf("order\n got %s\nwant %s", got, want)
	}
	if l := cfg.Root.Get("interface", "swp30", "link"); l == nil || len(l.Children) != 0 {
		t.Fatalf("swp30 link: %+v", l)
	}
}

// TestYAMLUnsetManyMembers: `unset:` blocks between `set:` blocks over an
// object with more than indexFrom members, as a startup.yaml with a
// history of changes holds them.
func TestYAMLUnsetManyMembers(t *testing.T) {
	var b strings.Builder
	b.WriteString("- set:\n    interface:\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "      swp%d:\n        link:\n          mtu: 9216\n", i)
	}
	b.WriteString("- unset:\n    interface:\n      swp3: {}\n      swp4:\n        link:\n          mtu: {}\n")
	b.WriteString("- set:\n    interface:\n      swp3:\n        type: swp\n      swp21:\n        type: swp\n")
	cfg, err := ParseYAML("y", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, c := range cfg.Root.Child("interface").Children {
		keys = append(keys, c.Key)
	}
	want := []string{"swp1", "swp2"}
	for i := 4; i <= 20; i++ {
		want = append(want, fmt.Sprintf("swp%d", i))
	}
	want = append(want, "swp3", "swp21")
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("order\n got %v\nwant %v", keys, want)
	}
	if n := cfg.Root.Get("interface", "swp4", "link"); n == nil || len(n.Children) != 0 {
		t.Fatalf("swp4 link: %+v", n)
	}
	if n := cfg.Root.Get("interface", "swp3", "type"); n == nil || n.Value != "swp" || n.Line != 72 {
		t.Fatalf("swp3 type: %+v", n)
	}
}
