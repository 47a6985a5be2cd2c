package nvue

import (
	"slices"
	"strings"
)

// TreeDiff compares two configuration trees by content alone: keys,
// values and which objects exist, in any member order and at any line or
// column, as the YAML and the command form of one configuration list
// members in different orders. It returns the settings only a has and only
// b has, each as "key > key = value" (an empty object as "key > key : {}"),
// sorted; both empty when the trees describe the same configuration.
func TreeDiff(a, b *Node) (onlyA, onlyB []string) {
	fa, fb := flattenTree(a), flattenTree(b)
	for _, s := range fa {
		if _, ok := slices.BinarySearch(fb, s); !ok {
			onlyA = append(onlyA, s)
		}
	}
	for _, s := range fb {
		if _, ok := slices.BinarySearch(fa, s); !ok {
			onlyB = append(onlyB, s)
		}
	}
	return onlyA, onlyB
}

// flattenTree lists every leaf and every object of a tree by its key
// path, sorted and without duplicates.
func flattenTree(n *Node) []string {
	var out []string
	var walk func(prefix []string, n *Node)
	walk = func(prefix []string, n *Node) {
		if n == nil {
			return
		}
		for _, c := range n.Children {
			p := append(prefix[:len(prefix):len(prefix)], c.Key)
			if c.IsLeaf {
				out = append(out, strings.Join(p, " > ")+" = "+c.Value)
				continue
			}
			out = append(out, strings.Join(p, " > ")+" : {}")
			walk(p, c)
		}
	}
	walk(nil, n)
	slices.Sort(out)
	return slices.Compact(out)
}
