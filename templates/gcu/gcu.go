// Package gcu spells a SONiC switch's fix: the OS-neutral settings of its
// plan (checks.Setting) as a JSON Patch (RFC 6902) of its configuration for
// Generic Config Updater, `sudo config apply-patch` (sonic-net/
// sonic-utilities config/main.py, generic_config_updater/). The patch is
// written against the captured config_db.json: which map a port binds,
// which scheduler and WRED profile a queue names, whether a row exists.
//
// What GCU refuses is never written: no BUFFER_POOL change (its field
// validator allows none, sonic-net/sonic-utilities#4219,
// generic_config_updater/gcu_field_operation_validators.conf.json), and no
// buffer profile values qoslint would have to invent; such a setting is
// a note saying what to do instead.
package gcu

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/collectors/sonic/sonicmodel"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/render"
)

// Op is one operation of the patch.
type Op struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value"`
}

// Patch is the patch of one switch and what it could not write.
type Patch struct {
	Ops []Op
	// Notes say, per setting the patch leaves out or writes with a side
	// effect, why and what to do.
	Notes []string
}

// JSON is the patch as `config apply-patch` reads it.
func (p Patch) JSON() ([]byte, error) {
	ops := p.Ops
	if ops == nil {
		ops = []Op{}
	}
	b, err := json.MarshalIndent(ops, "", "    ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Write spells the plan's settings against cfg, the switch's configuration.
func Write(plan render.Plan, cfg *configdb.Config) Patch {
	var p Patch
	if len(cfg.Namespaces) != 1 {
		// A multi-ASIC patch names each namespace (/localhost/..., /asic0/...);
		// which form the switch's GCU takes was not verified.
		p.Notes = append(p.Notes, "a multi-ASIC switch: qoslint writes no patch for it (not verified); apply each finding's setting per ASIC namespace")
		return p
	}
	e := &edit{ns: cfg.Namespaces[0], rows: map[rowKey]map[string]any{}, ecnAlone: model.MarksECNWithoutWREDEnable(sonicmodel.ASIC(cfg))}
	for _, c := range plan.Changes {
		if c.Kind != checks.SwitchSetting || c.Set == nil {
			continue
		}
		s := *c.Set
		var notes []string
		for _, port := range s.Ports {
			if n := e.apply(s, port); n != "" && !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
		if len(s.Ports) == 0 {
			notes = append(notes, "names no port")
		}
		for _, n := range notes {
			p.Notes = append(p.Notes, s.String()+": "+n)
		}
	}
	p.Ops = e.ops()
	return p
}

type rowKey struct{ table, key string }

// edit is the configuration as the patch leaves it: the captured rows with
// the fields the settings set over them.
type edit struct {
	ns    *configdb.Namespace
	rows  map[rowKey]map[string]any
	order []rowKey
	// ecnAlone: the switch marks ECN on a WRED profile's ecn field alone,
	// without wred_green_enable (model.MarksECNWithoutWREDEnable), so a fix
	// that turns ECN on leaves WRED dropping as it is.
	ecnAlone bool
}

// get is a field's value after the edits so far.
func (e *edit) get(table, key, field string) (string, bool) {
	if r, ok := e.rows[rowKey{table, key}]; ok {
		if v, ok := r[field]; ok {
			s, _ := v.(string)
			return s, true
		}
	}
	f := e.ns.Table(table).Row(key).Get(field)
	if f == nil {
		return "", false
	}
	return f.Value, true
}

// keys are the captured table's row keys in file order.
func (e *edit) keys(table string) []string {
	if t := e.ns.Table(table); t != nil {
		return t.Keys
	}
	return nil
}

func (e *edit) exists(table, key string) bool {
	_, ok := e.rows[rowKey{table, key}]
	return ok || e.ns.Table(table).Row(key) != nil
}

func (e *edit) set(table, key, field string, value any) {
	k := rowKey{table, key}
	r, ok := e.rows[k]
	if !ok {
		r = map[string]any{}
		e.rows[k] = r
		e.order = append(e.order, k)
	}
	r[field] = value
}

// rank puts the tables whose rows others name (maps, schedulers, WRED and
// buffer profiles) before the tables that name them, so the patch reads as
// definitions, then bindings. GCU applies the patch whole before it
// validates and orders the changes itself (generic_config_updater/
// generic_updater.py, patch_sorter.py), so the order is for the reader.
func rank(table string) int {
	switch table {
	case "DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_QUEUE_MAP", "SCHEDULER", "WRED_PROFILE", "BUFFER_PROFILE":
		return 0
	}
	return 1
}

// ops are the edits as operations, sorted: a field of an existing row is
// replaced or added on its own (the row's other fields stay), a new row is
// added whole; a table the configuration lacks is added with its rows.
func (e *edit) ops() []Op {
	keys := slices.Clone(e.order)
	slices.SortFunc(keys, func(a, b rowKey) int {
		if c := rank(a.table) - rank(b.table); c != 0 {
			return c
		}
		if c := strings.Compare(a.table, b.table); c != 0 {
			return c
		}
		switch {
		case model.NaturalLess(a.key, b.key):
			return -1
		case model.NaturalLess(b.key, a.key):
			return 1
		}
		return 0
	})
	var out []Op
	newTables := map[string]map[string]any{}
	for _, k := range keys {
		fields := e.rows[k]
		row := e.ns.Table(k.table).Row(k.key)
		switch {
		case e.ns.Table(k.table) == nil:
			if newTables[k.table] == nil {
				newTables[k.table] = map[string]any{}
				out = append(out, Op{Op: "add", Path: render.JSONPointer(k.table), Value: newTables[k.table]})
			}
			newTables[k.table][k.key] = fields
		case row == nil:
			out = append(out, Op{Op: "add", Path: render.JSONPointer(k.table, k.key), Value: fields})
		default:
			names := make([]string, 0, len(fields))
			for n := range fields {
				names = append(names, n)
			}
			model.SortNames(names)
			for _, n := range names {
				op := "add"
				if row.Get(n) != nil {
					op = "replace"
				}
				out = append(out, Op{Op: op, Path: render.JSONPointer(k.table, k.key, n), Value: fields[n]})
			}
		}
	}
	return out
}

// apply spells setting s on one port; it returns a note when it cannot, or
// when what it writes reaches further than the port.
func (e *edit) apply(s checks.Setting, port string) string {
	switch s.Aspect {
	case checks.DSCPPriority:
		m := e.dscpMap(port)
		e.set("DSCP_TO_TC_MAP", m, strconv.Itoa(s.Key), strconv.Itoa(s.Value))
	case checks.TrustDSCP:
		e.dscpMap(port)
	case checks.PCPPriority:
		return e.boundEntry(port, "dot1p_to_tc_map", "DOT1P_TO_TC_MAP", s.Key, s.Value)
	case checks.PFCPriority:
		return e.pfc(port, s.Key, s.On)
	case checks.PriorityQueue:
		return e.boundEntry(port, "tc_to_queue_map", "TC_TO_QUEUE_MAP", s.Key, s.Value)
	case checks.QueueECN:
		return e.ecn(port, s.Key)
	case checks.QueueStrict:
		return e.queueField(port, s.Key, "scheduler", e.strictScheduler())
	case checks.QueueShare:
		return e.share(port, s.Key, s.Value)
	case checks.PortMTU:
		// Two checks may raise one port (mtu to the policy's, link-mtu to
		// the other end's): the larger stands.
		if v, _ := e.get("PORT", port, "mtu"); atoi(v) < s.Value {
			e.set("PORT", port, "mtu", strconv.Itoa(s.Value))
		}
	case checks.CableLength:
		e.set("CABLE_LENGTH", e.cableRow(port), port, strconv.Itoa(s.Value)+"m")
	case checks.PFCWatchdog:
		return e.watchdog(port)
	case checks.ECMPHashField:
		return e.hash(s.Field)
	case checks.LosslessPG:
		return e.losslessPG(port, s.Key)
	default:
		return "qoslint writes no patch for it"
	}
	return ""
}

// boundEntry sets entry key of the map the port's PORT_QOS_MAP field names;
// a port that names none is left to the operator, since binding a map
// changes how it classifies or queues everything else too.
func (e *edit) boundEntry(port, field, table string, key, value int) string {
	m, ok := e.get("PORT_QOS_MAP", port, field)
	if !ok {
		return fmt.Sprintf("the port binds no %s; bind one (PORT_QOS_MAP %s)", table, field)
	}
	_, name := configdb.Ref(m)
	e.set(table, name, strconv.Itoa(key), strconv.Itoa(value))
	return ""
}

// dscpMap is the DSCP_TO_TC_MAP the port classifies by: its own, else
// PORT_QOS_MAP|global's (orchagent applies that one to the switch,
// sonic-net/sonic-swss orchagent/qosorch.cpp handleGlobalQosMap). A port
// with neither is bound to the map most other ports use, or to a new
// map of qoslint's name.
func (e *edit) dscpMap(port string) string {
	if v, ok := e.get("PORT_QOS_MAP", port, "dscp_to_tc_map"); ok {
		_, name := configdb.Ref(v)
		return name
	}
	if v, ok := e.get("PORT_QOS_MAP", "global", "dscp_to_tc_map"); ok {
		_, name := configdb.Ref(v)
		return name
	}
	name := e.mostBound("dscp_to_tc_map")
	if name == "" {
		name = render.SONiCMapName
	}
	e.set("PORT_QOS_MAP", port, "dscp_to_tc_map", name)
	return name
}

// mostBound is the map the most PORT_QOS_MAP rows name in field, "" when
// none does (ties: the smallest name).
func (e *edit) mostBound(field string) string {
	count := map[string]int{}
	t := e.ns.Table("PORT_QOS_MAP")
	for _, k := range t.Sorted() {
		if v, ok := e.get("PORT_QOS_MAP", k, field); ok {
			_, name := configdb.Ref(v)
			count[name]++
		}
	}
	best := ""
	for name, n := range count {
		if n > count[best] || n == count[best] && name < best {
			best = name
		}
	}
	return best
}

// pfc edits the port's pfc_enable. A priority PFC newly pauses needs a
// lossless priority group: in the dynamic buffer model buffermgrd gives
// headroom only to the PGs BUFFER_PG lists (a "NULL" profile: calculate,
// sonic-net/SONiC doc/qos/dynamically-headroom-calculation.md), so the
// patch adds one; the traditional buffermgrd writes the PG itself when
// pfc_enable changes (sonic-net/sonic-swss cfgmgr/buffermgr.cpp,
// doPortQosTableTask → doSpeedUpdateTask).
func (e *edit) pfc(port string, prio int, on bool) string {
	cur, _ := e.get("PORT_QOS_MAP", port, "pfc_enable")
	var list []int
	for _, s := range strings.Split(cur, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n != prio && !slices.Contains(list, n) {
			list = append(list, n)
		}
	}
	if on {
		list = append(list, prio)
	}
	slices.Sort(list)
	parts := make([]string, len(list))
	for i, n := range list {
		parts[i] = strconv.Itoa(n)
	}
	e.set("PORT_QOS_MAP", port, "pfc_enable", strings.Join(parts, ","))
	if !on || e.pgRow(port, prio) != "" {
		return ""
	}
	if bm, _ := e.get("DEVICE_METADATA", "localhost", "buffer_model"); bm == "dynamic" {
		e.set("BUFFER_PG", port+"|"+strconv.Itoa(prio), "profile", "NULL")
		return ""
	}
	return "the traditional buffer model's buffermgrd writes the priority group's lossless profile when pfc_enable changes (pg_lossless_<speed>_<cable>_profile, from the SKU's pg_profile_lookup.ini); check BUFFER_PG after the patch"
}

// pgRow is the BUFFER_PG key that covers priority group pg of port ("" for
// none): "Ethernet0|3" or a range "Ethernet0|3-4".
func (e *edit) pgRow(port string, pg int) string {
	if e.exists("BUFFER_PG", port+"|"+strconv.Itoa(pg)) {
		return port + "|" + strconv.Itoa(pg)
	}
	for _, k := range e.keys("BUFFER_PG") {
		if p, r, ok := strings.Cut(k, "|"); ok && p == port && inRange(r, pg) {
			return k
		}
	}
	return ""
}

// queueRow is the QUEUE key that covers queue q of port: its own row, or
// a range row ("Ethernet0|3-4", sonic-queue.yang); ranged reports a range.
func (e *edit) queueRow(port string, q int) (key string, ranged bool) {
	own := port + "|" + strconv.Itoa(q)
	if e.exists("QUEUE", own) {
		return own, false
	}
	for _, k := range e.keys("QUEUE") {
		if p, r, ok := strings.Cut(k, "|"); ok && p == port && inRange(r, q) {
			return k, true
		}
	}
	return own, false
}

// queueField sets a field of the port's queue q. A range row covers other
// queues too: they change with it, which the note says.
func (e *edit) queueField(port string, q int, field, value string) string {
	k, ranged := e.queueRow(port, q)
	e.set("QUEUE", k, field, value)
	if ranged {
		return fmt.Sprintf("QUEUE|%s covers more queues than %d: they get the %s %s too", k, q, field, value)
	}
	return ""
}

func inRange(r string, n int) bool {
	a, z, isRange := strings.Cut(r, "-")
	lo, err := strconv.Atoi(a)
	if err != nil {
		return false
	}
	hi := lo
	if isRange {
		if hi, err = strconv.Atoi(z); err != nil {
			return false
		}
	}
	return lo <= n && n <= hi
}

// marks is whether a WRED profile marks green packets: ecn one of the
// values that include green (sonic-wred-profile.yang), and, on a platform
// that needs it, wred_green_enable true (sonic-net/sonic-buildimage#4545).
func (e *edit) marks(name string) bool {
	ecn, _ := e.get("WRED_PROFILE", name, "ecn")
	green, _ := e.get("WRED_PROFILE", name, "wred_green_enable")
	return greenECN(ecn) && (e.ecnAlone || strings.EqualFold(green, "true"))
}

func greenECN(ecn string) bool {
	return ecn == "ecn_green" || ecn == "ecn_green_yellow" || ecn == "ecn_green_red" || ecn == "ecn_all"
}

// ecn makes queue q of port mark: its WRED profile gets ecn and
// wred_green_enable; a queue without one names a profile that marks (the
// one other ports' queue q use, else qoslint's).
func (e *edit) ecn(port string, q int) string {
	k, _ := e.queueRow(port, q)
	if v, ok := e.get("QUEUE", k, "wred_profile"); ok {
		_, name := configdb.Ref(v)
		if !e.exists("WRED_PROFILE", name) {
			return "its WRED_PROFILE|" + name + " is not defined: define it (with the thresholds the fabric wants) or name another"
		}
		if ecn, _ := e.get("WRED_PROFILE", name, "ecn"); !greenECN(ecn) {
			e.set("WRED_PROFILE", name, "ecn", "ecn_all")
		}
		if green, _ := e.get("WRED_PROFILE", name, "wred_green_enable"); !e.ecnAlone && !strings.EqualFold(green, "true") {
			e.set("WRED_PROFILE", name, "wred_green_enable", "true")
		}
		for _, other := range e.keys("QUEUE") {
			if v, ok := e.get("QUEUE", other, "wred_profile"); ok && other != k {
				if _, n := configdb.Ref(v); n == name {
					return "WRED_PROFILE|" + name + " changes for every queue that names it"
				}
			}
		}
		return ""
	}
	name := ""
	for _, other := range e.keys("QUEUE") {
		if p, r, ok := strings.Cut(other, "|"); ok && p != port && inRange(r, q) {
			if v, ok := e.get("QUEUE", other, "wred_profile"); ok {
				if _, n := configdb.Ref(v); e.marks(n) {
					name = n
					break
				}
			}
		}
	}
	if name == "" {
		name = render.SONiCWREDName
		if !e.exists("WRED_PROFILE", name) {
			for f, v := range render.SONiCWRED() {
				e.set("WRED_PROFILE", name, f, v)
			}
		}
	}
	return e.queueField(port, q, "wred_profile", name)
}

// strictScheduler is a SCHEDULER of type STRICT: the configuration's
// first, else qoslint's.
func (e *edit) strictScheduler() string {
	for _, k := range e.keys("SCHEDULER") {
		if t, _ := e.get("SCHEDULER", k, "type"); strings.EqualFold(t, "STRICT") {
			return k
		}
	}
	if !e.exists("SCHEDULER", render.SONiCStrictName) {
		e.set("SCHEDULER", render.SONiCStrictName, "type", "STRICT")
	}
	return render.SONiCStrictName
}

// weight is queue q's DWRR weight on port, 0 when strict or unscheduled
// (sonicmodel reads SCHEDULER type WRR/DWRR with weight 1..100, default
// 1, sonic-scheduler.yang).
func (e *edit) weight(port string, q int) int {
	k, _ := e.queueRow(port, q)
	v, ok := e.get("QUEUE", k, "scheduler")
	if !ok {
		return 0
	}
	_, name := configdb.Ref(v)
	if t, ok := e.get("SCHEDULER", name, "type"); ok && strings.EqualFold(t, "STRICT") {
		return 0
	}
	w := 1
	if s, ok := e.get("SCHEDULER", name, "weight"); ok {
		if n, err := strconv.Atoi(s); err == nil {
			w = n
		}
	}
	return w
}

// share gives queue q of port a DWRR scheduler whose weight is at least
// pct percent of the port's DWRR weights, the others' unchanged.
func (e *edit) share(port string, q, pct int) string {
	rest := 0
	for i := range 8 {
		if i != q {
			rest += e.weight(port, i)
		}
	}
	w := 100
	if pct < 100 {
		w = max(1, (pct*rest+(100-pct)-1)/(100-pct))
	}
	if w > 100 {
		return fmt.Sprintf("a %d%% share beside the other queues' DWRR weights %d needs a weight above SCHEDULER's 100: lower the other queues' weights", pct, rest)
	}
	name := ""
	for _, k := range e.keys("SCHEDULER") {
		t, _ := e.get("SCHEDULER", k, "type")
		ws, _ := e.get("SCHEDULER", k, "weight")
		if (strings.EqualFold(t, "DWRR") || strings.EqualFold(t, "WRR")) && ws == strconv.Itoa(w) {
			name = k
			break
		}
	}
	if name == "" {
		name = fmt.Sprintf("qoslint.dwrr%d", w)
		e.set("SCHEDULER", name, "type", "DWRR")
		e.set("SCHEDULER", name, "weight", strconv.Itoa(w))
	}
	return e.queueField(port, q, "scheduler", name)
}

// cableRow is the CABLE_LENGTH row that lists port, else the first row
// (SONiC's templates write one, AZURE: buffers_config.j2).
func (e *edit) cableRow(port string) string {
	ks := e.keys("CABLE_LENGTH")
	for _, k := range ks {
		if e.ns.Table("CABLE_LENGTH").Row(k).Get(port) != nil {
			return k
		}
	}
	if len(ks) > 0 {
		return ks[0]
	}
	return "AZURE"
}

// watchdog starts the PFC watchdog on port with `config pfcwd
// start_default`'s settings (drop, 200 ms; sonic-net/sonic-utilities
// pfcwd/main.py DEFAULT_ACTION, DEFAULT_DETECTION_TIME,
// DEFAULT_RESTORATION_TIME). orchagent arms it on the priorities
// PORT_QOS_MAP pfcwd_sw_enable lists; an empty list is the port's PFC
// priorities.
func (e *edit) watchdog(port string) string {
	if !e.exists("PFC_WD", port) {
		e.set("PFC_WD", port, "action", "drop")
		e.set("PFC_WD", port, "detection_time", "200")
		e.set("PFC_WD", port, "restoration_time", "200")
	}
	if v, ok := e.get("PORT_QOS_MAP", port, "pfcwd_sw_enable"); ok && strings.TrimSpace(v) == "" {
		pfc, _ := e.get("PORT_QOS_MAP", port, "pfc_enable")
		e.set("PORT_QOS_MAP", port, "pfcwd_sw_enable", pfc)
	}
	return ""
}

// hash adds field (the model's name) to SWITCH_HASH|GLOBAL ecmp_hash, a
// YANG leaf-list written as a JSON array (sonic-hash.yang).
func (e *edit) hash(field string) string {
	name := ""
	for s, m := range model.SONiCHashFields {
		if m == field {
			name = s
		}
	}
	if name == "" {
		return "SONiC's ecmp_hash has no field for " + field
	}
	var list []string
	if r, ok := e.rows[rowKey{"SWITCH_HASH", "GLOBAL"}]; ok {
		list, _ = r["ecmp_hash"].([]string)
	} else if f := e.ns.Table("SWITCH_HASH").Row("GLOBAL").Get("ecmp_hash"); f != nil {
		list = slices.Clone(f.List)
		if list == nil {
			list = strings.Split(f.Value, ",")
		}
	}
	if !slices.Contains(list, name) {
		list = append(list, name)
	}
	e.set("SWITCH_HASH", "GLOBAL", "ecmp_hash", list)
	return ""
}

// losslessPG gives priority group pg of port a lossless profile. In the
// dynamic model that is "NULL", which buffermgrd sizes from the port's
// speed and cable length. In the traditional model it is the profile
// buffermgrd names for them, pg_lossless_<speed>_<cable>_profile
// (sonic-net/sonic-swss cfgmgr/buffermgr.cpp), when the configuration has
// it; its xon/xoff/size come from the SKU's pg_profile_lookup.ini, which a
// capture does not hold, so qoslint does not write a new one.
func (e *edit) losslessPG(port string, pg int) string {
	k := e.pgRow(port, pg)
	if k == "" {
		k = port + "|" + strconv.Itoa(pg)
	}
	if bm, _ := e.get("DEVICE_METADATA", "localhost", "buffer_model"); bm == "dynamic" {
		e.set("BUFFER_PG", k, "profile", "NULL")
		return ""
	}
	speed, _ := e.get("PORT", port, "speed")
	cable, _ := e.get("CABLE_LENGTH", e.cableRow(port), port)
	name := "pg_lossless_" + speed + "_" + cable + "_profile"
	if speed == "" || cable == "" || !e.exists("BUFFER_PROFILE", name) {
		return fmt.Sprintf("BUFFER_PROFILE|%s is not in the configuration, and its sizes come from the SKU's pg_profile_lookup.ini: "+
			"`sudo config qos reload --ports %s` re-renders the port's buffers (it discards hand edits of its QoS tables)", name, port)
	}
	e.set("BUFFER_PG", k, "profile", name)
	return ""
}

// Fill writes the patch of every SONiC switch plan against the switch's
// captured config_db.json, which read returns by its path in the fabric
// directory (devices/<name>/config_db.json): Plan.Patch (nil when no
// setting could be written) and the notes of what it leaves out.
func Fill(plans []render.Plan, read func(rel string) ([]byte, error)) error {
	for i := range plans {
		p := &plans[i]
		if p.OS != layout.OSSONiC || p.Kind != layout.KindSwitch {
			continue
		}
		rel := layout.DeviceFile(p.Device, layout.ConfigDBFile)
		cfg, err := readConfig(rel, read)
		if err != nil {
			// The switch's other plans and the report go on.
			p.Notes = append(p.Notes, "qoslint writes no patch: it is written against the configuration: "+err.Error())
			continue
		}
		patch := Write(*p, cfg)
		if len(patch.Ops) > 0 {
			if p.Patch, err = patch.JSON(); err != nil {
				return fmt.Errorf("%s: %v", p.Device, err)
			}
		}
		p.Notes = append(p.Notes, patch.Notes...)
	}
	return nil
}

func readConfig(rel string, read func(string) ([]byte, error)) (*configdb.Config, error) {
	if read == nil {
		return nil, fmt.Errorf("%s was not read", rel)
	}
	data, err := read(rel)
	if err != nil {
		return nil, err
	}
	return configdb.Parse(rel, data)
}

// FromDir reads a fabric directory's files for Fill.
func FromDir(dir string) func(rel string) ([]byte, error) {
	return func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))) }
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}
