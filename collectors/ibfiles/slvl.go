package ibfiles

import (
	"sort"
	"strconv"
	"strings"
)

// ibdiagnet2.slvl holds the SL2VL tables ibdiagnet read ("SLVL tables of
// the fabric switches", ibdiagnet user manual, "ibdiagnet Dump Files",
// https://docs.nvidia.com/networking/display/ibdiagnetusermanualv213/ibdiagnet+dump+files).
// Its line shape is the one ibdm reads it back with (ibutils ibdm
// Fabric.cpp IBFabric::parseSLVLFile, whose comment gives the example
//
//	0x0002c90000000201 5 1 0x01 0x23 0x45 0x67 0x89 0xab 0xcd 0xe7
//
// "guid iport oport 0x(sl0)(sl1) 0x(sl2)(sl3)...": node GUID, input port,
// output port, then eight bytes of two 4-bit VLs each, SL0 in the high
// nibble of the first). ibdm skips every other line silently; here a '#'
// line or a blank one is skipped and anything else is an error naming its
// line, so a truncated or foreign file is not read as an empty fabric.
// ibdiag's writer (IBDiag::DumpSLVLFile) was not found in a public
// source, only its reader, so a header or trailer it may print beyond '#'
// comments is unverified.

// SLVLRow is one line: the SL2VL table of one input/output port pair.
type SLVLRow struct {
	GUID    string // node GUID, 0x + 16 lower-case hex digits
	In, Out int
	VL      [16]int
	Line    int
}

// SLVL is a parsed ibdiagnet2.slvl.
type SLVL struct {
	File string
	Rows []SLVLRow // sorted by GUID, output port, input port
}

// ParseSLVL parses ibdiagnet2.slvl.
func ParseSLVL(file string, data []byte) (*SLVL, error) {
	t := &SLVL{File: file}
	seen := map[[3]string]int{}
	for i, raw := range splitLines(data) {
		n := i + 1
		s := strings.TrimSpace(raw)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		r, msg := slvlRow(s)
		if msg != "" {
			return nil, errf(file, n, "%s: %q", msg, clip(s))
		}
		k := [3]string{r.GUID, strconv.Itoa(r.In), strconv.Itoa(r.Out)}
		if l, dup := seen[k]; dup {
			return nil, errf(file, n, "%s in %d out %d again (first at line %d)", r.GUID, r.In, r.Out, l)
		}
		seen[k] = n
		r.Line = n
		t.Rows = append(t.Rows, r)
	}
	if len(t.Rows) == 0 {
		return nil, errf(file, 0, "no \"0x<guid> <in> <out> 0x.. x8\" line: not ibdiagnet2.slvl")
	}
	sort.Slice(t.Rows, func(i, j int) bool {
		a, b := t.Rows[i], t.Rows[j]
		if a.GUID != b.GUID {
			return a.GUID < b.GUID
		}
		if a.Out != b.Out {
			return a.Out < b.Out
		}
		return a.In < b.In
	})
	return t, nil
}

func slvlRow(s string) (SLVLRow, string) {
	var r SLVLRow
	f := strings.Fields(s)
	if len(f) != 11 {
		return r, "want \"0x<guid> <in port> <out port>\" and 8 bytes 0xVV"
	}
	var ok bool
	if r.GUID, ok = normGUID(f[0]); !ok {
		return r, "bad node GUID"
	}
	var ok1, ok2 bool
	r.In, ok1 = atoi(f[1], 0, 255, false)
	r.Out, ok2 = atoi(f[2], 0, 255, false)
	if !ok1 || !ok2 {
		return r, "bad port number"
	}
	for i, b := range f[3:] {
		h, ok := strings.CutPrefix(strings.ToLower(b), "0x")
		if !ok || len(h) != 2 || strings.Trim(h, "0123456789abcdef") != "" {
			return r, "want 0x and two hex digits per SL pair"
		}
		// 15 is legal: VL15 in an SL2VL table drops the SL (IBA vol. 1
		// §7.6.6); the checks judge it, not the parser.
		hi, _ := atoi("0x"+h[:1], 0, 15, true)
		lo, _ := atoi("0x"+h[1:], 0, 15, true)
		r.VL[2*i], r.VL[2*i+1] = hi, lo
	}
	return r, ""
}
