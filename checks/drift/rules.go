package drift

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// policyRules is the policy the values are judged against. The judging
// itself is the checks' (checks/judge): a value here breaks the policy
// exactly where its check would report it. Only what a snapshot cannot
// tell is decided here, and says so where it is.
type policyRules struct {
	p policy.Policy
	// hashed are the ecmp-hash fields ecmp-hash judges.
	hashed map[string]bool
	// sections are the optional snapshot sections both sides carry: a
	// value outside them is unknown on one side and not compared.
	sections map[string]bool
	// fabric is what one side's whole fabric decides for a device: the
	// verdicts that compare switches with each other.
	fabric fabricFacts
}

// newPolicyRules are the rules for judging side s of a comparison with
// other.
func newPolicyRules(p policy.Policy, s, other *snapshot.Snapshot) *policyRules {
	r := &policyRules{p: p, hashed: map[string]bool{}, sections: map[string]bool{}}
	for _, f := range judge.ECMPHashFields(p) {
		r.hashed[f] = true
	}
	for _, sec := range snapshot.AllSections {
		if s.Has(sec) && other.Has(sec) {
			r.sections[sec] = true
		}
	}
	r.fabric = fabricOf(s)
	return r
}

func (r *policyRules) has(section string) bool { return r.sections[section] }

func (r *policyRules) roceDSCP(d int) bool { return slices.Contains(r.p.RoCE.DSCP, d) }

// judge names the check that judges an item and marks the item bad when
// the check's judgement breaks the policy.
func (it *item) judge(check string, j judge.Judgement) {
	it.checks = append(it.checks, check)
	it.bad = it.bad || j.Breaks()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// notCollected is the text of a value whose input was not collected (or
// could not be read).
const notCollected = "not collected"

// text renders a fact's value, notCollected when it is not known.
func text[T any](f snapshot.Fact[T], show func(T) string) string {
	if !f.Known {
		return notCollected
	}
	return show(f.Value)
}

func boolText(f snapshot.Fact[bool]) string { return text(f, onOff) }
func intText(f snapshot.Fact[int]) string   { return text(f, strconv.Itoa) }
func strText(f snapshot.Fact[string]) string {
	return text(f, func(s string) string { return s })
}

// unsetText is an int fact where -1 means "not set".
func unsetText(f snapshot.Fact[int]) string {
	return text(f, func(v int) string {
		if v < 0 {
			return "unset"
		}
		return strconv.Itoa(v)
	})
}

func prioSetText(f snapshot.Fact[[]int]) string {
	return text(f, func(ps []int) string {
		if len(ps) == 0 {
			return "none"
		}
		return model.CompressInts(ps)
	})
}

// pfcPhrase words PFC sets: a change between single priorities is a move
// ("PFC moved from priority 3 to 5"), an empty set is PFC off.
func pfcPhrase(unit string) func(before, after string, had bool) string {
	single := func(s string) bool { _, err := strconv.Atoi(s); return err == nil }
	return func(before, after string, had bool) string {
		switch {
		case after == "none" && had:
			return fmt.Sprintf("PFC off on every %s, was on %s", unit, before)
		case after == "none":
			return "PFC off on every " + unit
		case had && before == "none":
			return fmt.Sprintf("PFC on %s %s, was off on every %s", unit, after, unit)
		case had && single(before) && single(after):
			return fmt.Sprintf("PFC moved from %s %s to %s", unit, before, after)
		}
		return ""
	}
}

func tosText(t snapshot.ToS) string {
	if !t.Effective.Known {
		return notCollected
	}
	v := t.Effective.Value
	return fmt.Sprintf("%d (DSCP %d) via %s", v, model.DSCPOfToS(v), t.Via)
}
