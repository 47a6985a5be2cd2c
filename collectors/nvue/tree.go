package nvue

// Tree operations shared by the YAML and the commands parser. Both must build
// the same tree for the same configuration, so both go through these.

// ensureObject returns the member key of n, creating it as an empty object
// when absent. A leaf met on the way becomes an object: in NVUE a key is
// either a leaf or an object, and the later statement wins.
func (n *Node) ensureObject(key string, line int) *Node {
	c := n.Child(key)
	if c == nil {
		c = &Node{Key: key, Line: line}
		n.Children = append(n.Children, c)
		return c
	}
	if c.IsLeaf {
		c.IsLeaf, c.Value, c.Line = false, "", line
	}
	return c
}

// setLeaf makes the member key of n a leaf with value, replacing whatever
// was there (a later leaf replaces an earlier one, and an object too).
func (n *Node) setLeaf(key, value string, line int) *Node {
	c := n.Child(key)
	if c == nil {
		c = &Node{Key: key}
		n.Children = append(n.Children, c)
	}
	c.IsLeaf, c.Value, c.Children, c.Line = true, value, nil, line
	return c
}

// removeChild drops the member key of n; false when there was none.
func (n *Node) removeChild(key string) bool {
	for i, c := range n.Children {
		if c.Key == key {
			n.Children = append(n.Children[:i], n.Children[i+1:]...)
			return true
		}
	}
	return false
}

// mergeInto deep-merges the object src into the object dst, the way NVUE
// applies successive `set:` blocks: objects merge, a leaf replaces.
func mergeInto(dst, src *Node) {
	for _, s := range src.Children {
		if s.IsLeaf {
			dst.setLeaf(s.Key, s.Value, s.Line).Column = s.Column
			continue
		}
		d := dst.Child(s.Key)
		if d == nil {
			dst.Children = append(dst.Children, s)
			continue
		}
		if d.IsLeaf {
			d.IsLeaf, d.Value, d.Line, d.Column = false, "", s.Line, s.Column
		}
		mergeInto(d, s)
	}
}

// unsetFrom applies an `unset:` tree to dst: a member of u that is a leaf or
// an empty object names a key to remove; a member with children walks down.
// Keys that dst does not have are ignored, as NVUE does for a no-op unset.
func unsetFrom(dst, u *Node) {
	for _, c := range u.Children {
		if c.IsLeaf || len(c.Children) == 0 {
			dst.removeChild(c.Key)
			continue
		}
		if d := dst.Child(c.Key); d != nil && !d.IsLeaf {
			unsetFrom(d, c)
		}
	}
}

// Clone returns a deep copy of c: Apply on the copy leaves c as it was, so
// a fix can be previewed against the configuration it fixes.
func (c *Config) Clone() *Config {
	if c == nil {
		return nil
	}
	cp := *c
	cp.Root = c.Root.clone()
	return &cp
}

func (n *Node) clone() *Node {
	if n == nil {
		return nil
	}
	cp := *n
	if n.Children != nil {
		cp.Children = make([]*Node, len(n.Children))
		for i, c := range n.Children {
			cp.Children[i] = c.clone()
		}
	}
	return &cp
}
