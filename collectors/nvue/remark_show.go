package nvue

import (
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// `nv show qos remark`: one row per remark profile. The one published
// example is the lossy-multi-tc profile's (CumulusNetworks/docs
// content/cumulus-linux-515/ and cumulus-linux-518/Layer-1-and-Switch-Ports/
// Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md, "To show the port
// profiles created when you enabled the RoCE lossy-multi-tc profile, run the
// nv show qos remark command"), kept verbatim in
// testdata/qos_remark_show_lossy_multi_tc.txt:
//
//	Profile                       Rewrite  Summary
//	----------------------------  -------  -------------------------------------
//	lossy-multi-tc-host-group              SP->PCP/DSCP mapping configuration: 4
//
// NVUE's collection listings continue a long summary on rows without a
// name; such rows are added to the profile above.

// RemarkShow is `nv show qos remark`.
type RemarkShow struct {
	File     string
	Profiles []RemarkShowRow
}

// RemarkShowRow is one profile: its rewrite cell (empty when none is set)
// and its summary lines as printed.
type RemarkShowRow struct {
	Profile, Rewrite string
	Summary          []string
	Line             int
}

const cmdQoSRemark = "nv show qos remark"

// remarkMappingPrefix starts the summary that lists a profile's mapped
// switch priorities.
const remarkMappingPrefix = "SP->PCP/DSCP mapping configuration:"

// MappedSPs reads the switch priorities of the summary
// "SP->PCP/DSCP mapping configuration: 4" ("4" and "0,3" alike); ok is
// false when the summary has no such line or the list is not numbers.
func (r RemarkShowRow) MappedSPs() (sps []int, ok bool) {
	for _, s := range r.Summary {
		rest, found := strings.CutPrefix(s, remarkMappingPrefix)
		if !found {
			continue
		}
		for _, item := range strings.Split(strings.TrimSpace(rest), ",") {
			item = strings.TrimSpace(item)
			if item == "" || len(item) > 1 || item[0] < '0' || item[0] > '7' {
				return nil, false
			}
			sps = append(sps, int(item[0]-'0'))
		}
		return sps, true
	}
	return nil, false
}

// ParseRemarkShow parses `nv show qos remark`.
func ParseRemarkShow(file string, data []byte) (*RemarkShow, error) {
	lines, start, first, err := showLines(file, data, cmdQoSRemark)
	if err != nil {
		return nil, err
	}
	rs := &RemarkShow{File: file}
	d := -1
	for i := start; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "No Data" {
			return rs, nil
		}
		if isDashRow(lines[i]) {
			d = i
			break
		}
	}
	h := -1
	if d >= 0 {
		h = headerAbove(lines, start, d)
	}
	if h < 0 {
		return nil, source.Errorf(file, first, "not `%s` output: no Profile table", cmdQoSRemark)
	}
	cols := dashColumns(lines[d])
	header := cells(lines[h], cols)
	prof, rw, sum := columnIndex(header, "Profile"), columnIndex(header, "Rewrite"), columnIndex(header, "Summary")
	if prof < 0 {
		return nil, source.Errorf(file, h+1, "not `%s` output: no Profile column", cmdQoSRemark)
	}
	for i := d + 1; i < len(lines); i++ {
		if lines[i] == "" {
			break
		}
		row := cells(lines[i], cols)
		s := cell(row, sum)
		if row[prof] == "" {
			if n := len(rs.Profiles); n > 0 && s != "" {
				rs.Profiles[n-1].Summary = append(rs.Profiles[n-1].Summary, s)
				continue
			}
			return nil, source.Errorf(file, i+1, "row without a profile name")
		}
		r := RemarkShowRow{Profile: row[prof], Rewrite: cell(row, rw), Line: i + 1}
		if s != "" {
			r.Summary = []string{s}
		}
		rs.Profiles = append(rs.Profiles, r)
	}
	return rs, nil
}
