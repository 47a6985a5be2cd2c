package hostfiles

import "strings"

// Format: DcbAppTable.printAppSelector (python/Python/dcbnetlink.py) prints
// pad = "\tprio:%d dscp:" % i then '%02d,' per DSCP, wrapping every 24
// characters; printDefaultPriority prints "\tprio:%d" (Mellanox/mlnx-tools python/mlnx_qos).

// prio parses the lines under "dscp2prio mapping:" (`prio:P dscp:NN,...,`,
// at most 8 DSCPs a line, a priority wrapped over several lines) and under
// "default priority:" (`prio:P`).
func (p *qosParser) prio(n int, s string) error {
	rest := strings.TrimPrefix(s, "prio:")
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	prio, ok := atoiRange(rest[:end], 0, 7)
	if !ok {
		return p.errf(n, "%q: priority must be 0..7", clip(s))
	}
	rest = strings.TrimSpace(rest[end:])
	if rest == "" {
		if p.sec != secDefault {
			return p.errf(n, "%q outside the default priority block", clip(s))
		}
		p.hasData = true
		return nil
	}
	list, ok := strings.CutPrefix(rest, "dscp:")
	if !ok {
		return p.errf(n, "malformed prio line %q", clip(s))
	}
	if p.sec != secDSCP {
		return p.errf(n, "%q outside the dscp2prio mapping block", clip(s))
	}
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue // the "%02d," items leave a trailing comma
		}
		dscp, ok := atoiRange(item, 0, 63)
		if !ok {
			return p.errf(n, "dscp %q for priority %d: want 0..63", clip(item), prio)
		}
		if old, dup := p.q.DSCP2Prio[dscp]; dup && old != prio {
			return p.errf(n, "dscp %d mapped to priority %d and %d (line %d)", dscp, old, prio, p.dscpLine[dscp])
		}
		p.q.DSCP2Prio[dscp] = prio
		if _, seen := p.dscpLine[dscp]; !seen {
			p.dscpLine[dscp] = n
		}
	}
	return nil
}
