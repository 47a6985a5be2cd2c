package drift

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// policyRules are the checks' rules, restated for single values so that
// Diff can say which change breaks the policy. Each rule names the check
// (checks/*.go) it mirrors; the checks stay the authority, and a test
// proves that every device the checks flag has a breaking value here.
type policyRules struct {
	p        inventory.Policy
	lossless bool
	// hashed are the ecmp-hash fields that must be on: source-port always
	// (ecmp-hash), plus the policy's.
	hashed map[string]bool
	// switchTrust are the trust modes switch ports may have (switch-trust).
	switchTrust map[string]bool
}

func newPolicyRules(p inventory.Policy) *policyRules {
	r := &policyRules{p: p, lossless: p.RoCE.Lossless(), hashed: map[string]bool{"source-port": true}}
	for _, f := range p.ECMP.HashFields {
		r.hashed[f] = true
	}
	r.switchTrust = map[string]bool{"l3": true, "both": true}
	if p.Trust == "pcp" {
		r.switchTrust = map[string]bool{"l2": true, "both": true}
	}
	return r
}

func (r *policyRules) roceDSCP(d int) bool { return slices.Contains(r.p.RoCE.DSCP, d) }

// roceSwitch is switch-roce-mode: qos roce on, lossless exactly when the
// policy is.
func (r *policyRules) roceSwitch(sw *snapshot.Switch) bool {
	m := model.RoCE{Enabled: model.Value[bool]{V: sw.RoCE.Enabled.Value}, Mode: model.Value[string]{V: sw.RoCE.Mode.Value}}
	return !m.Enabled.V || m.Lossless() != r.lossless
}

// queueMap is switch-queue-map and, for the CNP priority, switch-cnp: the
// RoCE priority in the RoCE traffic class, no other priority in it (a
// priority left in traffic class 0 by default is not counted when the RoCE
// class is 0, which the snapshot cannot tell apart: such a class is never
// flagged here), the CNP priority out of it.
func (r *policyRules) queueMap(sp, tc int) (ids []string, bad bool) {
	rtc := r.p.RoCE.TrafficClass
	switch {
	case sp == r.p.RoCE.Priority:
		return []string{"switch-queue-map"}, tc != rtc
	case sp == r.p.CNP.Priority:
		return []string{"switch-cnp"}, tc == rtc
	case tc == rtc && rtc != 0:
		return []string{"switch-queue-map"}, true
	}
	return nil, false
}

func itoa(i int) string { return strconv.Itoa(i) }

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
func intText(f snapshot.Fact[int]) string   { return text(f, itoa) }
func strText(f snapshot.Fact[string]) string {
	return text(f, func(s string) string { return s })
}

// unsetText is an int fact where -1 means "not set".
func unsetText(f snapshot.Fact[int]) string {
	return text(f, func(v int) string {
		if v < 0 {
			return "unset"
		}
		return itoa(v)
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

// isSet reports whether a priority set is exactly {p}.
func isSet(f snapshot.Fact[[]int], p int) bool {
	return f.Known && len(f.Value) == 1 && f.Value[0] == p
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
