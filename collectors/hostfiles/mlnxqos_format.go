package hostfiles

import (
	"fmt"
	"sort"
	"strings"
)

// FormatMlnxQos prints q the way the current `mlnx_qos -i <netdev>` prints
// a NIC in that state: pretty_print in Mellanox/mlnx-tools python/mlnx_qos
// (HEAD), with the dscp2prio lines of
// DcbAppTable.printAppSelector (python/Python/dcbnetlink.py). It is the
// inverse of ParseMlnxQos for everything the current layout can show:
//
//   - Notes come first, as mlnx_qos prints its warnings before the report;
//     the lldpad banner is followed by a blank line (it is printed with a
//     trailing "\n").
//   - A field q does not hold (DCBXMode or Trust "", CableLen -1,
//     BufferSizes nil, HasPFC false, PrioBuffer nil) is left out rather than
//     invented, so output parsed from an older layout stays what it was.
//   - "dscp2prio mapping:" is printed when Trust is "dscp" (as pretty_print
//     does) or when DSCP2Prio is non-nil (so a state no mlnx_qos prints is
//     still visible). Priorities without a DSCP are omitted and the DSCPs of
//     one priority are printed in descending order, 8 to a line: the order
//     every real output shows for the firmware default table: the kernel's
//     APP list is newest-first (linux net/dcb/dcbnl.c dcb_app_add:
//     list_add, at the head) and setDefaultAppEntry adds 0..63 in order. A
//     real host prints a DSCP set later in front of the others instead.
//   - The 2021-2024 "default priority:" block is not printed (removed in
//     374d9b5) and the buffer total is max_buffer_size= (52a4791), printed
//     only when MaxBufferSize > 0.
//   - "PFC configuration:" and its priority header are always printed, as
//     pretty_print does; the enabled and buffer rows only when q has them.
//   - tc blocks come in ascending TC order (`for tc in sorted(tc2up)`), a
//     block's priorities ascending (tc2up is filled `for up in
//     range(len(prio_tc))`). A block whose number was not printed (TC -1,
//     "Rate limit is not supported") is printed bare, as the tool does.
//
// Line numbers in q are ignored; a nil q prints nothing.
func FormatMlnxQos(q *MlnxQos) []byte {
	if q == nil {
		return nil
	}
	var b strings.Builder
	for _, n := range q.Notes {
		b.WriteString(n)
		b.WriteByte('\n')
		if strings.HasPrefix(n, "*") {
			// print('****** WARNING: lldpad ... ******\n')
			b.WriteByte('\n')
		}
	}
	if q.DCBXMode != "" {
		fmt.Fprintf(&b, "DCBX mode: %s\n", q.DCBXMode)
	}
	if q.Trust != "" {
		fmt.Fprintf(&b, "Priority trust state: %s\n", q.Trust)
	}
	if q.Trust == "dscp" || q.DSCP2Prio != nil {
		b.WriteString("dscp2prio mapping:\n")
		writeDSCP2Prio(&b, q.DSCP2Prio)
	}
	if q.BufferSizes != nil {
		b.WriteString("Receive buffer size (bytes): ")
		for _, s := range q.BufferSizes {
			fmt.Fprintf(&b, "%d,", s)
		}
		if q.MaxBufferSize > 0 {
			fmt.Fprintf(&b, "max_buffer_size=%d", q.MaxBufferSize)
		}
		b.WriteByte('\n')
	}
	if q.CableLen >= 0 {
		fmt.Fprintf(&b, "Cable len: %d\n", q.CableLen)
	}
	b.WriteString("PFC configuration:\n")
	b.WriteString("\tpriority    0   1   2   3   4   5   6   7\n")
	if q.HasPFC {
		b.WriteString("\tenabled     ")
		for _, on := range q.PFC {
			if on {
				b.WriteString("1   ")
			} else {
				b.WriteString("0   ")
			}
		}
		b.WriteByte('\n')
	}
	if q.PrioBuffer != nil {
		b.WriteString("\tbuffer      ")
		for _, buf := range q.PrioBuffer {
			fmt.Fprintf(&b, "%d   ", buf)
		}
		b.WriteByte('\n')
	}
	for _, tc := range sortedTCs(q.TCs) {
		writeTC(&b, tc)
	}
	return []byte(b.String())
}

// writeDSCP2Prio is printAppSelector: per priority, '%02d,' per DSCP,
// wrapped "while (len(s[i]) > 24)", i.e. 8 DSCPs a line, each line
// "\tprio:%d dscp:" + its part. Entries outside 0..63 → 0..7 cannot be in
// a NIC's table and are not printed.
func writeDSCP2Prio(b *strings.Builder, m map[int]int) {
	var byPrio [8][]int
	for d, p := range m {
		if d >= 0 && d <= 63 && p >= 0 && p <= 7 {
			byPrio[p] = append(byPrio[p], d)
		}
	}
	for p, dscps := range byPrio {
		sort.Sort(sort.Reverse(sort.IntSlice(dscps)))
		for len(dscps) > 0 {
			n := min(8, len(dscps))
			fmt.Fprintf(b, "\tprio:%d dscp:", p)
			for _, d := range dscps[:n] {
				fmt.Fprintf(b, "%02d,", d)
			}
			b.WriteByte('\n')
			dscps = dscps[n:]
		}
	}
}

// sortedTCs returns the blocks in the order pretty_print prints them:
// ascending TC, priorities ascending. Unnumbered blocks (TC -1) keep their
// relative order and come first.
func sortedTCs(tcs []TC) []TC {
	out := make([]TC, len(tcs))
	for i, tc := range tcs {
		tc.Priorities = append([]int(nil), tc.Priorities...)
		sort.Ints(tc.Priorities)
		out[i] = tc
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].TC < out[b].TC })
	return out
}

// writeTC prints one block: "tc: %d ratelimit: %s, tsa: " then the tsa,
// each member as "\t priority:  %s".
func writeTC(b *strings.Builder, tc TC) {
	if tc.TC >= 0 {
		r := tc.RateLimit
		if r == "" {
			r = "unlimited"
		}
		fmt.Fprintf(b, "tc: %d ratelimit: %s, tsa: ", tc.TC, r)
	}
	switch tc.TSA {
	case "ets":
		fmt.Fprintf(b, "ets, bw: %d%%", tc.BW)
	case "strict", "vendor":
		b.WriteString(tc.TSA)
	default:
		b.WriteString("unknown")
	}
	b.WriteByte('\n')
	for _, p := range tc.Priorities {
		fmt.Fprintf(b, "\t priority:  %d\n", p)
	}
}
