package nvue

import (
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// `nv show system forwarding packet-trim`, CL 5.14 to 5.19. Every layout
// this parser reads is an example of CumulusNetworks/docs
// content/cumulus-linux-514/ and content/cumulus-linux-515/.../
// Quality-of-Service/Packet-Trimming.md ("Show Packet Trimming
// Configuration": global level, port level with the default profile, and
// the "Troubleshooting" output with `session-down-reason`) and of
// content/nvue-reference/Show-Commands/Packet-Trimming.md, kept verbatim in
// testdata/packet_trim_show_*.txt. The leaf table's layout varies between
// them: the global example prints `dscp` and the session rows flush left
// under `remark` and `session-info`, the port-level one indents them by one
// blank, the troubleshooting one by two and widens the operational column.

// PacketTrimShow is `nv show system forwarding packet-trim`.
type PacketTrimShow struct {
	File string
	// Leaves are the leaf rows keyed by path: "state", "profile",
	// "service-port", "size", "traffic-class", "switch-priority",
	// "remark.dscp", "session-info.session-id",
	// "session-info.trimmed-packet-counters",
	// "session-info.session-down-reason"; a row printed without a value
	// (`profile` when no profile is set) is kept with empty cells.
	Leaves map[string]Field
	// Eligibility is "Egress Eligibility TC-to-Interface Information", one
	// row per traffic class with its interfaces as printed (an NVUE range
	// list, "swp2-16,18-32,swp1s0-1"); EligibilityLine is the title's line,
	// 0 when the table is absent. "No Data" leaves Eligibility empty.
	Eligibility     []TrimEligibility
	EligibilityLine int
	// Remarks is "Port-Level SP to DSCP Remark Information"; RemarkLine the
	// title's line, 0 when absent.
	Remarks    []TrimRemark
	RemarkLine int
}

// TrimEligibility is one row of the eligibility table: `1   swp2-16,...`.
type TrimEligibility struct {
	TC         int
	Interfaces string
	Line       int
}

// TrimRemark is one row of the port-level remark table:
// `lossy-multi-tc-host-group     swp1s0     4   21`.
type TrimRemark struct {
	Profile, Interface string
	SP, DSCP           int
	Line               int
}

const (
	cmdPacketTrim    = "nv show system forwarding packet-trim"
	titleEligibility = "Egress Eligibility TC-to-Interface Information"
	titleTrimRemark  = "Port-Level SP to DSCP Remark Information"
)

// trimGroups are the leaf rows printed without a value that head a group,
// and the rows each one holds: the global example prints the members flush
// left, so the group is known from the name, not from the indentation.
var trimGroups = map[string][]string{
	"remark":       {"dscp"},
	"session-info": {"session-id", "trimmed-packet-counters", "session-down-reason"},
}

// ParsePacketTrimShow parses `nv show system forwarding packet-trim`.
func ParsePacketTrimShow(file string, data []byte) (*PacketTrimShow, error) {
	lines, start, first, err := showLines(file, data, cmdPacketTrim)
	if err != nil {
		return nil, err
	}
	titles := sectionTitles(lines, start)
	leafEnd := len(lines)
	if len(titles) > 0 {
		leafEnd = titles[0]
	}
	ps := &PacketTrimShow{File: file, Leaves: map[string]Field{}}
	hasLeaves := readTrimLeaves(ps, lines[:leafEnd], start)
	known := false
	for k, t := range titles {
		end := len(lines)
		if k+1 < len(titles) {
			end = titles[k+1]
		}
		var err error
		switch title := strings.TrimSpace(lines[t]); {
		case strings.EqualFold(title, titleEligibility):
			known = true
			err = parseTrimEligibility(ps, file, lines, t, end)
		case strings.EqualFold(title, titleTrimRemark):
			known = true
			err = parseTrimRemarks(ps, file, lines, t, end)
		}
		// Other titles (a newer release's extra table) are skipped.
		if err != nil {
			return nil, err
		}
	}
	if !hasLeaves && !known {
		return nil, source.Errorf(file, first, "not `%s` output: no leaf table and no packet trimming section", cmdPacketTrim)
	}
	return ps, nil
}

// showLines splits an `nv show` capture into lines without trailing
// blanks and finds where its content starts: past blank lines, the docs'
// prompt line, and a bare repeat of the command (the NVUE reference's
// example prints the command twice). first is the 1-based line of the first
// non-blank line, for errors.
func showLines(file string, data []byte, cmd string) (lines []string, start, first int, err error) {
	lines = strings.Split(string(data), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	for start < len(lines) && lines[start] == "" {
		start++
	}
	if start == len(lines) {
		return nil, 0, 0, source.Errorf(file, 1, "empty `%s` output", cmd)
	}
	first = start + 1
	if promptRe.MatchString(lines[start]) {
		start++
	}
	if start < len(lines) && strings.Join(strings.Fields(lines[start]), " ") == cmd {
		start++
	}
	return lines, start, first, nil
}

// sectionTitles are the lines at or after from that a `===` rule
// underlines.
func sectionTitles(lines []string, from int) []int {
	var titles []int
	for i := from; i+1 < len(lines); i++ {
		if lines[i] != "" && !isRule(lines[i]) && isRule(lines[i+1]) {
			titles = append(titles, i)
		}
	}
	return titles
}

// readTrimLeaves reads the operational/applied table; false when there is
// none. A row without a key is a wrapped value (a long
// session-down-reason) and continues the row above.
func readTrimLeaves(ps *PacketTrimShow, lines []string, from int) bool {
	lt, ok := findLeafTable(lines, from)
	if !ok {
		return false
	}
	d, cols, opIdx, appIdx := lt.dash, lt.cols, lt.op, lt.applied
	group, groupIndent, last := "", -1, ""
	for i := d + 1; i < len(lines); i++ {
		l := lines[i]
		if l == "" {
			break
		}
		row := cells(l, cols)
		key := row[0]
		if key == "" || strings.ContainsRune(key, ' ') {
			if f, ok := ps.Leaves[last]; ok && last != "" {
				f.Operational = joinWrapped(f.Operational, cell(row, opIdx))
				f.Applied = joinWrapped(f.Applied, cell(row, appIdx))
				ps.Leaves[last] = f
			}
			continue
		}
		indent := indentOf(l)
		if _, ok := trimGroups[key]; ok && rowEmpty(row) {
			group, groupIndent, last = key, indent, ""
			continue
		}
		if group != "" && (indent > groupIndent || memberOf(group, key)) {
			key = group + "." + key
		} else {
			group = ""
		}
		ps.Leaves[key] = Field{Operational: cell(row, opIdx), Applied: cell(row, appIdx), Line: i + 1}
		last = key
	}
	return true
}

func memberOf(group, key string) bool {
	for _, m := range trimGroups[group] {
		if m == key {
			return true
		}
	}
	return false
}

func cell(row []string, i int) string {
	if i < 0 || i >= len(row) {
		return ""
	}
	return row[i]
}

func joinWrapped(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + " " + b
}

// parseTrimEligibility reads "Egress Eligibility TC-to-Interface
// Information": columns TC and interface.
func parseTrimEligibility(ps *PacketTrimShow, file string, lines []string, t, end int) error {
	st := readSection(lines, t, end)
	tc, ifc := columnIndex(st.header, "TC", "traffic-class"), columnIndex(st.header, "interface", "interfaces")
	if !st.found || (!st.noData && (tc < 0 || ifc < 0)) {
		return nil // not a table we can read: leave it absent
	}
	ps.EligibilityLine = t + 1
	for r, row := range st.rows {
		ln := st.lines[r]
		v, err := atoi(file, ln, row[tc], "traffic class")
		if err != nil {
			return err
		}
		if v > 7 {
			return source.Errorf(file, ln, "traffic class %d is not 0-7", v)
		}
		if absent(row[ifc]) {
			continue
		}
		ps.Eligibility = append(ps.Eligibility, TrimEligibility{TC: v, Interfaces: row[ifc], Line: ln})
	}
	return nil
}

// parseTrimRemarks reads "Port-Level SP to DSCP Remark Information":
// columns Profile, Interface, SP and DSCP.
func parseTrimRemarks(ps *PacketTrimShow, file string, lines []string, t, end int) error {
	st := readSection(lines, t, end)
	prof, ifc := columnIndex(st.header, "Profile"), columnIndex(st.header, "Interface")
	sp, dscp := columnIndex(st.header, "SP", "switch-priority"), columnIndex(st.header, "DSCP")
	if !st.found || (!st.noData && (prof < 0 || ifc < 0 || sp < 0 || dscp < 0)) {
		return nil
	}
	ps.RemarkLine = t + 1
	for r, row := range st.rows {
		ln := st.lines[r]
		p, err := atoi(file, ln, row[sp], "switch priority")
		if err != nil {
			return err
		}
		d, err := atoi(file, ln, row[dscp], "DSCP")
		if err != nil {
			return err
		}
		if p > 7 || d > 63 {
			return source.Errorf(file, ln, "switch priority %d or DSCP %d out of range (0-7, 0-63)", p, d)
		}
		if row[prof] == "" || row[ifc] == "" {
			return source.Errorf(file, ln, "remark row without a profile or an interface")
		}
		ps.Remarks = append(ps.Remarks, TrimRemark{Profile: row[prof], Interface: row[ifc], SP: p, DSCP: d, Line: ln})
	}
	return nil
}

// MentionsPacketTrim reports whether the configuration names packet
// trimming: `system forwarding packet-trim`, an interface's `packet-trim`,
// or `qos roce mode lossy-multi-tc`, which "enables Packet trimming with
// the packet-trim-default configuration" (RDMA-over-Converged-Ethernet-
// RoCE.md, CL 5.15). A live collection reads the two packet trimming views
// only from such a switch.
func (c *Config) MentionsPacketTrim() bool {
	if c == nil || c.Root == nil {
		return false
	}
	r := c.Root
	if r.Get("system", "forwarding", "packet-trim") != nil {
		return true
	}
	if m := r.Get("qos", "roce", "mode"); m != nil && m.Value == "lossy-multi-tc" {
		return true
	}
	for _, i := range r.Child("interface").childrenOrNil() {
		if i.Child("packet-trim") != nil {
			return true
		}
	}
	return false
}

func (n *Node) childrenOrNil() []*Node {
	if n == nil {
		return nil
	}
	return n.Children
}
