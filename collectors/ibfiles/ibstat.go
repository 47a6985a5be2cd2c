package ibfiles

import (
	"strings"
)

// IBStatPort is one port of `ibstat` (linux-rdma/rdma-core
// infiniband-diags/ibstat.c ca_dump/port_dump):
//
//	CA 'mlx5_0'
//		CA type: MT4123
//		...
//		Node GUID: 0x0c42a10300aa0001
//		...
//		Port 1:
//			State: Active
//			...
//			Base lid: 3
//			...
//			Link layer: InfiniBand
type IBStatPort struct {
	CA string
	// NodeGUID is the CA's "Node GUID", 0x and 16 lower-case hex digits
	// as ca_dump prints it (printf "\tNode GUID: 0x%016" PRIx64); ""
	// when the CA has no such line.
	NodeGUID  string
	Port      int
	State     string
	BaseLID   int
	LinkLayer string // "InfiniBand" or "Ethernet"
	Line      int    // the "Port N:" line
}

// IBStat is `ibstat`, its ports in CA then port order.
type IBStat struct {
	File  string
	Ports []IBStatPort
}

// ParseIBStat parses `ibstat` output.
func ParseIBStat(file string, data []byte) (*IBStat, error) {
	st := &IBStat{File: file}
	ca, guid := "", ""
	var cur *IBStatPort
	for i, raw := range splitLines(data) {
		n := i + 1
		s := strings.TrimSpace(raw)
		switch {
		case s == "":
			continue
		case strings.HasPrefix(s, "CA '") && strings.HasSuffix(s, "'") && len(s) > 5:
			ca, guid, cur = s[4:len(s)-1], "", nil
			continue
		case strings.HasPrefix(s, "Port ") && strings.HasSuffix(s, ":"):
			p, ok := atoi(strings.TrimSuffix(s[5:], ":"), 1, 255, false)
			if !ok || ca == "" {
				return nil, errf(file, n, "a \"Port N:\" line outside a CA or with a bad number: %q", clip(s))
			}
			st.Ports = append(st.Ports, IBStatPort{CA: ca, NodeGUID: guid, Port: p, BaseLID: -1, Line: n})
			cur = &st.Ports[len(st.Ports)-1]
			continue
		}
		key, val, ok := strings.Cut(s, ":")
		if !ok || ca == "" {
			return nil, errf(file, n, "not ibstat output: %q", clip(s))
		}
		val = strings.TrimSpace(val)
		if cur == nil {
			// A CA attribute (type, firmware, GUIDs): only the node GUID
			// is read, to find the CA in ibdiagnet's fabric-wide files.
			if key == "Node GUID" {
				// normGUID: the form the db_csv reader keeps.
				g, ok := normGUID(val)
				if !ok {
					return nil, errf(file, n, "Node GUID %q: want 0x and up to 16 hex digits", clip(val))
				}
				guid = g
			}
			continue
		}
		switch key {
		case "State":
			cur.State = val
		case "Base lid":
			v, ok := atoi(val, 0, 65535, false)
			if !ok {
				return nil, errf(file, n, "Base lid %q: want 0-65535", clip(val))
			}
			cur.BaseLID = v
		case "Link layer":
			cur.LinkLayer = val
		}
	}
	if len(st.Ports) == 0 {
		return nil, errf(file, 0, "no \"CA '...'\" with a \"Port N:\": not ibstat output")
	}
	return st, nil
}
