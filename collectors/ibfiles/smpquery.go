package ibfiles

import (
	"strconv"
	"strings"
)

// The shapes below are those infiniband-diags prints (linux-rdma/rdma-core
// infiniband-diags/smpquery.c sl2vl_table/vlarb_table, libibmad/dump.c
// mad_dump_sltovl/mad_dump_vlarbitration, libibmad/portid.c portid2str,
// libibmad/fields.c _mad_dump_field):
//
//	# SL2VL table: Lid 3
//	#                 SL: | 0| 1| 2|...|15|
//	ports: in  0, out  0: | 0| 1| 2|...| 7|
//
//	# VLArbitration tables: Lid 3 port 0 LowCap 8 HighCap 8
//	# Low priority VL Arbitration Table:
//	VL    : |0x0 |0x1 |...
//	WEIGHT: |0x0 |0x4 |...
//	# High priority VL Arbitration Table:
//	...
//
// A table over 32 entries continues after an empty line with another
// VL/WEIGHT pair and no header.

// SL2VLRow is one "ports: in I, out O:" row: the VL of each SL.
type SL2VLRow struct {
	In, Out int
	VL      [16]int
	Line    int
}

// SL2VL is `smpquery sl2vl`: one row on an HCA, one per input port on a
// switch.
type SL2VL struct {
	File   string
	PortID string // "Lid 3", "DR path slid 0; dlid 0; 0"
	Rows   []SL2VLRow
}

// ParseSL2VL parses `smpquery sl2vl` output.
func ParseSL2VL(file string, data []byte) (*SL2VL, error) {
	t := &SL2VL{File: file}
	seenHead := false
	for i, raw := range splitLines(data) {
		n := i + 1
		s := strings.TrimSpace(raw)
		switch {
		case s == "":
		case strings.HasPrefix(s, "# SL2VL table:"):
			t.PortID = strings.TrimSpace(strings.TrimPrefix(s, "# SL2VL table:"))
			seenHead = true
		case strings.HasPrefix(s, "#"):
			// the SL header row
		case strings.HasPrefix(s, "ports:"):
			r, err := sl2vlRow(s)
			if err != "" {
				return nil, errf(file, n, "%s: %q", err, clip(s))
			}
			r.Line = n
			t.Rows = append(t.Rows, r)
		default:
			return nil, errf(file, n, "not smpquery sl2vl output: %q", clip(s))
		}
	}
	if !seenHead || len(t.Rows) == 0 {
		return nil, errf(file, 0, "no \"# SL2VL table:\" with a \"ports:\" row: not smpquery sl2vl output")
	}
	return t, nil
}

func sl2vlRow(s string) (SL2VLRow, string) {
	var r SL2VLRow
	head, cells, ok := strings.Cut(s, "|")
	if !ok {
		return r, "no table cells"
	}
	f := strings.Fields(strings.NewReplacer(",", " ", ":", " ").Replace(head))
	// ports in I out O
	if len(f) != 5 || f[0] != "ports" || f[1] != "in" || f[3] != "out" {
		return r, "want \"ports: in I, out O: |...\""
	}
	var ok1, ok2 bool
	r.In, ok1 = atoi(f[2], 0, 255, false)
	r.Out, ok2 = atoi(f[4], 0, 255, false)
	if !ok1 || !ok2 {
		return r, "bad port number"
	}
	vals := strings.Split(strings.TrimSuffix(cells, "|"), "|")
	if len(vals) != 16 {
		return r, "want 16 VLs"
	}
	for i, v := range vals {
		x, ok := atoi(strings.TrimSpace(v), 0, 15, false)
		if !ok {
			return r, "a VL is not 0-15"
		}
		r.VL[i] = x
	}
	return r, ""
}

// VLArb is `smpquery vlarb`.
type VLArb struct {
	File            string
	PortID          string
	Port            int
	LowCap, HighCap int
	Low, High       []VLArbEntry
	// NoTables is set for "# No VLArbitration tables (BSP0)": a base
	// switch port 0 has none.
	NoTables bool
	Line     int // the header line
}

// ParseVLArb parses `smpquery vlarb` output.
func ParseVLArb(file string, data []byte) (*VLArb, error) {
	t := &VLArb{File: file}
	var cur *[]VLArbEntry
	var vls []int
	seen := false
	for i, raw := range splitLines(data) {
		n := i + 1
		s := strings.TrimSpace(raw)
		var err string
		switch {
		case s == "":
		case strings.HasPrefix(s, "# No VLArbitration tables"):
			t.NoTables, seen, t.Line = true, true, n
		case strings.HasPrefix(s, "# VLArbitration tables:"):
			err = t.header(strings.TrimPrefix(s, "# VLArbitration tables:"))
			seen, t.Line = true, n
		case strings.HasPrefix(s, "# Low priority VL Arbitration Table:"):
			cur = &t.Low
		case strings.HasPrefix(s, "# High priority VL Arbitration Table:"):
			cur = &t.High
		case strings.HasPrefix(s, "VL") && cur != nil && vls == nil:
			vls, err = arbCells(s, "VL", 15)
		case strings.HasPrefix(s, "WEIGHT") && cur != nil && vls != nil:
			var ws []int
			if ws, err = arbCells(s, "WEIGHT", 255); err == "" && len(ws) != len(vls) {
				err = "WEIGHT row and VL row differ in length"
			}
			for j := range ws {
				if err == "" {
					*cur = append(*cur, VLArbEntry{VL: vls[j], Weight: ws[j]})
				}
			}
			vls = nil
		default:
			err = "not smpquery vlarb output"
		}
		if err != "" {
			return nil, errf(file, n, "%s: %q", err, clip(s))
		}
	}
	if !seen {
		return nil, errf(file, 0, "no \"# VLArbitration tables:\" header: not smpquery vlarb output")
	}
	if vls != nil {
		return nil, errf(file, 0, "a VL row without its WEIGHT row: output cut off")
	}
	return t, nil
}

// header reads " Lid 3 port 1 LowCap 8 HighCap 8".
func (t *VLArb) header(s string) string {
	f := strings.Fields(s)
	if len(f) < 6 || f[len(f)-6] != "port" || f[len(f)-4] != "LowCap" || f[len(f)-2] != "HighCap" {
		return "want \"<port id> port P LowCap L HighCap H\""
	}
	var ok1, ok2, ok3 bool
	t.Port, ok1 = atoi(f[len(f)-5], 0, 255, false)
	t.LowCap, ok2 = atoi(f[len(f)-3], 0, 255, false)
	t.HighCap, ok3 = atoi(f[len(f)-1], 0, 255, false)
	if !ok1 || !ok2 || !ok3 {
		return "bad port number or capacity"
	}
	t.PortID = strings.Join(f[:len(f)-6], " ")
	return ""
}

// arbCells reads "VL    : |0x0 |0x1 |" or "WEIGHT: |0x40|".
func arbCells(s, name string, max int) ([]int, string) {
	head, cells, ok := strings.Cut(s, "|")
	if !ok || strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(head), ":")) != name {
		return nil, "want \"" + name + ": |...|\""
	}
	var out []int
	for _, c := range strings.Split(strings.TrimSuffix(cells, "|"), "|") {
		v, ok := atoi(strings.TrimSpace(c), 0, max, true)
		if !ok {
			return nil, name + " cell is not a number 0-" + strconv.Itoa(max)
		}
		out = append(out, v)
	}
	if len(out) > 32 {
		return nil, "more than 32 cells in one block"
	}
	return out, ""
}
