package model

// Expected is what OpenSM programs on a port of this class running
// operVLs data VLs: every VL masked as osm_qos.c does. ok is false when
// operVLs is not known.
func (c *SMClassConfig) Expected(operVLs int) (sl2vl [16]int, high, low []VLArbEntry, ok bool) {
	mask, ok := VLMask(operVLs)
	if !ok {
		return sl2vl, nil, nil, false
	}
	for i, vl := range c.SL2VL.V {
		if vl != VLDrop {
			vl &= mask
		}
		sl2vl[i] = vl
	}
	maskArb := func(in []VLArbEntry) []VLArbEntry {
		out := make([]VLArbEntry, len(in))
		for i, e := range in {
			out[i] = VLArbEntry{VL: e.VL & mask, Weight: e.Weight}
		}
		return out
	}
	return sl2vl, maskArb(c.VLArbHigh.V), maskArb(c.VLArbLow.V), true
}

// ConfKeyAt is the option set at line n of opensm.conf ("" for none), so a
// fix can tell a class's own line from the qos_ line it fell back to.
func (sm *SMIntent) ConfKeyAt(n int) string { return sm.Keys[n] }
