package checks

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// Selecting checks (--enable, --disable, and the inventory's checks
// section). The rule, which `qoslint help checks` states too:
//
//  1. Each name is a check ID or a kind (config, evidence, topology,
//     input); any other name is an error naming it.
//  2. The inventory's lists and the command line's are merged: enabled is
//     every name either enables, disabled every name either disables.
//  3. With no enabled name every check is on; otherwise only the checks
//     the enabled names cover.
//  4. Then every check a disabled name covers is off: disable wins over
//     enable, whichever of the two is more specific.
//  5. A selection that leaves no check on is an error: a gate that checks
//     nothing must not pass.
//
// not-collected (kind input) is selectable like any check. The waiver
// file's own check is not: it judges the waiver file, not the fabric.

// Selector is one name the user wrote: Where is the flag (--enable) or
// inventory key (checks.enable), Pos its place in the inventory (zero on
// the command line).
type Selector struct {
	Name  string
	Where string
	Pos   source.Pos
}

// Set is the checks a run reports. The nil *Set is every check.
type Set struct{ on map[string]bool }

// Enabled reports whether the set reports check id.
func (s *Set) Enabled(id string) bool { return s == nil || s.on[id] }

// IDs are the enabled checks in catalog order.
func (s *Set) IDs() []string {
	var out []string
	for _, c := range selectable() {
		if s.Enabled(c.ID) {
			out = append(out, c.ID)
		}
	}
	return out
}

func selectable() []*Check { return append(All(), NotCollected) }

// Select applies the rule above. Every unknown name is reported, an
// inventory one as a *source.Error at its line.
func Select(enable, disable []Selector) (*Set, error) {
	var errs []error
	covers := func(sels []Selector) map[string]bool {
		ids := map[string]bool{}
		for _, sel := range sels {
			matched := false
			for _, c := range selectable() {
				if c.ID == sel.Name || string(c.Kind) == sel.Name {
					ids[c.ID], matched = true, true
				}
			}
			if !matched && !slices.Contains(Kinds, Kind(sel.Name)) {
				errs = append(errs, unknownName(sel))
			}
		}
		return ids
	}
	on, off := covers(enable), covers(disable)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	s := &Set{on: map[string]bool{}}
	for _, c := range selectable() {
		if (len(enable) == 0 || on[c.ID]) && !off[c.ID] {
			s.on[c.ID] = true
		}
	}
	if len(s.on) == 0 {
		return nil, fmt.Errorf("the enabled and disabled checks leave no check to run (disable wins over enable)")
	}
	return s, nil
}

func unknownName(sel Selector) error {
	kinds := make([]string, len(Kinds))
	for i, k := range Kinds {
		kinds[i] = string(k)
	}
	msg := fmt.Sprintf("%s: unknown check or kind %q (a check ID that `qoslint explain` lists, or a kind: %s)",
		sel.Where, sel.Name, strings.Join(kinds, ", "))
	if near := Nearest(sel.Name, SelectableNames()); near != "" {
		msg += "; did you mean " + near + "?"
	}
	if sel.Pos.File != "" {
		return &source.Error{Pos: sel.Pos, Msg: msg}
	}
	return errors.New(msg)
}
