package ibfiles

import (
	"strings"
)

// The port classes OpenSM keeps a QoS parameter set for, and "" for the
// subnet-wide `qos_` set the classes fall back to (linux-rdma/opensm
// doc/QoS_management_in_OpenSM.txt §7, opensm/osm_subnet.c opt_tbl).
const (
	ClassDefault = ""
	ClassCA      = "ca"
	ClassSW0     = "sw0"
	ClassSWE     = "swe"
	ClassRtr     = "rtr"
)

// Classes lists every class, the subnet-wide set first.
var Classes = []string{ClassDefault, ClassCA, ClassSW0, ClassSWE, ClassRtr}

// VLArbEntry is one VL/weight pair of a VL arbitration table; weights are
// in 64-byte credits and 0 skips the entry.
type VLArbEntry struct{ VL, Weight int }

// Setting is one opensm.conf line: its raw value and where it is.
type Setting struct {
	Value string
	Line  int
}

// QoSSet is one class's `qos_<class>_*` lines, as written. A nil field
// was not set (or set to "(null)", which `opensm -c` writes for an unset
// string), so OpenSM falls back.
type QoSSet struct {
	MaxVLs    *Setting // qos_*_max_vls
	HighLimit *Setting // qos_*_high_limit
	VLArbHigh *Setting // qos_*_vlarb_high
	VLArbLow  *Setting // qos_*_vlarb_low
	SL2VL     *Setting // qos_*_sl2vl
}

// OpenSMConf is opensm.conf reduced to its QoS options.
type OpenSMConf struct {
	File string
	// QoS is the `qos` line (TRUE/FALSE); nil when absent (OpenSM's
	// default: FALSE, osm_subnet.c osm_subn_set_default_opt).
	QoS *Setting
	// Sets holds a QoSSet per class in Classes.
	Sets map[string]*QoSSet
	// RoutingEngine is the routing_engine line: engine names separated
	// by commas, tried in order (linux-rdma/opensm man/opensm.8.in -R);
	// nil when absent or "(null)" (OpenSM routes with Min Hop).
	RoutingEngine *Setting
	// PolicyFile is the qos_policy_file line, the QoS policy file's path
	// (linux-rdma/opensm doc/QoS_management_in_OpenSM.txt §1); nil when
	// absent or "(null)" (OpenSM reads its compiled-in default,
	// OSM_DEFAULT_QOS_POLICY_FILE).
	PolicyFile *Setting
}

// ParseOpenSMConf reads opensm.conf the way OpenSM does
// (osm_subnet.c osm_subn_parse_conf_file): '#' starts a comment anywhere,
// the first blank-separated token is the key and the trimmed rest, without
// one pair of surrounding quotes, its value; unknown keys are ignored
// (OpenSM only logs them). A qos value OpenSM could not use is an error at
// its line: OpenSM itself would read it as zeros and program that.
func ParseOpenSMConf(file string, data []byte) (*OpenSMConf, error) {
	c := &OpenSMConf{File: file, Sets: map[string]*QoSSet{}}
	for _, cl := range Classes {
		c.Sets[cl] = &QoSSet{}
	}
	for i, raw := range splitLines(data) {
		n := i + 1
		if j := strings.IndexByte(raw, '#'); j >= 0 {
			raw = raw[:j]
		}
		key, val := strings.TrimLeft(raw, " \t"), ""
		if j := strings.IndexAny(key, " \t"); j >= 0 {
			key, val = key[:j], key[j+1:]
		}
		if key == "routing_engine" {
			if v := cleanVal(val); v != "" && v != "(null)" {
				c.RoutingEngine = &Setting{Value: v, Line: n}
			}
			continue
		}
		if key == "" || (key != "qos" && !strings.HasPrefix(key, "qos_")) {
			continue
		}
		val = cleanVal(val)
		if err := c.set(file, n, key, val); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// cleanVal is osm_subnet.c clean_val: trim, then drop one pair of
// matching quotes.
func cleanVal(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		v = v[1 : len(v)-1]
	}
	return v
}

func (c *OpenSMConf) set(file string, n int, key, val string) error {
	if key == "qos" {
		switch strings.ToUpper(val) {
		case "TRUE", "FALSE":
			c.QoS = &Setting{Value: strings.ToUpper(val), Line: n}
			return nil
		}
		return errf(file, n, "qos %q: want TRUE or FALSE", clip(val))
	}
	if key == "qos_policy_file" {
		if val != "" && val != "(null)" {
			c.PolicyFile = &Setting{Value: val, Line: n}
		}
		return nil
	}
	class, param := splitQoSKey(key)
	set, ok := c.Sets[class]
	if !ok || param == "" {
		return nil // other qos_ options this slice does not read
	}
	// `opensm -c` writes an unset set as "(null)", max_vls 0 and
	// high_limit -1, which qos_build_config (osm_qos.c) treats as "fall
	// back".
	if val == "(null)" || param == "max_vls" && val == "0" || param == "high_limit" && val == "-1" {
		return nil
	}
	s := &Setting{Value: val, Line: n}
	var err string
	switch param {
	case "max_vls":
		if _, ok := atoi(val, 1, 15, false); !ok {
			err = "want 1-15"
		}
		set.MaxVLs = s
	case "high_limit":
		if _, ok := atoi(val, 0, 255, false); !ok {
			err = "want 0-255"
		}
		set.HighLimit = s
	case "vlarb_high", "vlarb_low":
		if _, e := ParseVLArbList(val); e != "" {
			err = e
		}
		if param == "vlarb_high" {
			set.VLArbHigh = s
		} else {
			set.VLArbLow = s
		}
	case "sl2vl":
		if _, e := ParseSL2VLList(val); e != "" {
			err = e
		}
		set.SL2VL = s
	}
	if err != "" {
		return errf(file, n, "%s %q: %s", key, clip(val), err)
	}
	return nil
}

// splitQoSKey splits "qos_ca_sl2vl" into ("ca", "sl2vl") and
// "qos_sl2vl" into ("", "sl2vl"); param is "" for other qos_ keys.
func splitQoSKey(key string) (class, param string) {
	rest := strings.TrimPrefix(key, "qos_")
	for _, cl := range Classes[1:] {
		if r, ok := strings.CutPrefix(rest, cl+"_"); ok {
			class, rest = cl, r
			break
		}
	}
	switch rest {
	case "max_vls", "high_limit", "vlarb_high", "vlarb_low", "sl2vl":
		return class, rest
	}
	return class, ""
}

// ParseVLArbList reads "0:4,1:0,..." (at most 64 entries: two blocks of
// 32, osm_qos.c qos_build_config). OpenSM takes a VL modulo 15; a VL above
// 14 is refused here rather than silently folded.
func ParseVLArbList(s string) ([]VLArbEntry, string) {
	var out []VLArbEntry
	for _, e := range strings.Split(s, ",") {
		vl, w, ok := strings.Cut(strings.TrimSpace(e), ":")
		v, ok1 := atoi(strings.TrimSpace(vl), 0, 14, true)
		wt, ok2 := atoi(strings.TrimSpace(w), 0, 255, true)
		if !ok || !ok1 || !ok2 {
			return nil, "want VL:weight pairs, VL 0-14 and weight 0-255, separated by commas"
		}
		out = append(out, VLArbEntry{VL: v, Weight: wt})
	}
	if len(out) > 64 {
		return nil, "more than 64 entries"
	}
	return out, ""
}

// ParseSL2VLList reads "0,1,...,14,7": the VL of SL 0 to 15 (15 drops).
// OpenSM reads 16 values; fewer leave the rest 0 there, which is refused
// here as a typo.
func ParseSL2VLList(s string) ([16]int, string) {
	var out [16]int
	parts := strings.Split(s, ",")
	if len(parts) != 16 {
		return out, "want 16 VLs (SL 0 to 15), separated by commas"
	}
	for i, p := range parts {
		v, ok := atoi(strings.TrimSpace(p), 0, 15, true)
		if !ok {
			return out, "want 16 VLs 0-15, separated by commas"
		}
		out[i] = v
	}
	return out, ""
}
