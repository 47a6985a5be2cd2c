package ibfiles

import (
	"strconv"
	"strings"
)

// QoSPolicy is OpenSM's QoS policy file (qos-policy.conf, named by
// opensm.conf's qos_policy_file) reduced to what decides an SL: the
// qos-levels' names and SLs, and the simplified qos-ulps rules
// (linux-rdma/opensm doc/QoS_management_in_OpenSM.txt §2, §3, §6;
// grammar in opensm/osm_qos_parser_y.y, tokens in osm_qos_parser_l.l).
//
// Not parsed: the port-groups, qos-setup and qos-match-rules sections are
// skipped whole (qos-setup is "parsed and ignored" by OpenSM itself, §5;
// match rules need port groups, partitions and service IDs this model
// does not have), and in a qos-level only name and sl are read (mtu-limit,
// rate-limit, pkey, packet-life and use are skipped). A ULP rule's
// criteria are kept as written, not checked token by token.
type QoSPolicy struct {
	File   string
	Levels []QoSLevel
	ULPs   []ULPRule
	// Skipped names the sections skipped, with their first line
	// ("qos-match-rules at line 12").
	Skipped []string
}

// QoSLevel is one qos-level block; SL is -1 when the block sets none.
type QoSLevel struct {
	Name   string
	SL     int
	Line   int // the qos-level line
	SLLine int
}

// ULPRule is one qos-ulps line, "<criteria> : <SL>"; Match is the
// criteria as written, lower-cased ULP first ("default", "ipoib",
// "any, pkey 0x0001").
type ULPRule struct {
	Match string
	ULP   string
	SL    int
	Line  int
}

// policySections are the top-level sections and whether their content is
// read; each ends with "end-" and its name (doc §4: "Keywords that denote
// section/subsection start have matching closing keywords").
var policySections = map[string]bool{
	"port-groups": false, "qos-setup": false, "qos-match-rules": false,
	"qos-levels": true, "qos-ulps": true,
}

// ulpKeywords are the ULPs the lexer knows (osm_qos_parser_l.l ULP_*,
// matched case-insensitively).
var ulpKeywords = map[string]bool{"default": true, "sdp": true, "srp": true, "rds": true, "ipoib": true, "iser": true, "any": true}

// ParseQoSPolicy reads the policy file as doc §4 describes it: '#'
// starts a comment, blanks around a line are ignored, a keyword is the
// first token of its line.
func ParseQoSPolicy(file string, data []byte) (*QoSPolicy, error) {
	p := &QoSPolicy{File: file}
	section, start := "", 0
	var level *QoSLevel
	for i, raw := range splitLines(data) {
		n := i + 1
		if j := strings.IndexByte(raw, '#'); j >= 0 {
			raw = raw[:j]
		}
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			continue
		case section == "":
			read, ok := policySections[line]
			if !ok {
				return nil, errf(file, n, "%q: want a section (port-groups, qos-setup, qos-levels, qos-match-rules, qos-ulps)", clip(line))
			}
			section, start = line, n
			if !read {
				p.Skipped = append(p.Skipped, line+" at line "+strconv.Itoa(n))
			}
		case line == "end-"+section:
			if level != nil {
				return nil, errf(file, n, "%s before end-qos-level of the qos-level at line %d", line, level.Line)
			}
			section = ""
		case section == "qos-levels":
			var err error
			if level, err = p.levelLine(file, n, line, level); err != nil {
				return nil, err
			}
		case section == "qos-ulps":
			r, err := parseULPLine(file, n, line)
			if err != nil {
				return nil, err
			}
			p.ULPs = append(p.ULPs, r)
		}
	}
	if section != "" {
		return nil, errf(file, start, "%s has no end-%s", section, section)
	}
	return p, nil
}

// levelLine reads one line inside qos-levels; cur is the open qos-level.
func (p *QoSPolicy) levelLine(file string, n int, line string, cur *QoSLevel) (*QoSLevel, error) {
	switch {
	case line == "qos-level":
		if cur != nil {
			return nil, errf(file, n, "qos-level inside the qos-level at line %d", cur.Line)
		}
		return &QoSLevel{SL: -1, Line: n}, nil
	case line == "end-qos-level":
		if cur == nil {
			return nil, errf(file, n, "end-qos-level without qos-level")
		}
		p.Levels = append(p.Levels, *cur)
		return nil, nil
	case cur == nil:
		return nil, errf(file, n, "%q outside a qos-level", clip(line))
	}
	key, val, ok := strings.Cut(line, ":")
	if !ok {
		return nil, errf(file, n, "%q: want key: value", clip(line))
	}
	switch strings.TrimSpace(key) {
	case "name":
		cur.Name = strings.TrimSpace(val)
	case "sl":
		sl, ok := atoi(strings.TrimSpace(val), 0, 15, true)
		if !ok {
			return nil, errf(file, n, "sl %q: want 0-15", clip(strings.TrimSpace(val)))
		}
		cur.SL, cur.SLLine = sl, n
	}
	return cur, nil
}

// parseULPLine reads "<ulp>[, <criterion> <values>] : <SL>". The SL is
// after the last ':' (criteria hold no ':'; the lexer's WHITE_DOTDOT_WHITE
// separates them), and must be 0-15 ("illegal SL value",
// osm_qos_parser_y.y).
func parseULPLine(file string, n int, line string) (ULPRule, error) {
	j := strings.LastIndexByte(line, ':')
	if j < 0 {
		return ULPRule{}, errf(file, n, "%q: want <ULP>[, <criterion>] : <SL>", clip(line))
	}
	match, slText := strings.TrimSpace(line[:j]), strings.TrimSpace(line[j+1:])
	ulp, rest, _ := strings.Cut(match, ",")
	ulp = strings.ToLower(strings.TrimSpace(ulp))
	if !ulpKeywords[ulp] {
		return ULPRule{}, errf(file, n, "%q: want a ULP (default, sdp, srp, rds, ipoib, iser, any)", clip(ulp))
	}
	crit := strings.TrimSpace(rest) != ""
	switch {
	case ulp == "default" && crit:
		return ULPRule{}, errf(file, n, "%q: default takes no criterion", clip(match))
	case (ulp == "any" || ulp == "srp") && !crit:
		// Only "any, <criterion>" and "srp, target-port-guid" exist
		// (osm_qos_parser_l.l).
		return ULPRule{}, errf(file, n, "%q: %s takes a criterion", clip(match), ulp)
	}
	sl, ok := atoi(slText, 0, 15, true)
	if !ok {
		return ULPRule{}, errf(file, n, "SL %q: want 0-15", clip(slText))
	}
	return ULPRule{Match: ulp + normCriteria(rest), ULP: ulp, SL: sl, Line: n}, nil
}

// normCriteria writes ", pkey 0x0001" with single blanks.
func normCriteria(rest string) string {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return ""
	}
	return ", " + strings.Join(f, " ")
}
