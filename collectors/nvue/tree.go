package nvue

// Tree operations shared by the YAML and the commands parser. Both must build
// the same tree for the same configuration, so both go through these.
//
// A configuration may hold a hundred thousand interfaces and as many BGP
// neighbors, one command each (a 60 MB `nv config show -o commands`), so a
// lookup among an object's members must not scan them: a building pass
// (builder) keeps a map of the members of every object it looks into that
// has many. The map lives in the pass, not in Node, so the tree callers get
// is plain data (comparable, safe to read from several goroutines, and free
// to be edited through Children), and Node.Child stays the simple scan the
// model's lookups in small objects need.

// indexFrom is the member count from which a builder indexes an object; a
// scan of fewer is as fast as a map.
const indexFrom = 16

// builder is one pass that changes a tree: one file parsed, one Apply.
type builder struct {
	index map[*Node]map[string]*Node
	// dead are members removed from an indexed object, and shrunk the
	// objects that hold them: removing from the middle of a long slice on
	// every unset would be quadratic, so finish drops them all at once.
	dead   map[*Node]bool
	shrunk map[*Node]bool
}

func newBuilder() *builder {
	return &builder{index: map[*Node]map[string]*Node{}, dead: map[*Node]bool{}, shrunk: map[*Node]bool{}}
}

// child returns the member key of n, or nil.
func (b *builder) child(n *Node, key string) *Node {
	if len(n.Children) < indexFrom {
		// Only an indexed object has dead members: they keep it long
		// until finish.
		return n.Child(key)
	}
	m, ok := b.index[n]
	if !ok {
		m = make(map[string]*Node, len(n.Children))
		for _, c := range n.Children {
			if _, dup := m[c.Key]; !dup && !b.dead[c] {
				m[c.Key] = c
			}
		}
		b.index[n] = m
	}
	return m[key]
}

// get walks exact keys from n; nil when any is absent.
func (b *builder) get(n *Node, path ...string) *Node {
	for _, k := range path {
		if n = b.child(n, k); n == nil {
			return nil
		}
	}
	return n
}

// add appends c to n's members.
func (b *builder) add(n, c *Node) {
	n.Children = append(n.Children, c)
	if m, ok := b.index[n]; ok {
		m[c.Key] = c
	}
}

// clear drops n's members.
func (b *builder) clear(n *Node) {
	n.Children = nil
	delete(b.index, n)
	delete(b.shrunk, n)
}

// finish drops the members removed during the pass.
func (b *builder) finish() {
	for n := range b.shrunk {
		live := n.Children[:0]
		for _, c := range n.Children {
			if !b.dead[c] {
				live = append(live, c)
			}
		}
		clear(n.Children[len(live):])
		n.Children = live
	}
	*b = *newBuilder()
}

// ensureObject returns the member key of n, creating it as an empty object
// when absent. A leaf met on the way becomes an object: in NVUE a key is
// either a leaf or an object, and the later statement wins.
func (b *builder) ensureObject(n *Node, key string, line int) *Node {
	c := b.child(n, key)
	if c == nil {
		c = &Node{Key: key, Line: line}
		b.add(n, c)
		return c
	}
	if c.IsLeaf {
		c.IsLeaf, c.Value, c.Line = false, "", line
	}
	return c
}

// setLeaf makes the member key of n a leaf with value, replacing whatever
// was there (a later leaf replaces an earlier one, and an object too).
func (b *builder) setLeaf(n *Node, key, value string, line int) *Node {
	c := b.child(n, key)
	if c == nil {
		c = &Node{Key: key}
		b.add(n, c)
	}
	b.clear(c)
	c.IsLeaf, c.Value, c.Line = true, value, line
	return c
}

// removeChild drops the member key of n; false when there was none.
func (b *builder) removeChild(n *Node, key string) bool {
	if len(n.Children) < indexFrom {
		for i, c := range n.Children {
			if c.Key == key {
				n.Children = append(n.Children[:i], n.Children[i+1:]...)
				return true
			}
		}
		return false
	}
	c := b.child(n, key)
	if c == nil {
		return false
	}
	b.dead[c], b.shrunk[n] = true, true
	delete(b.index[n], key)
	return true
}

// mergeInto deep-merges the object src into the object dst, the way NVUE
// applies successive `set:` blocks: objects merge, a leaf replaces.
func (b *builder) mergeInto(dst, src *Node) {
	for _, s := range src.Children {
		if s.IsLeaf {
			b.setLeaf(dst, s.Key, s.Value, s.Line).Column = s.Column
			continue
		}
		d := b.child(dst, s.Key)
		if d == nil {
			b.add(dst, s)
			continue
		}
		if d.IsLeaf {
			d.IsLeaf, d.Value, d.Line, d.Column = false, "", s.Line, s.Column
		}
		b.mergeInto(d, s)
	}
}

// unsetFrom applies an `unset:` tree to dst: a member of u that is a leaf or
// an empty object names a key to remove; a member with children walks down.
// Keys that dst does not have are ignored, as NVUE does for a no-op unset.
func (b *builder) unsetFrom(dst, u *Node) {
	for _, c := range u.Children {
		if c.IsLeaf || len(c.Children) == 0 {
			b.removeChild(dst, c.Key)
			continue
		}
		if d := b.child(dst, c.Key); d != nil && !d.IsLeaf {
			b.unsetFrom(d, c)
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
