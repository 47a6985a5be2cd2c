package ibfiles

import (
	"strings"
)

// PortInfo is the part of `smpquery portinfo` the QoS checks read. Its
// lines are libibmad's "Name:....value" (libibmad/fields.c
// _mad_dump_field: the name, a colon and dots up to column 33), headed
// "# Port info: Lid 3 port 1" (infiniband-diags/smpquery.c).
type PortInfo struct {
	File   string
	PortID string
	Port   int
	// OperVLs is the number of data VLs the port runs (OperVLs
	// "VL0-7" = 8); 0 when the port printed "No change" or the line is
	// absent. OperVLsLine is its line.
	OperVLs, OperVLsLine int
	// VLHighLimit is the port's high-priority limit (4 KiB units); -1
	// when absent.
	VLHighLimit, VLHighLimitLine int
	// LinkState is libibmad/dump.c mad_dump_portstate's word ("Down",
	// "Initialize", "Armed", "Active"); "" when absent. A switch port
	// not Active carries no traffic and OpenSM skips a Down one
	// (opensm/osm_qos.c qos_extports_setup).
	LinkState string
}

// vlRange maps libibmad/dump.c mad_dump_opervls (and _vlcap) strings to
// the number of data VLs.
var vlRange = map[string]int{"VL0": 1, "VL0-1": 2, "VL0-3": 4, "VL0-7": 8, "VL0-14": 15}

// ParsePortInfo parses `smpquery portinfo` output.
func ParsePortInfo(file string, data []byte) (*PortInfo, error) {
	p := &PortInfo{File: file, VLHighLimit: -1}
	seen := false
	for i, raw := range splitLines(data) {
		n := i + 1
		s := strings.TrimSpace(raw)
		if s == "" {
			continue
		}
		if h, ok := strings.CutPrefix(s, "# Port info:"); ok {
			f := strings.Fields(h)
			if len(f) < 2 || f[len(f)-2] != "port" {
				return nil, errf(file, n, "want \"# Port info: <port id> port P\": %q", clip(s))
			}
			port, ok := atoi(f[len(f)-1], 0, 255, false)
			if !ok {
				return nil, errf(file, n, "bad port number: %q", clip(s))
			}
			p.PortID, p.Port, seen = strings.Join(f[:len(f)-2], " "), port, true
			continue
		}
		name, val, ok := strings.Cut(s, ":")
		if !ok || strings.HasPrefix(s, "#") {
			return nil, errf(file, n, "not smpquery portinfo output: %q", clip(s))
		}
		val = strings.TrimLeft(val, ".")
		switch strings.TrimSpace(name) {
		case "OperVLs":
			if v, ok := vlRange[val]; ok {
				p.OperVLs = v
			} else if val != "No change" {
				return nil, errf(file, n, "OperVLs %q: want VL0, VL0-1, VL0-3, VL0-7 or VL0-14", clip(val))
			}
			p.OperVLsLine = n
		case "LinkState":
			p.LinkState = val
		case "VLHighLimit":
			v, ok := atoi(val, 0, 255, false)
			if !ok {
				return nil, errf(file, n, "VLHighLimit %q: want 0-255", clip(val))
			}
			p.VLHighLimit, p.VLHighLimitLine = v, n
		}
	}
	if !seen {
		return nil, errf(file, 0, "no \"# Port info:\" header: not smpquery portinfo output")
	}
	return p, nil
}
