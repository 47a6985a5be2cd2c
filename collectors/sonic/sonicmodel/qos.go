package sonicmodel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// Where SONiC leaves a value to the ASIC, the origin says so. Sources:
//   - a port's own PORT_QOS_MAP dscp_to_tc_map wins; PORT_QOS_MAP|global's
//     is applied to the switch (SAI_SWITCH_ATTR_QOS_DSCP_TO_TC_MAP), which
//     serves the ports without one (sonic-net/sonic-swss
//     orchagent/qosorch.cpp, handleGlobalQosMap; "Qos map type %s is not
//     supported at global level" for every other map);
//   - a DSCP or 802.1p value a bound map does not list gets the port's
//     default traffic class, SAI_PORT_ATTR_QOS_DEFAULT_TC, "@default 0"
//     (opencompute/SAI inc/saiport.h); not verified on Spectrum;
//   - a queue without a wred_profile has no WRED and no ECN:
//     SAI_QUEUE_ATTR_WRED_PROFILE_ID defaults to SAI_NULL_OBJECT_ID
//     (opencompute/SAI inc/saiqueue.h);
//   - WRED_PROFILE's ecn defaults to ecn_none and wred_green_enable to
//     false; SCHEDULER's type to WRR and weight to 1
//     (src/sonic-yang-models/yang-models/sonic-wred-profile.yang,
//     sonic-scheduler.yang). ecnconfig sets ecn without
//     wred_green_enable, which leaves ECN unprogrammed on "platforms that
//     honor the SAI spec" (sonic-net/sonic-buildimage#4545:
//     SAI_WRED_ATTR_GREEN_ENABLE defaults to false), so both are needed
//     there; not on NVIDIA Spectrum (model.MarksECNWithoutWREDEnable).
const (
	whyDefaultTC = "the port's default traffic class 0 (SAI_PORT_ATTR_QOS_DEFAULT_TC; not verified on Spectrum)"
	whyNoWRED    = "no wred_profile: no WRED and no ECN on the queue (SAI_QUEUE_ATTR_WRED_PROFILE_ID defaults to none)"
)

// maps are the PORT_QOS_MAP fields a port's QoS reads, each with the row it
// came from.
type maps struct {
	ns                                        *configdb.Namespace
	dscp, dot1p, tcQueue, tcPG, pfcQueue, pfc *configdb.Field
	row                                       *configdb.Row
	// queues are the port's (portRows), none for port "".
	queues   *[8]*configdb.Row
	cable    *configdb.Field
	cableRow *configdb.Row
	pfcAsym  *configdb.Field
}

func (b *builder) mapsOf(port string, ns *configdb.Namespace) maps {
	if pr := b.ports[port]; port != "" && pr != nil && pr.ns == ns {
		return b.portMaps(port, pr)
	}
	return b.readMaps(port, ns, nil)
}

// portMaps are the maps of port, whose rows are pr: read once, as its
// QoS, its watchdog and its buffers all ask.
func (b *builder) portMaps(port string, pr *portRows) maps {
	if !pr.hasMaps {
		pr.maps, pr.hasMaps = b.readMaps(port, pr.ns, pr), true
	}
	return pr.maps
}

// readMaps reads the maps of port in ns; pr is its rows, nil for port "".
func (b *builder) readMaps(port string, ns *configdb.Namespace, pr *portRows) maps {
	var pq *configdb.Table
	if pr != nil {
		pq = pr.tables.portQoS
	} else {
		pq = ns.Table("PORT_QOS_MAP")
	}
	m := maps{ns: ns, row: pq.Row(port), queues: &noQueues}
	if port == "" {
		m.row = nil
	}
	m.dscp = m.row.Get("dscp_to_tc_map")
	if m.dscp == nil {
		m.dscp = pq.Row("global").Get("dscp_to_tc_map")
	}
	m.dot1p = m.row.Get("dot1p_to_tc_map")
	m.tcQueue = m.row.Get("tc_to_queue_map")
	m.tcPG = m.row.Get("tc_to_pg_map")
	m.pfcQueue = m.row.Get("pfc_to_queue_map")
	m.pfc = m.row.Get("pfc_enable")
	if port == "" {
		return m
	}
	if pr == nil {
		m.pfcAsym = ns.Table("PORT").Row(port).Get("pfc_asym")
		return m
	}
	m.pfcAsym = pr.row.Get("pfc_asym")
	m.queues = &pr.queues
	m.cable, m.cableRow = pr.cable, pr.cableRow
	return m
}

// noQueues are the queues of a port without portRows.
var noQueues [8]*configdb.Row

// portRows are a port's namespace and rows, read once: QUEUE, BUFFER_PG
// and CABLE_LENGTH are keyed by port inside their keys or fields, and a
// switch has hundreds of ports.
type portRows struct {
	ns  *configdb.Namespace
	row *configdb.Row // PORT|<port>
	// tables are ns's tables that are read port by port.
	tables *nsTables
	// queues are QUEUE|<port>|<q>; pgs the port's BUFFER_PG rows, in
	// file order; cable its CABLE_LENGTH entry, and the row of it.
	queues   [8]*configdb.Row
	pgs      []*configdb.Row
	cable    *configdb.Field
	cableRow *configdb.Row
	// maps are mapsOf's, once hasMaps.
	maps    maps
	hasMaps bool
}

// nsTables are the tables of a namespace that a port's reading looks a
// row up in, each looked up once rather than by name for every port.
type nsTables struct {
	portQoS, pfcWD, tcPG, bufferProfile *configdb.Table
}

func tablesOf(ns *configdb.Namespace) *nsTables {
	return &nsTables{portQoS: ns.Table("PORT_QOS_MAP"), pfcWD: ns.Table("PFC_WD"),
		tcPG: ns.Table("TC_TO_PRIORITY_GROUP_MAP"), bufferProfile: ns.Table("BUFFER_PROFILE")}
}

// indexRows gives the ports of ns (b.ports) their QUEUE, BUFFER_PG and
// CABLE_LENGTH rows.
func (b *builder) indexRows(ns *configdb.Namespace) {
	// A port's keys are next to each other (QUEUE|Ethernet0|0 to |7):
	// the last port's answer is kept.
	var last string
	var lastPR *portRows
	seen := false
	own := func(port string) *portRows {
		if seen && port == last {
			return lastPR
		}
		last, lastPR, seen = port, nil, true
		if pr := b.ports[port]; pr != nil && pr.ns == ns {
			lastPR = pr
		}
		return lastPR
	}
	if t := ns.Table("QUEUE"); t != nil {
		// A key may name a range ("Ethernet0|3-4", src/sonic-yang-models/
		// yang-models/sonic-queue.yang).
		rows := t.RowList()
		for i, k := range t.Keys {
			p, idx, ok := strings.Cut(k, "|")
			if !ok {
				continue
			}
			pr := own(p)
			if pr == nil {
				continue
			}
			lo, hi, ok := indexSpan(idx)
			if !ok {
				continue
			}
			for q := lo; q <= min(hi, 7); q++ {
				pr.queues[q] = rows[i]
			}
		}
	}
	if t := ns.Table("BUFFER_PG"); t != nil {
		list := t.RowList()
		for i, r := range list {
			p, _, ok := strings.Cut(r.Key, "|")
			if !ok {
				continue
			}
			pr := own(p)
			if pr == nil {
				continue
			}
			// A port's rows are mostly next to each other: they are then
			// a part of the table's list rather than a slice of their
			// own (capped: the list is the table's).
			switch n := len(pr.pgs); {
			case n == 0:
				pr.pgs = list[i : i+1 : i+1]
			case &pr.pgs[n-1] == &list[i-1]:
				pr.pgs = list[i-n : i+1 : i+1]
			default:
				pr.pgs = append(pr.pgs, r)
			}
		}
	}
	if t := ns.Table("CABLE_LENGTH"); t != nil {
		for _, r := range t.RowList() {
			for i := range r.Fields {
				if pr := own(r.Fields[i].Name); pr != nil && pr.cable == nil {
					pr.cable, pr.cableRow = &r.Fields[i], r
				}
			}
		}
	}
}

// qosKey is what decides a port's QoS: ports with the same key share
// one. A field that is absent and one that is empty differ (an empty
// dscp_to_tc_map still makes the port trust DSCP, an empty scheduler
// names no SCHEDULER); a queue without a QUEUE row and one whose row names
// neither are the same. It is a value, not a string built per port: a
// switch has hundreds of ports and few QoS.
type qosKey struct {
	ns     *configdb.Namespace
	fields [8]string
	has    uint8 // bit i: fields[i] is given
	queues [8]struct {
		scheduler, wred       string
		hasScheduler, hasWRED bool
	}
}

func (m maps) key() qosKey {
	k := qosKey{ns: m.ns}
	for i, f := range [...]*configdb.Field{m.dscp, m.dot1p, m.tcQueue, m.tcPG, m.pfcQueue, m.pfc, m.cable, m.pfcAsym} {
		if f != nil {
			k.fields[i] = f.Value
			k.has |= 1 << i
		}
	}
	for i, r := range m.queues {
		q := &k.queues[i]
		if r == nil {
			continue
		}
		if f := r.Get("scheduler"); f != nil {
			q.scheduler, q.hasScheduler = f.Value, true
		}
		if f := r.Get("wred_profile"); f != nil {
			q.wred, q.hasWRED = f.Value, true
		}
	}
	return k
}

// indexRange reads "3" or "3-4"; nil when it is neither.
func indexRange(s string) []int {
	lo, hi, ok := indexSpan(s)
	if !ok {
		return nil
	}
	out := make([]int, 0, hi-lo+1)
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return out
}

// indexSpan reads "3" or "3-4" as its first and last index.
func indexSpan(s string) (lo, hi int, ok bool) {
	// Most keys name one queue or group of one digit: QUEUE has eight a
	// port.
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		return int(s[0] - '0'), int(s[0] - '0'), true
	}
	a, z, isRange := strings.Cut(s, "-")
	lo, err := strconv.Atoi(a)
	if err != nil || lo < 0 {
		return 0, 0, false
	}
	hi = lo
	if isRange {
		if hi, err = strconv.Atoi(z); err != nil || hi < lo || hi > 15 {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// portQoS is the effective QoS of port ("" for what a port without a
// PORT_QOS_MAP row gets).
func (b *builder) portQoS(port string, ns *configdb.Namespace) *model.QoS {
	return b.qosOf(port, b.mapsOf(port, ns))
}

// qosOf is the effective QoS of port, whose maps are m.
func (b *builder) qosOf(port string, m maps) *model.QoS {
	k := m.key()
	// Ports in a row mostly share their QoS: the last one found is
	// compared first, which hashes none of the key's strings.
	if b.lastQoS != nil && k == b.lastKey {
		return b.lastQoS
	}
	if q, ok := b.shared[k]; ok {
		b.lastKey, b.lastQoS = k, q
		return q
	}
	q := &model.QoS{}
	b.classify(q, m)
	b.pfcOf(q, m)
	b.queuesOf(q, m, port)
	b.cableOf(q, m, port)
	b.shared[k] = q
	b.lastKey, b.lastQoS = k, q
	return q
}

// rowPos is where a value a row leaves out is decided: the row, else the
// file.
func (b *builder) rowPos(r *configdb.Row) source.Pos {
	if r != nil {
		return r.Pos()
	}
	return source.Pos{File: b.file}
}

func (b *builder) defaulted(pos source.Pos, v int, why string) model.Value[int] {
	if pos.File == "" {
		pos.File = b.file
	}
	return model.Value[int]{V: v, Origin: model.NewOrigin(pos, why), Known: true}
}

// mapRow resolves a PORT_QOS_MAP reference to its map; a name the file does
// not define is an input problem (orchagent waits for it and applies
// nothing: "is not yet created", qosorch.cpp).
func (b *builder) mapRow(ns *configdb.Namespace, table string, f *configdb.Field) *configdb.Row {
	r := refRow(ns, table, f)
	if r == nil && f != nil {
		_, name := configdb.Ref(f.Value)
		b.problems = append(b.problems, b.errAt(f.Pos(), "%s names %s|%s, which the configuration does not define", f.Name, table, name))
	}
	return r
}

// refRow is the row of table that reference f names; nil when f is nil or
// names none.
func refRow(ns *configdb.Namespace, table string, f *configdb.Field) *configdb.Row {
	if f == nil {
		return nil
	}
	_, name := configdb.Ref(f.Value)
	return ns.Table(table).Row(name)
}

// lookup reads entry key of a map row as an integer in [0, max].
func (b *builder) lookup(r *configdb.Row, key string, max int) (int, *configdb.Field, bool) {
	f := r.Get(key)
	if f == nil {
		return 0, nil, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(f.Value))
	if err != nil || n < 0 || n > max {
		b.problems = append(b.problems, b.errAt(f.Pos(), "%q is not a number from 0 to %d", f.Value, max))
		return 0, f, false
	}
	return n, f, true
}

func (b *builder) classify(q *model.QoS, m maps) {
	dscpRow := b.mapRow(m.ns, "DSCP_TO_TC_MAP", m.dscp)
	dot1pRow := b.mapRow(m.ns, "DOT1P_TO_TC_MAP", m.dot1p)
	rowPos := b.rowPos(m.row)
	switch {
	case m.dscp != nil && m.dot1p != nil:
		q.Trust = model.Explicit("both", m.dscp.Pos())
	case m.dscp != nil:
		q.Trust = model.Explicit("l3", m.dscp.Pos())
	case m.dot1p != nil:
		q.Trust = model.Explicit("l2", m.dot1p.Pos())
	default:
		q.Trust = model.Value[string]{V: "port", Origin: model.NewOrigin(rowPos, "no dscp_to_tc_map or dot1p_to_tc_map: every packet gets "+whyDefaultTC), Known: true}
	}
	q.MappingProfile = refValue(m.dscp, "DSCP_TO_TC_MAP", rowPos)
	b.dscpTable(q, dscpRow, m.dscp, rowPos)
	for p := range q.PCP {
		q.PCP[p] = b.mapEntry(dot1pRow, m.dot1p, strconv.Itoa(p), "802.1p", rowPos)
	}
}

// dscpKey is what a QoS's DSCP table is read from when a map is bound:
// the map's row and the reference's text (its name in the reasons).
type dscpKey struct {
	row *configdb.Row
	ref string
}

// dscpBuilt is a DSCP table read once, and the problems its reading
// raised.
type dscpBuilt struct {
	m        model.DSCPMap
	problems []*source.Error
}

// dscpTable gives q the DSCP table of map row r (nil when ref binds none
// the file defines). The QoS of a switch's ports mostly bind one map:
// its table is read once and copied (a DSCPMap copy shares the origins it
// has, model.DSCPMap), each copy raising the problems again, as a reading
// of its own would.
func (b *builder) dscpTable(q *model.QoS, r *configdb.Row, ref *configdb.Field, rowPos source.Pos) {
	if r == nil || ref == nil {
		for d := range 64 {
			q.DSCP.Set(d, b.mapEntry(r, ref, strconv.Itoa(d), "DSCP", rowPos))
		}
		return
	}
	k := dscpKey{r, ref.Value}
	if c, ok := b.dscpMaps[k]; ok {
		q.DSCP = c.m
		for _, p := range c.problems {
			cp := *p
			b.problems = append(b.problems, &cp)
		}
		return
	}
	before := len(b.problems)
	for d := range 64 {
		q.DSCP.Set(d, b.mapEntry(r, ref, strconv.Itoa(d), "DSCP", rowPos))
	}
	if b.dscpMaps == nil {
		b.dscpMaps = map[dscpKey]*dscpBuilt{}
	}
	b.dscpMaps[k] = &dscpBuilt{q.DSCP, slices.Clone(b.problems[before:])}
}

// noMapBound is mapEntry's reason for each entry of a map no row binds,
// spelt once rather than per entry.
var noMapBound = map[string]string{
	"DSCP":   "no DSCP map bound: " + whyDefaultTC,
	"802.1p": "no 802.1p map bound: " + whyDefaultTC,
}

// mapEntry is one entry of a DSCP or 802.1p map.
func (b *builder) mapEntry(r *configdb.Row, ref *configdb.Field, key, what string, rowPos source.Pos) model.Value[int] {
	if r == nil {
		if ref == nil {
			why, ok := noMapBound[what]
			if !ok {
				why = "no " + what + " map bound: " + whyDefaultTC
			}
			return b.defaulted(rowPos, 0, why)
		}
		return b.defaulted(ref.Pos(), 0, ref.Value+" is not defined: "+whyDefaultTC)
	}
	if tc, f, ok := b.lookup(r, key, 15); ok {
		return model.Explicit(tc, f.Pos())
	}
	_, name := configdb.Ref(ref.Value)
	return b.defaulted(r.Pos(), 0, fmt.Sprintf("%s %s is not in %s: %s", what, key, name, whyDefaultTC))
}

func refValue(f *configdb.Field, table string, rowPos source.Pos) model.Value[string] {
	if f == nil {
		return model.Value[string]{V: "", Origin: model.NewOrigin(rowPos, "no "+table+" bound"), Known: true}
	}
	_, name := configdb.Ref(f.Value)
	return model.Explicit(own(name), f.Pos())
}

// pfcOf: pfc_enable lists the PFC priorities of the port. The model reads a
// PFC priority as the switch priority (TC) of the same number, which is
// what SONiC's maps do where they are the identity (TC_TO_PRIORITY_GROUP_MAP
// and MAP_PFC_PRIORITY_TO_QUEUE in files/build_templates/qos_config.j2);
// where they are not, a note says so.
func (b *builder) pfcOf(q *model.QoS, m maps) {
	rowPos := b.rowPos(m.row)
	var on []int
	if m.pfc != nil {
		for _, s := range strings.Split(m.pfc.Value, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > 7 {
				b.problems = append(b.problems, b.errAt(m.pfc.Pos(), "pfc_enable %q: %q is not a priority from 0 to 7", m.pfc.Value, s))
				continue
			}
			on = append(on, n)
		}
		q.PFCProfile = model.Explicit("pfc_enable "+m.pfc.Value, m.pfc.Pos())
	} else {
		q.PFCProfile = model.Value[string]{V: "", Origin: model.NewOrigin(rowPos, "no pfc_enable"), Known: true}
	}
	for p := range q.PFC {
		if m.pfc != nil {
			q.PFC[p] = model.Explicit(slices.Contains(on, p), m.pfc.Pos())
		} else {
			q.PFC[p] = model.Value[bool]{V: false, Origin: model.NewOrigin(rowPos, "no pfc_enable: PFC off"), Known: true}
		}
	}
	// PORT pfc_asym "off" (the default) is symmetric PFC: the port sends and
	// honours pause frames on its pfc_enable priorities
	// (src/sonic-yang-models/yang-models/sonic-port.yang, pfc_asym).
	dir := model.Value[bool]{V: true, Origin: model.NewOrigin(rowPos, "PFC both ways (PORT pfc_asym off, the default)"), Known: true}
	if m.pfcAsym != nil {
		dir = model.Explicit(true, m.pfcAsym.Pos())
	}
	q.PFCRx, q.PFCTx = dir, dir
	tcQueue := b.mapRow(m.ns, "TC_TO_QUEUE_MAP", m.tcQueue)
	pfcQueue := b.mapRow(m.ns, "MAP_PFC_PRIORITY_TO_QUEUE", m.pfcQueue)
	for _, p := range on {
		if qt, _, ok := b.lookup(tcQueue, strconv.Itoa(p), 9); ok && qt != p && m.tcQueue != nil {
			b.notes = append(b.notes, b.errAt(m.tcQueue.Pos(), "%s sends TC %d to queue %d: the model reads PFC priority %d as TC %d and queue %d", m.tcQueue.Value, p, qt, p, p, p))
		}
		if qp, _, ok := b.lookup(pfcQueue, strconv.Itoa(p), 7); ok && qp != p {
			b.notes = append(b.notes, b.errAt(m.pfcQueue.Pos(), "%s pauses queue %d for PFC priority %d: the model reads them as the same number", m.pfcQueue.Value, qp, p))
		}
	}
	for t := range q.TC {
		switch qt, f, ok := b.lookup(tcQueue, strconv.Itoa(t), 9); {
		case ok:
			q.TC[t] = model.Explicit(qt, f.Pos())
		case m.tcQueue == nil:
			q.TC[t] = b.defaulted(rowPos, t, "no tc_to_queue_map: queue = TC assumed, as SONiC's stock AZURE map does (not verified for an unbound map)")
		default:
			q.TC[t] = b.defaulted(m.tcQueue.Pos(), t, fmt.Sprintf("TC %d is not in %s: queue = TC assumed (not verified)", t, m.tcQueue.Value))
		}
	}
}

// queuesOf reads each queue's scheduler and WRED/ECN profile.
func (b *builder) queuesOf(q *model.QoS, m maps, port string) {
	var weight [8]int
	var weightPos [8]source.Pos
	var schedNames, wredNames [8]string
	total := 0
	for i := range 8 {
		r := m.queues[i]
		b.queueECN(q, m.ns, r, i, port)
		sched := r.Get("scheduler")
		if sched == nil {
			pos := b.rowPos(r)
			if r == nil && port != "" {
				pos = b.portPos(port)
			}
			why := noScheduler[i]
			q.Sched[i] = model.Value[string]{V: "dwrr", Origin: model.NewOrigin(pos, why), Known: true}
			q.SchedBW[i] = b.defaulted(pos, 0, why)
			continue
		}
		_, name := configdb.Ref(sched.Value)
		schedNames[i] = name
		s := m.ns.Table("SCHEDULER").Row(name)
		if s == nil {
			b.problems = append(b.problems, b.errAt(sched.Pos(), "scheduler names SCHEDULER|%s, which the configuration does not define", name))
		}
		typ, typPos := "WRR", sched.Pos()
		if f := s.Get("type"); f != nil {
			typ, typPos = strings.ToUpper(f.Value), f.Pos()
		}
		if typ == "STRICT" {
			q.Sched[i] = model.Explicit("strict", typPos)
			q.SchedBW[i] = model.Explicit(0, typPos)
			continue
		}
		q.Sched[i] = model.Explicit("dwrr", typPos)
		weight[i], weightPos[i] = 1, typPos
		if f := s.Get("weight"); f != nil {
			if n, err := strconv.Atoi(f.Value); err == nil && n >= 1 && n <= 100 {
				weight[i], weightPos[i] = n, f.Pos()
			} else {
				b.problems = append(b.problems, b.errAt(f.Pos(), "SCHEDULER|%s weight %q is not a number from 1 to 100", name, f.Value))
			}
		}
		total += weight[i]
	}
	shares := dwrrShares(weight, total)
	for i := range 8 {
		if weight[i] == 0 {
			continue
		}
		share := shares[i]
		// SCHEDULER weight is 1..100 (sonic-scheduler.yang): the model
		// reads it as the queue's share of the port's DWRR queues, which is
		// a percent only when the weights add to 100 (not verified against
		// the Spectrum SAI).
		q.SchedBW[i] = model.BoundAt(weightPos[i], share,
			"DWRR weight "+strconv.Itoa(weight[i])+" of the port's "+strconv.Itoa(total)+": "+strconv.Itoa(share)+"%")
	}
	for i := range 8 {
		wredNames[i] = m.queues[i].Get("wred_profile").ValueOr("")
	}
	q.SchedProfile = model.Defaulted(perQueue(&schedNames, "no scheduler"), "the queues' SCHEDULER entries")
	q.ECNProfile = model.Defaulted(perQueue(&wredNames, "no WRED profile"), "the queues' WRED_PROFILE entries")
}

// noScheduler are the reasons of queues 0 to 7 without a scheduler,
// spelt once: an origin's reason is interned by its text's address first
// (model.NewOrigin), which a text spelt anew each time misses.
var noScheduler = func() (why [8]string) {
	for i := range why {
		why[i] = "queue " + strconv.Itoa(i) + " has no scheduler: the ASIC's default scheduling, which SONiC does not document (not verified)"
	}
	return why
}()

// dwrrShares are the queues' weights as percents of total that add up to
// exactly 100 (largest remainder; ties to the lower queue): weights are
// relative, so their shares cannot exceed the port, and rounding each on
// its own would (six weights of 10 at 17% each make 102%).
func dwrrShares(weight [8]int, total int) [8]int {
	var out [8]int
	if total == 0 {
		return out
	}
	sum := 0
	for i, w := range weight {
		out[i] = 100 * w / total
		sum += out[i]
	}
	for sum < 100 {
		best, bestRem := -1, -1
		for i, w := range weight {
			if w == 0 {
				continue
			}
			if rem := 100 * w % total; rem > bestRem {
				best, bestRem = i, rem
			}
		}
		out[best]++
		weight[best] = 0 // one extra point per queue at most
		sum++
	}
	return out
}

// perQueue names what each queue uses, "scheduler.0 on queues 0-2,4,5;
// scheduler.1 on queue 3", for a finding that names a port group's
// "profile"; none is said when no queue names anything. The text is the
// model's own, never a name's (cut from the file, configdb.ParseOwned).
func perQueue(names *[8]string, none string) string {
	// A port has eight queues and a few names: a scan finds a name's
	// place faster than a map, and the queues of each name are a bit
	// set rather than a slice apiece.
	var order [8]string
	var queues [8]uint8
	n := 0
	for q, name := range names {
		if name == "" {
			continue
		}
		i := slices.Index(order[:n], name)
		if i < 0 {
			i, order[n] = n, name
			n++
		}
		queues[i] |= 1 << q
	}
	if n == 0 {
		return none
	}
	var b strings.Builder
	var list [8]int
	for i, name := range order[:n] {
		qs := list[:0]
		for q := range 8 {
			if queues[i]&(1<<q) != 0 {
				qs = append(qs, q)
			}
		}
		if i > 0 {
			b.WriteString("; ")
		}
		word := "queues "
		if len(qs) == 1 {
			word = "queue "
		}
		b.WriteString(name)
		b.WriteString(" on ")
		b.WriteString(word)
		b.WriteString(model.IntList(qs))
	}
	return b.String()
}

// ecnMarks are the WRED_PROFILE ecn values that mark green packets
// (sonic-wred-profile.yang, ecn); RoCE is green, nothing polices it.
var ecnMarks = map[string]bool{"ecn_green": true, "ecn_green_yellow": true, "ecn_green_red": true, "ecn_all": true}

func (b *builder) queueECN(q *model.QoS, ns *configdb.Namespace, r *configdb.Row, i int, port string) {
	q.ECNMode[i] = model.Defaulted("absolute", "WRED thresholds are bytes")
	q.ECNMinPct[i] = model.Defaulted(0, "no relative ECN in SONiC")
	q.ECNMaxPct[i] = model.Defaulted(100, "no relative ECN in SONiC")
	wf := r.Get("wred_profile")
	pos := b.rowPos(r)
	if r == nil && port != "" {
		pos = b.portPos(port)
	}
	if wf == nil {
		q.ECN[i] = model.Value[bool]{V: false, Origin: model.NewOrigin(pos, whyNoWRED), Known: true}
		q.ECNMin[i], q.ECNMax[i] = b.defaulted(pos, 0, whyNoWRED), b.defaulted(pos, 0, whyNoWRED)
		return
	}
	_, name := configdb.Ref(wf.Value)
	w := ns.Table("WRED_PROFILE").Row(name)
	if w == nil {
		b.problems = append(b.problems, b.errAt(wf.Pos(), "wred_profile names WRED_PROFILE|%s, which the configuration does not define", name))
		q.ECN[i] = model.BoundAt(wf.Pos(), false, "the WRED profile is not defined")
		q.ECNMin[i], q.ECNMax[i] = b.defaulted(wf.Pos(), 0, "the WRED profile is not defined"), b.defaulted(wf.Pos(), 0, "the WRED profile is not defined")
		return
	}
	ecn, green := w.Get("ecn"), w.Get("wred_green_enable")
	switch {
	case ecn == nil:
		q.ECN[i] = model.BoundAt(w.Pos(), false, "WRED_PROFILE|"+name+" sets no ecn: ecn_none")
	case !ecnMarks[ecn.Value]:
		q.ECN[i] = model.Explicit(false, ecn.Pos())
	case (green == nil || !strings.EqualFold(green.Value, "true")) && b.ecnAlone:
		q.ECN[i] = model.Explicit(true, ecn.Pos())
	case green == nil || !strings.EqualFold(green.Value, "true"):
		pos := w.Pos()
		if green != nil {
			pos = green.Pos()
		}
		q.ECN[i] = model.Value[bool]{V: false, Origin: model.NewOrigin(pos, "WRED_PROFILE|"+name+" has ecn "+ecn.Value+" but not wred_green_enable true: green packets are neither dropped nor marked"), Known: true}
	default:
		q.ECN[i] = model.Explicit(true, ecn.Pos())
	}
	q.ECNMin[i] = b.threshold(w, "green_min_threshold")
	q.ECNMax[i] = b.threshold(w, "green_max_threshold")
}

func (b *builder) threshold(w *configdb.Row, name string) model.Value[int] {
	f := w.Get(name)
	if f == nil {
		return b.defaulted(w.Pos(), 0, name+" not set")
	}
	n, err := strconv.Atoi(f.Value)
	if err != nil || n < 0 {
		b.problems = append(b.problems, b.errAt(f.Pos(), "%s %q is not a byte count", name, f.Value))
		return b.defaulted(f.Pos(), 0, name+" unreadable")
	}
	return model.Explicit(n, f.Pos())
}

// cableOf reads CABLE_LENGTH (pattern "[0-9]+m", sonic-cable-length.yang).
// Without an entry buffermgrd sizes no lossless headroom for the port:
// "Unable to create/update PG profile for port %s. Cable length is not set"
// (sonic-net/sonic-swss cfgmgr/buffermgr.cpp, doSpeedUpdateTask).
func (b *builder) cableOf(q *model.QoS, m maps, port string) {
	if m.cable == nil {
		q.CableLength = b.defaulted(b.rowPos(m.row), 0, "no CABLE_LENGTH entry: buffermgrd sizes no lossless headroom")
		q.CableFrom = "CABLE_LENGTH"
		return
	}
	q.CableFrom = "CABLE_LENGTH|" + m.cableRow.Key
	n, err := strconv.Atoi(strings.TrimSuffix(m.cable.Value, "m"))
	if err != nil || !strings.HasSuffix(m.cable.Value, "m") {
		b.problems = append(b.problems, b.errAt(m.cable.Pos(), "cable length %q of %s is not a length in metres such as 40m", m.cable.Value, port))
		q.CableLength = b.defaulted(m.cable.Pos(), 0, "unreadable cable length")
		return
	}
	q.CableLength = model.Explicit(n, m.cable.Pos())
}
