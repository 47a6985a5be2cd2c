package hostfiles

import (
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// Format source for everything in this file: mlnx_qos pretty_print and
// DcbAppTable.printAppSelector / printDefaultPriority
// (Mellanox/mlnx-tools python/mlnx_qos, python/Python/dcbnetlink.py and the
// older ofed_scripts/utils/mlnx_qos), function pretty_print.

// qosSection is the block a line belongs to: the dscp2prio and default
// priority blocks own the "prio:" lines under them, a tc block owns the
// "priority:" lines under it.
type qosSection int

const (
	secNone qosSection = iota
	secDSCP
	secDefault
	secTC
)

// Lines that are printed at most once per output. A second one means two
// outputs were concatenated, and merging them could mix two interfaces.
const (
	onceDCBX      = "DCBX mode"
	onceTrust     = "Priority trust state"
	onceDSCP      = "dscp2prio mapping"
	onceDefault   = "default priority"
	onceBufSize   = "Receive buffer size"
	onceCableLen  = "Cable len"
	oncePFC       = "PFC configuration"
	onceEnabled   = "enabled row"
	onceBufferRow = "buffer row"
)

type qosParser struct {
	file    string
	q       *MlnxQos
	sec     qosSection
	curTC   int // index in q.TCs of the open tc block
	once    map[string]int
	hasData bool
	// prioIn[p] is the line where priority p was listed under a tc block.
	prioIn   [8]int
	tcLine   map[int]int
	dscpLine map[int]int
}

// ParseMlnxQos parses the output of `mlnx_qos -i <netdev>`, any version from
// 2017 on (git log of Mellanox/mlnx-tools python/mlnx_qos): with or without the DCBX/trust/dscp2prio lines, the
// 2021-2024 "default priority:" block, the buffer line with no suffix,
// total_size= or max_buffer_size=, and tc blocks in any order. Unknown lines
// are skipped without changing the block they appear in.
func ParseMlnxQos(file string, data []byte) (*MlnxQos, error) {
	p := &qosParser{
		file: file,
		q: &MlnxQos{
			File:     file,
			CableLen: -1,
			PrioTC:   [8]int{-1, -1, -1, -1, -1, -1, -1, -1},
		},
		curTC:    -1,
		once:     map[string]int{},
		tcLine:   map[int]int{},
		dscpLine: make(map[int]int, 64),
	}
	lines := splitLines(data)
	first := 0
	for i, raw := range lines {
		norm := normSpace(raw)
		if norm == "" {
			continue
		}
		if first == 0 {
			first = i + 1
		}
		if err := p.line(i+1, norm); err != nil {
			return nil, err
		}
	}
	if first == 0 {
		return nil, source.Errorf(file, 1, "empty mlnx_qos output")
	}
	if !p.hasData {
		return nil, source.Errorf(file, first, "not mlnx_qos output: no known line (first line %q)", clip(normSpace(lines[first-1])))
	}
	for _, tc := range p.q.TCs {
		if tc.TC < 0 {
			continue
		}
		for _, prio := range tc.Priorities {
			p.q.PrioTC[prio] = tc.TC
		}
	}
	return p.q, nil
}

func (p *qosParser) errf(line int, format string, a ...any) error {
	return source.Errorf(p.file, line, format, a...)
}

// seenOnce records a once-only line and fails on its second occurrence.
func (p *qosParser) seenOnce(kind string, line int) error {
	if prev, ok := p.once[kind]; ok {
		return p.errf(line, "second %q line (first at line %d): more than one mlnx_qos output in one file?", kind, prev)
	}
	p.once[kind] = line
	return nil
}

// line handles one non-blank line in its whitespace-normalised form.
func (p *qosParser) line(n int, s string) error {
	switch {
	case isQosNote(s):
		// Notes do not end a block: they are printed before the report.
		p.q.Notes = append(p.q.Notes, s)
		return nil
	case strings.HasPrefix(s, "DCBX mode:"):
		return p.dcbx(n, s)
	case strings.HasPrefix(s, "Priority trust state:"):
		return p.trust(n, s)
	case s == "dscp2prio mapping:":
		if err := p.data(n, onceDSCP, secDSCP); err != nil {
			return err
		}
		p.q.DSCP2Prio = make(map[int]int, 64) // its 64 DSCPs: grown, it was rehashed four times
		p.q.DSCP2PrioLine = n
		return nil
	case s == "default priority:":
		return p.data(n, onceDefault, secDefault)
	case strings.HasPrefix(s, "Receive buffer size (bytes):"):
		return p.bufferSizes(n, s)
	case strings.HasPrefix(s, "Cable len:"):
		return p.cableLen(n, s)
	case s == "PFC configuration:":
		return p.data(n, oncePFC, secNone)
	case strings.ReplaceAll(s, " ", "") == "priority01234567":
		// The PFC table header; "priority:" member lines have a colon.
		return p.data(n, "", secNone)
	case isRow(s, "enabled"):
		return p.enabled(n, s)
	case isRow(s, "buffer") && digitsAndSpaces(s[len("buffer"):]):
		return p.prioBuffer(n, s)
	case strings.HasPrefix(s, "tc:"):
		return p.tcLineFull(n, s)
	case p.pfcSeen() && isBareTSA(s):
		return p.tcLineBare(n, s)
	case strings.HasPrefix(s, "priority:"):
		return p.member(n, s)
	case strings.HasPrefix(s, "prio:"):
		return p.prio(n, s)
	}
	return nil // unknown line: newer versions may add some
}

// data marks a known line: it may be once-only, and it sets the block that
// following prio:/priority: lines belong to.
func (p *qosParser) data(n int, once string, sec qosSection) error {
	if once != "" {
		if err := p.seenOnce(once, n); err != nil {
			return err
		}
	}
	p.hasData = true
	p.sec = sec
	if sec != secTC {
		p.curTC = -1
	}
	return nil
}

func (p *qosParser) pfcSeen() bool {
	_, a := p.once[oncePFC]
	_, b := p.once[onceEnabled]
	return a || b
}

// isQosNote matches the warnings mlnx_qos prints instead of, or before, a
// section: the lldpad banner and the "... is not supported on your system"
// lines (Mellanox/mlnx-tools python/mlnx_qos and python/Python/dcbnetlink.py).
func isQosNote(s string) bool {
	if strings.HasPrefix(s, "*") && strings.Contains(s, "WARNING") {
		return true
	}
	return strings.Contains(s, "not supported on your system")
}

// isRow reports whether s is the PFC table row named word: the word followed
// by a space or directly by the digits (web copies lost the spacing).
func isRow(s, word string) bool {
	if !strings.HasPrefix(s, word) {
		return false
	}
	rest := s[len(word):]
	return rest == "" || rest[0] == ' ' || (rest[0] >= '0' && rest[0] <= '9')
}

func digitsAndSpaces(s string) bool {
	for _, c := range s {
		if c != ' ' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
