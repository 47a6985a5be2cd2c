package hostfiles

import (
	"regexp"
	"strings"
)

// tc lines as printed by pretty_print (Mellanox/mlnx-tools python/mlnx_qos):
//
//	msg = "tc: %d ratelimit: %s, tsa: " % (tc, r)   r = "unlimited" | "%.1f Gbps"
//	msg += "ets, bw: %s%%" | "strict" | "vendor" | "unknown"
var tcLineRe = regexp.MustCompile(`^tc: (\d+) ratelimit: (unlimited|\d+(?:\.\d+)? Gbps), tsa: (.*)$`)

var etsRe = regexp.MustCompile(`^ets, bw: (\d+)%$`)

// parseTSA splits the tsa part of a tc line into the algorithm and its ETS
// bandwidth.
func parseTSA(s string) (tsa string, bw int, ok bool) {
	switch s {
	case "strict", "vendor", "unknown":
		return s, 0, true
	}
	m := etsRe.FindStringSubmatch(s)
	if m == nil {
		return "", 0, false
	}
	bw, ok = atoiRange(m[1], 0, 100)
	return "ets", bw, ok
}

// isBareTSA matches a tc line that lost its "tc: N ratelimit: R, tsa: "
// prefix. pretty_print builds that prefix inside a try block that indexes
// the rate-limit list; when the driver has no rate limit ("Rate limit is not
// supported on your system!") the list is empty, the prefix is dropped and
// only the tsa text is printed, still followed by the priority lines.
func isBareTSA(s string) bool {
	_, _, ok := parseTSA(s)
	return ok
}

func (p *qosParser) tcLineFull(n int, s string) error {
	m := tcLineRe.FindStringSubmatch(s)
	if m == nil {
		return p.errf(n, "malformed tc line %q: want \"tc: N ratelimit: unlimited|X.Y Gbps, tsa: ets, bw: N%%|strict|vendor|unknown\"", clip(s))
	}
	tcNum, ok := atoiRange(m[1], 0, 7)
	if !ok {
		return p.errf(n, "tc %s: want 0..7", clip(m[1]))
	}
	tsa, bw, ok := parseTSA(m[3])
	if !ok {
		return p.errf(n, "malformed tsa %q in tc line", clip(m[3]))
	}
	if prev, dup := p.tcLine[tcNum]; dup {
		return p.errf(n, "tc %d printed twice (first at line %d)", tcNum, prev)
	}
	p.tcLine[tcNum] = n
	return p.openTC(n, TC{TC: tcNum, RateLimit: m[2], TSA: tsa, BW: bw, Line: n})
}

// tcLineBare opens a block whose TC number was not printed; TC is -1 and
// its priorities stay -1 in PrioTC, since guessing the number could pair a
// priority with the wrong TC.
func (p *qosParser) tcLineBare(n int, s string) error {
	tsa, bw, _ := parseTSA(s)
	return p.openTC(n, TC{TC: -1, TSA: tsa, BW: bw, Line: n})
}

func (p *qosParser) openTC(n int, tc TC) error {
	if err := p.data(n, "", secTC); err != nil {
		return err
	}
	p.q.TCs = append(p.q.TCs, tc)
	p.curTC = len(p.q.TCs) - 1
	return nil
}

// member parses "\t priority:  P" under a tc block.
func (p *qosParser) member(n int, s string) error {
	if p.sec != secTC || p.curTC < 0 {
		return p.errf(n, "%q outside a tc block", clip(s))
	}
	v := strings.TrimSpace(strings.TrimPrefix(s, "priority:"))
	prio, ok := atoiRange(v, 0, 7)
	if !ok {
		return p.errf(n, "tc member priority %q: want 0..7", clip(v))
	}
	if prev := p.prioIn[prio]; prev != 0 {
		return p.errf(n, "priority %d listed twice (first at line %d)", prio, prev)
	}
	p.prioIn[prio] = n
	tc := &p.q.TCs[p.curTC]
	tc.Priorities = append(tc.Priorities, prio)
	return nil
}
