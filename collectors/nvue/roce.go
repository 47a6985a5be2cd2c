package nvue

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// Section titles of `nv show qos roce` and `nv show interface <if> qos roce
// status`, CL 5.3 to 5.18 (CumulusNetworks/docs
// content/cumulus-linux-5*/.../RDMA-over-Converged-Ethernet-RoCE.md).
const (
	titleMapping = "RoCE PCP/DSCP->SP mapping configurations"
	titleETS     = "RoCE SP->TC mapping and ETS configurations"
)

// Sections printed after those two that the linter does not read.
var ignoredTitles = []string{"Exception List", "Extended Features"}

// Pool tables: "RoCE pool config" in `nv show qos roce`, "RoCE Pool Status"
// per interface (CumulusNetworks/docs content/cumulus-linux-518/
// Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md).
var poolTitles = []string{"RoCE pool config", "RoCE Pool Status"}

// promptRe matches a shell prompt followed by the command, as in the docs'
// captures (`cumulus@switch:mgmt:~$ nv show qos roce`).
var promptRe = regexp.MustCompile(`^[^\s@]+@\S*[$#>]\s*nv\s`)

// statusCmdRe is the per-interface command after a prompt, as the RoCE
// pages print it: `cumulus@switch:mgmt:~$ nv show interface swp16 qos roce
// status`.
var statusCmdRe = regexp.MustCompile(`\snv\s+show\s+interface\s+(\S+)\s+qos\s+roce\s+status\s*$`)

// ParseRoceShow parses `nv show qos roce` (every layout from CL 5.3 to 5.18)
// or `nv show interface <if> qos roce status` (CL 5.12 to 5.18, with its
// "RoCE Pool Status" table). The layouts differ in the
// leaf rows (5.3 has a description column and `enable`; 5.12-5.15 `enable`;
// 5.18 `state`; the per-interface view puts `mode` last) and in spelling
// (`DWRR-50%`/`strict-priority`/`enabled` globally, `dwrr-50%`/`strict
// priority`/`yes` per interface); all keep their literal text here.
func ParseRoceShow(file string, data []byte) (*RoceShow, error) {
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	start := 0
	for start < len(lines) && lines[start] == "" {
		start++
	}
	if start == len(lines) {
		return nil, source.Errorf(file, 1, "empty `nv show qos roce` output")
	}
	firstContent := start + 1
	iface := ""
	if promptRe.MatchString(lines[start]) {
		if m := statusCmdRe.FindStringSubmatch(lines[start]); m != nil {
			iface = m[1]
		}
		start++
	}

	var titles []int
	for i := start; i+1 < len(lines); i++ {
		if lines[i] != "" && !isRule(lines[i]) && isRule(lines[i+1]) {
			titles = append(titles, i)
		}
	}
	leafEnd := len(lines)
	if len(titles) > 0 {
		leafEnd = titles[0]
	}

	rs := &RoceShow{File: file, Leaves: map[string]Field{}, Interface: iface, PerInterface: iface != ""}
	hasLeaves := parseLeaves(rs, lines[:leafEnd], start)
	known := false
	for k, t := range titles {
		end := len(lines)
		if k+1 < len(titles) {
			end = titles[k+1]
		}
		title := strings.TrimSpace(lines[t])
		var err error
		switch {
		case strings.EqualFold(title, titleMapping):
			known = true
			err = parseMapping(rs, file, lines, t, end)
		case strings.EqualFold(title, titleETS):
			known = true
			err = parseETS(rs, file, lines, t, end)
		case equalAny(title, poolTitles):
			known = true
			// Only the per-interface view titles its pools "RoCE Pool
			// Status" (the RoCE pages of CL 5.12 to 5.18).
			rs.PerInterface = rs.PerInterface || strings.EqualFold(title, poolTitles[1])
			err = parsePools(rs, file, lines, t, end)
		default:
			for _, ig := range ignoredTitles {
				if strings.EqualFold(title, ig) {
					known = true
				}
			}
			// Unknown titles (a newer release's extra table) are skipped.
		}
		if err != nil {
			return nil, err
		}
	}
	if !hasLeaves && !known {
		return nil, source.Errorf(file, firstContent, "not `nv show qos roce` output, nor `nv show interface <if> qos roce status`: no leaf table and no RoCE section")
	}
	return rs, nil
}

// parseLeaves reads the leaf table in lines[from:]; false when there is none.
// Rows indented under a row without values (congestion-control, pfc, trust,
// lldp-app-tlv) are keyed "group.leaf".
func parseLeaves(rs *RoceShow, lines []string, from int) bool {
	lt, ok := findLeafTable(lines, from)
	if !ok {
		return false
	}
	d, cols, opIdx, appIdx := lt.dash, lt.cols, lt.op, lt.applied

	type group struct {
		indent int
		key    string
	}
	var stack []group
	pending := map[string]bool{} // rows without values that may turn out to be groups
	for i := d + 1; i < len(lines); i++ {
		l := lines[i]
		if l == "" {
			break // the leaf table ends at the first blank line (5.3, per-interface)
		}
		if strings.TrimSpace(l) == "..." {
			continue
		}
		row := cells(l, cols)
		if row[0] == "" || strings.ContainsRune(row[0], ' ') {
			continue // no key: not a leaf row
		}
		indent := indentOf(l)
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		key := row[0]
		if len(stack) > 0 {
			parent := stack[len(stack)-1].key
			if pending[parent] {
				delete(rs.Leaves, parent)
				delete(pending, parent)
			}
			key = parent + "." + key
		}
		f := Field{Line: i + 1}
		if opIdx >= 0 {
			f.Operational = row[opIdx]
		}
		if appIdx >= 0 {
			f.Applied = row[appIdx]
		}
		rs.Leaves[key] = f
		if rowEmpty(row) {
			pending[key] = true
			stack = append(stack, group{indent, key})
		} else {
			delete(pending, key)
		}
	}
	return true
}

func rowEmpty(row []string) bool {
	for _, c := range row[1:] {
		if c != "" {
			return false
		}
	}
	return true
}

// headerAbove returns the nearest non-blank line before the dash row d, not
// before from; -1 when none.
func headerAbove(lines []string, from, d int) int {
	for h := d - 1; h >= from; h-- {
		if lines[h] != "" {
			return h
		}
	}
	return -1
}

// sectionTable is one titled table: its header cells and rows.
type sectionTable struct {
	header []string
	rows   [][]string
	lines  []int // 1-based line of each row
	noData bool
	found  bool // a header/dash pair or "No Data" was seen
}

// readSection reads the table under the title at lines[t] (title, `====`,
// header, dashes, rows) up to lines[end]. Rows end at a blank line; `...`
// rows (the docs' elisions) are skipped.
func readSection(lines []string, t, end int) sectionTable {
	var st sectionTable
	d := -1
	for i := t + 2; i < end; i++ {
		s := strings.TrimSpace(lines[i])
		if s == "No Data" {
			st.noData, st.found = true, true
			return st
		}
		if isDashRow(lines[i]) {
			d = i
			break
		}
	}
	if d < 0 {
		return st
	}
	cols := dashColumns(lines[d])
	st.found = true
	if h := headerAbove(lines, t+2, d); h >= 0 {
		st.header = cells(lines[h], cols)
	}
	for i := d + 1; i < end; i++ {
		s := strings.TrimSpace(lines[i])
		if s == "" {
			break
		}
		if s == "..." || s == "No Data" {
			continue
		}
		st.rows = append(st.rows, cells(lines[i], cols))
		st.lines = append(st.lines, i+1)
	}
	return st
}

// parseMapping reads "RoCE PCP/DSCP->SP mapping configurations": columns
// pcp, dscp (a comma list) and switch-prio; the first, unnamed column is a
// row index (0..7 globally, cnp/roce per interface).
func parseMapping(rs *RoceShow, file string, lines []string, t, end int) error {
	st := readSection(lines, t, end)
	pcp := columnIndex(st.header, "pcp")
	dscp := columnIndex(st.header, "dscp")
	sp := columnIndex(st.header, "switch-prio", "switch-priority")
	if !st.noData && (sp < 0 || (pcp < 0 && dscp < 0)) {
		return nil // not a table we can read: leave it absent
	}
	if rs.DSCPToSP == nil {
		rs.DSCPToSP, rs.PCPToSP, rs.MappingLine = map[int]int{}, map[int]int{}, t+1
		rs.DSCPLines = map[int]int{}
	}
	for r, row := range st.rows {
		ln := st.lines[r]
		if row[0] == "roce" || row[0] == "cnp" {
			rs.PerInterface = true
		}
		prio, ok, err := cellInt(file, ln, row, sp, "switch-prio")
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if p, ok, err := cellInt(file, ln, row, pcp, "pcp"); err != nil {
			return err
		} else if ok {
			rs.PCPToSP[p] = prio
		}
		if dscp < 0 || absent(row[dscp]) {
			continue
		}
		for _, item := range strings.Split(row[dscp], ",") {
			v, err := atoi(file, ln, strings.TrimSpace(item), "dscp")
			if err != nil {
				return err
			}
			rs.DSCPToSP[v] = prio
			rs.DSCPLines[v] = ln
		}
	}
	return nil
}

// parseETS reads "RoCE SP->TC mapping and ETS configurations": columns
// switch-prio, traffic-class and scheduler-weight.
func parseETS(rs *RoceShow, file string, lines []string, t, end int) error {
	st := readSection(lines, t, end)
	sp := columnIndex(st.header, "switch-prio", "switch-priority")
	tc := columnIndex(st.header, "traffic-class")
	sched := columnIndex(st.header, "scheduler-weight")
	if !st.noData && sp < 0 {
		return nil
	}
	if rs.SPToTC == nil {
		rs.SPToTC, rs.SPScheduler, rs.ETSLine = map[int]int{}, map[int]string{}, t+1
		rs.SPLines = map[int]int{}
	}
	for r, row := range st.rows {
		ln := st.lines[r]
		prio, ok, err := cellInt(file, ln, row, sp, "switch-prio")
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		rs.SPLines[prio] = ln
		if c, ok, err := cellInt(file, ln, row, tc, "traffic-class"); err != nil {
			return err
		} else if ok {
			rs.SPToTC[prio] = c
		}
		if sched >= 0 && !absent(row[sched]) {
			rs.SPScheduler[prio] = row[sched]
		}
	}
	return nil
}

// absent is an empty cell or NVUE's `-` placeholder (as in the pool table).
func absent(s string) bool { return s == "" || s == "-" }

// cellInt reads the integer in column i of row; ok is false when the column
// is missing or the cell absent.
func cellInt(file string, ln int, row []string, i int, name string) (int, bool, error) {
	if i < 0 || absent(row[i]) {
		return 0, false, nil
	}
	v, err := atoi(file, ln, row[i], name)
	return v, err == nil, err
}

func atoi(file string, ln int, s, name string) (int, error) {
	if s == "" || len(s) > 6 || strings.Trim(s, "0123456789") != "" {
		return 0, source.Errorf(file, ln, "%s %q is not an integer", name, s)
	}
	v, _ := strconv.Atoi(s)
	return v, nil
}

func equalAny(s string, list []string) bool {
	for _, x := range list {
		if strings.EqualFold(s, x) {
			return true
		}
	}
	return false
}

// parsePools reads the pool table: name, mode, size, switch-priorities,
// traffic-class (comma lists or `-`); the per-interface table adds pool-id
// and usage columns, which are not read.
func parsePools(rs *RoceShow, file string, lines []string, t, end int) error {
	st := readSection(lines, t, end)
	name := columnIndex(st.header, "name")
	if !st.found || (!st.noData && name < 0) {
		return nil
	}
	rs.PoolLine = t + 1
	cell := func(row []string, i int) string {
		if i < 0 {
			return ""
		}
		return row[i]
	}
	mode, size := columnIndex(st.header, "mode"), columnIndex(st.header, "size")
	sps, tcs := columnIndex(st.header, "switch-priorities"), columnIndex(st.header, "traffic-class")
	for r, row := range st.rows {
		ln := st.lines[r]
		p := RocePool{Name: row[name], Mode: cell(row, mode), Size: cell(row, size), Line: ln}
		var err error
		if p.SPs, err = intList(file, ln, cell(row, sps), "switch-priorities"); err != nil {
			return err
		}
		if p.TCs, err = intList(file, ln, cell(row, tcs), "traffic-class"); err != nil {
			return err
		}
		rs.Pools = append(rs.Pools, p)
	}
	return nil
}

// intList reads `0,1,2,4`; nil for an absent cell.
func intList(file string, ln int, s, name string) ([]int, error) {
	if absent(s) {
		return nil, nil
	}
	var out []int
	for _, item := range strings.Split(s, ",") {
		v, err := atoi(file, ln, strings.TrimSpace(item), name)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
