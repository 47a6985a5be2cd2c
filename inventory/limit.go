package inventory

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Limit is a --limit selection: the inventory devices a run is restricted
// to, chosen with Ansible's host-pattern syntax (ansible/ansible-documentation
// docs/docsite/rst/inventory_guide/intro_patterns.rst, "Patterns: targeting
// hosts and groups"):
//
//   - A term is a device name, a glob over device names ("You can use
//     wildcard patterns"; path.Match: '*', '?', '[a-z]'), or a group: all
//     (or *), switches, hosts, or a switch role (leaf, spine, super-spine,
//     border). A word that is both a device name and a group selects both.
//   - Terms are separated by ',' or ':' ("You can use either a comma (,) or
//     a colon (:) to separate a list of hosts"); device names never hold
//     either.
//   - '!term' excludes ("webservers:!atlanta ... all hosts in webservers
//     except those in atlanta") and '&term' intersects ("webservers:&staging
//     ... any hosts in webservers that are also in staging"), in Ansible's
//     order: "1. : and , 2. & 3. !". A pattern of only exclusions and
//     intersections starts from all (ansible/ansible
//     lib/ansible/inventory/manager.py order_patterns: "if no regular
//     pattern was given, hence only exclude and/or intersection make that
//     magically work").
//
// Unlike Ansible, which warns "Could not match supplied host pattern,
// ignoring", a term that matches no device is an error: a limited gate
// that silently checks less than asked must not pass. Regular expressions
// ('~'), group subscripts (spine[0]) and host files ('@file') are not
// supported and are refused by name.
type Limit struct {
	// Pattern is the --limit value as given.
	Pattern string
	devices map[string]bool
	// known are every inventory device, selected or not.
	known map[string]bool
}

// Groups are the group names a limit term may use besides device names:
// all, switches, hosts and each switch role.
func Groups() []string {
	return append([]string{"all", "switches", "hosts"}, roles...)
}

// ParseLimit resolves pattern against inv. The error names the term that
// matched nothing or could not be read.
func ParseLimit(inv *Inventory, pattern string) (*Limit, error) {
	terms := strings.FieldsFunc(pattern, func(r rune) bool { return r == ',' || r == ':' })
	var regular, and, not []string
	for _, t := range terms {
		t = strings.TrimSpace(t)
		switch {
		case t == "":
		case strings.HasPrefix(t, "!"):
			not = append(not, t)
		case strings.HasPrefix(t, "&"):
			and = append(and, t)
		default:
			regular = append(regular, t)
		}
	}
	if len(regular)+len(and)+len(not) == 0 {
		return nil, fmt.Errorf("--limit %q: no pattern (want device names, globs or groups: %s)", pattern, strings.Join(Groups(), ", "))
	}
	if len(regular) == 0 {
		regular = []string{"all"}
	}
	sel := map[string]bool{}
	for _, t := range regular {
		m, err := matchTerm(inv, t)
		if err != nil {
			return nil, err
		}
		for n := range m {
			sel[n] = true
		}
	}
	for _, t := range and {
		m, err := matchTerm(inv, t[1:])
		if err != nil {
			return nil, err
		}
		for n := range sel {
			if !m[n] {
				delete(sel, n)
			}
		}
	}
	for _, t := range not {
		m, err := matchTerm(inv, t[1:])
		if err != nil {
			return nil, err
		}
		for n := range m {
			delete(sel, n)
		}
	}
	if len(sel) == 0 {
		return nil, fmt.Errorf("--limit %q selects no device of %s", pattern, inv.File)
	}
	known := map[string]bool{}
	for _, s := range inv.Switches {
		known[s.Name] = true
	}
	for _, h := range inv.Hosts {
		known[h.Name] = true
	}
	return &Limit{Pattern: pattern, devices: sel, known: known}, nil
}

// matchTerm is the devices one term (without its '!' or '&') names.
func matchTerm(inv *Inventory, t string) (map[string]bool, error) {
	switch {
	case t == "":
		return nil, fmt.Errorf("--limit: '!' or '&' without a pattern after it")
	case strings.HasPrefix(t, "~"):
		return nil, fmt.Errorf("--limit %q: regular expressions (~) are not supported; use globs such as leaf*", t)
	case strings.HasPrefix(t, "@"):
		return nil, fmt.Errorf("--limit %q: host files (@file) are not supported; list the names, comma-separated", t)
	case strings.ContainsAny(t, "!&"):
		return nil, fmt.Errorf("--limit %q: '!' and '&' go only at the start of a pattern", t)
	}
	if i := strings.IndexByte(t, '['); i > 0 && slices.Contains(Groups(), t[:i]) {
		return nil, fmt.Errorf("--limit %q: group subscripts are not supported; name the devices or use a glob", t)
	}
	if _, err := path.Match(t, ""); err != nil {
		return nil, fmt.Errorf("--limit %q: bad glob: %v", t, err)
	}
	m := map[string]bool{}
	add := func(name, role string, isSwitch bool) {
		ok, _ := path.Match(t, name)
		switch {
		case ok, t == "all",
			t == "switches" && isSwitch,
			t == "hosts" && !isSwitch,
			isSwitch && t == role:
			m[name] = true
		}
	}
	for _, s := range inv.Switches {
		add(s.Name, s.Role, true)
	}
	for _, h := range inv.Hosts {
		add(h.Name, "", false)
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("--limit: %q matches no device name or group of %s (groups: %s)", t, inv.File, strings.Join(Groups(), ", "))
	}
	return m, nil
}

// Has reports whether the limit selects device name. A nil Limit (no
// --limit) selects every device.
func (l *Limit) Has(name string) bool {
	return l == nil || l.devices[name]
}

// Names are the selected devices, sorted.
func (l *Limit) Names() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for n := range l.devices {
			if !yield(n) {
				return
			}
		}
	})
}

// Excludes reports whether name is an inventory device that the limit leaves
// out; names that are not inventory devices (the waiver file, a manifest
// no host is mapped to) are never excluded.
func (l *Limit) Excludes(name string) bool {
	return l != nil && l.known[name] && !l.devices[name]
}

// Apply is a copy of inv with only the selected devices, in their order;
// nil applies no limit and returns inv.
func (l *Limit) Apply(inv *Inventory) *Inventory {
	if l == nil {
		return inv
	}
	out := *inv
	out.Switches, out.Hosts = nil, nil
	for _, s := range inv.Switches {
		if l.devices[s.Name] {
			out.Switches = append(out.Switches, s)
		}
	}
	for _, h := range inv.Hosts {
		if l.devices[h.Name] {
			out.Hosts = append(out.Hosts, h)
		}
	}
	return &out
}

// LimitNotePrefix starts the note of a limited run.
const LimitNotePrefix = "limited run"

// Note is the report note of a limited run, listing the limit and what it
// selected, so that a partial run never reads as the fabric's clean bill.
func (l *Limit) Note() string {
	return fmt.Sprintf(LimitNotePrefix+" (--limit %s): %d of %d devices checked (%s); findings and input errors of the other devices are not reported",
		l.Pattern, len(l.devices), len(l.known), strings.Join(l.Names(), ", "))
}
