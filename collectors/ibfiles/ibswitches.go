package ibfiles

import (
	"sort"
	"strings"
)

// IBSwitch is one line of `ibswitches`. The script (linux-rdma/rdma-core
// infiniband-diags/scripts/ibswitches.in) rewrites each "Switch" record of
// ibnetdiscover with awk into
//
//	Switch\t: 0x<guid> ports <N> "<node description>" enhanced port 0 lid <L> lmc <M>
//
// ("base" for a switch without an enhanced port 0, or neither word when
// ibnetdiscover printed none): the awk's print statement cuts the
// record at its first "port 0", so the word stays after the quoted
// description. N is NodeInfo's NumPorts, the external
// ports; port 0 is the switch's management port.
type IBSwitch struct {
	GUID  string // 0x + 16 lower-case hex digits
	Ports int
	Desc  string // without its quotes
	// Enhanced is "enhanced port 0": port 0 has its own SL2VL and VL
	// arbitration tables (opensm/osm_qos.c osm_qos_setup skips a base
	// port 0).
	Enhanced bool
	LID      int
	Line     int
}

// IBSwitches is parsed `ibswitches` output, sorted by LID.
type IBSwitches struct {
	File     string
	Switches []IBSwitch
}

// ParseIBSwitches parses `ibswitches`. The script passes ibnetdiscover's
// "ibwarn:", "iberror:" and "ibpanic:" lines through; they, and any other
// line, are errors at their line, so a failed discovery is never read as
// a fabric without switches. An empty output is a fabric without
// switches.
func ParseIBSwitches(file string, data []byte) (*IBSwitches, error) {
	t := &IBSwitches{File: file}
	seen := map[int]int{}
	for i, raw := range splitLines(data) {
		n := i + 1
		s := strings.TrimSpace(raw)
		if s == "" {
			continue
		}
		sw, msg := ibSwitchLine(s)
		if msg != "" {
			return nil, errf(file, n, "%s: %q", msg, clip(s))
		}
		if l, dup := seen[sw.LID]; dup {
			return nil, errf(file, n, "lid %d again (first at line %d)", sw.LID, l)
		}
		seen[sw.LID] = n
		sw.Line = n
		t.Switches = append(t.Switches, sw)
	}
	sort.Slice(t.Switches, func(i, j int) bool { return t.Switches[i].LID < t.Switches[j].LID })
	return t, nil
}

func ibSwitchLine(s string) (IBSwitch, string) {
	var sw IBSwitch
	const want = "want `Switch : 0x<guid> ports N \"<desc>\" ... port 0 lid L lmc M`"
	head, rest, ok := strings.Cut(s, ":")
	if !ok || strings.TrimSpace(head) != "Switch" {
		return sw, "not ibswitches output, " + want
	}
	// The description is quoted and may hold blanks; the fields before
	// it and the trailer after its closing quote are fixed.
	o, q := strings.IndexByte(rest, '"'), strings.LastIndexByte(rest, '"')
	if o < 0 || q <= o {
		return sw, "node description not quoted"
	}
	f := strings.Fields(rest[:o])
	if len(f) != 3 || f[1] != "ports" {
		return sw, want
	}
	var ok1, ok2 bool
	sw.GUID, ok1 = normGUID(f[0])
	sw.Ports, ok2 = atoi(f[2], 1, 254, false)
	if !ok1 || !ok2 {
		return sw, "bad GUID or port count"
	}
	sw.Desc = rest[o+1 : q]
	t := strings.Fields(rest[q+1:])
	if len(t) > 0 && (t[0] == "enhanced" || t[0] == "base") {
		sw.Enhanced = t[0] == "enhanced"
		t = t[1:]
	}
	if len(t) != 6 || t[0] != "port" || t[1] != "0" || t[2] != "lid" || t[4] != "lmc" {
		return sw, want
	}
	sw.LID, ok1 = atoi(t[3], 1, 0xbfff, false)
	if _, ok2 = atoi(t[5], 0, 7, false); !ok1 || !ok2 {
		return sw, "bad lid (want a unicast LID 1-49151) or lmc"
	}
	return sw, ""
}
