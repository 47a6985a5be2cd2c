// Package sonicmodel builds the model of a SONiC switch from its
// config_db.json (collectors/sonic/configdb): the same vendor-neutral
// effective QoS an NVUE switch gets, so that every switch check judges it
// with the same verdicts.
//
// SONiC's marking chain (sonic-net/sonic-buildimage
// src/sonic-yang-models/yang-models/sonic-port-qos-map.yang and the maps it
// references): DSCP --PORT_QOS_MAP.dscp_to_tc_map--> traffic class (TC)
// --tc_to_queue_map--> egress queue, whose QUEUE|<port>|<q> entry names the
// SCHEDULER and the WRED_PROFILE (ECN); TC --tc_to_pg_map--> ingress
// priority group, whose BUFFER_PG entry gives the lossless headroom;
// pfc_enable lists the PFC priorities. In the model's terms a SONiC TC is
// the switch priority and the egress queue the traffic class.
package sonicmodel

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/internal/nvrange"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// builder holds one switch's configuration while its model is built; it
// is the switch's model.ConfigPorts until the links are known.
type builder struct {
	cfg  *configdb.Config
	file string
	// meta is DEVICE_METADATA|localhost, from the namespace that has it.
	meta *configdb.Row
	// ports maps each PORT key to its namespace and rows; order is the
	// PORT keys in natural order.
	ports map[string]*portRows
	order []string
	// shared holds one *QoS per distinct set of tables a port reads, so
	// that the checks report ports that share them together.
	shared map[qosKey]*model.QoS
	// dscpMaps are the DSCP tables read, by map (dscpTable).
	dscpMaps map[dscpKey]*dscpBuilt
	// lastKey is the key of the QoS portQoS gave last, lastQoS.
	lastKey  qosKey
	lastQoS  *model.QoS
	problems []*source.Error
	// speeds and pgRanges are read once per distinct text: a switch's
	// ports mostly share their speed, and their BUFFER_PG index ranges.
	speeds   map[string]string
	pgRanges map[string][]int
	// profiles are profileOf's, by BUFFER_PG profile name.
	profiles map[string]profileInfo
	notes    []*source.Error
	// ecnAlone: the ASIC marks ECN on a WRED profile's ecn alone
	// (model.MarksECNWithoutWREDEnable).
	ecnAlone bool
}

// Switch builds the model of SONiC switch name from cfg. ports are the
// inventory's port list (names, aliases or ranges such as
// Ethernet0-Ethernet60); empty means every port whose admin_status is up.
func Switch(name, role string, cfg *configdb.Config, ports []string) (*model.Switch, []*source.Error) {
	sw := &model.Switch{Name: name, Role: role, OS: inventory.OSSONiC,
		PortAR: map[string]model.Value[bool]{}, ECMP: map[string]model.Value[bool]{}}
	if cfg == nil {
		return sw, nil
	}
	b := &builder{cfg: cfg, file: cfg.File, shared: map[qosKey]*model.QoS{}}
	sw.ConfigFile = cfg.File
	b.index()
	// The per-port maps are made at the switch's size once: growing them
	// port by port copies them several times over.
	n := len(b.order)
	sw.PortQoS.Grow(n)
	sw.MTU.Grow(n)
	sw.Flow.Watchdog.Grow(n)
	b.unknownFields()
	b.platform(sw)
	b.ecnAlone = model.MarksECNWithoutWREDEnable(sw.Flow.ASIC)
	b.checkedPorts(sw, ports)
	sw.Bonds = map[string][]string{}
	// Adaptive routing is not a config_db setting: the switch routes by
	// ECMP alone, as far as this file says.
	sw.AR = model.Defaulted(false, "SONiC's config_db.json has no adaptive routing setting")
	sw.Global = b.portQoS("", b.globalNS())
	// A checked port given again (AddPort) gets the same values, and
	// its mtu's problem again.
	checked := make(map[string]*source.Error, len(sw.Ports))
	for _, p := range sw.Ports {
		checked[p] = b.addPort(sw, p).mtuProblem
	}
	b.ecmp(sw)
	sw.Buffers = b.buffers(sw)
	sw.SetConfigPorts(b.outside(checked))
	sw.Notes = append(sw.Notes, b.notes...)
	return sw, b.problems
}

// index finds the PORT rows and DEVICE_METADATA across the namespaces: on
// a multi-ASIC switch each asic<N> holds its own front-panel ports and
// "localhost" the device's metadata (sonic-net/sonic-utilities show/main.py,
// def all).
func (b *builder) index() {
	n := 0
	for _, ns := range b.cfg.Namespaces {
		n += ns.Table("PORT").Len()
	}
	b.ports = make(map[string]*portRows, n)
	b.order = make([]string, 0, n)
	// One block for every port's rows: a switch has tens to hundreds.
	rows := make([]portRows, n)
	for _, ns := range b.cfg.Namespaces {
		if r := ns.Table("DEVICE_METADATA").Row("localhost"); r != nil && (b.meta == nil || ns.Name == "localhost") {
			b.meta = r
		}
		t := ns.Table("PORT")
		if t == nil {
			continue
		}
		tables := tablesOf(ns)
		list := t.RowList()
		for i, k := range t.Keys {
			// A multi-ASIC switch's backplane ports (role Int, Inb, Rec)
			// join its ASICs and carry no host traffic
			// (src/sonic-yang-models/yang-models/sonic-port.yang, role).
			r := list[i]
			if f := r.Get("role"); f != nil && !strings.EqualFold(f.Value, "Ext") {
				continue
			}
			if _, dup := b.ports[k]; dup {
				continue
			}
			pr := &rows[len(b.order)]
			pr.ns, pr.row, pr.tables = ns, r, tables
			b.ports[k] = pr
			b.order = append(b.order, own(k))
		}
	}
	for _, ns := range b.cfg.Namespaces {
		b.indexRows(ns)
	}
	nvrange.SortNames(b.order)
}

// globalNS is the namespace whose PORT_QOS_MAP|global a port without its
// own row would read: the first one that has PORT_QOS_MAP.
func (b *builder) globalNS() *configdb.Namespace {
	for _, ns := range b.cfg.Namespaces {
		if ns.Table("PORT_QOS_MAP") != nil {
			return ns
		}
	}
	if len(b.cfg.Namespaces) > 0 {
		return b.cfg.Namespaces[0]
	}
	return &configdb.Namespace{}
}

// checkedPorts picks the ports the checks judge and their aliases.
func (b *builder) checkedPorts(sw *model.Switch, want []string) {
	// Made at the number of ports once: a port mostly has an alias, and
	// growing the map alias by alias rehashed it several times.
	alias := make(map[string]string, len(b.order))
	for _, p := range b.order {
		if a := b.ports[p].row.Get("alias"); a != nil && a.Value != "" {
			alias[own(a.Value)] = p
		}
	}
	if len(alias) > 0 {
		sw.PortAlias = alias
	}
	if len(want) > 0 {
		b.inventoryPorts(sw, want, alias)
		return
	}
	// The checked ports are counted first: the model keeps the list at
	// its length, rather than grown port by port.
	up := 0
	for _, p := range b.order {
		if b.adminUp(p) {
			up++
		}
	}
	if up > 0 {
		sw.Ports = make([]string, 0, up)
	}
	var down []string
	for _, p := range b.order {
		if b.adminUp(p) {
			sw.Ports = append(sw.Ports, p)
		} else {
			down = append(down, p)
		}
	}
	if len(down) > 0 {
		// admin_status defaults to down (sonic-port.yang; sonic-net/sonic-swss
		// cfgmgr/portmgr.h DEFAULT_ADMIN_STATUS_STR "down"): a port left
		// down carries nothing, and SONiC's templates leave a port without a
		// DEVICE_NEIGHBOR out of their QoS tables (files/build_templates/
		// qos_config.j2, PORT_ACTIVE).
		b.notes = append(b.notes, b.errAt(b.portPos(down[0]), "%d port(s) are not admin up and are not checked: %s", len(down), shorten(down)))
	}
}

func (b *builder) adminUp(port string) bool {
	f := b.ports[port].row.Get("admin_status")
	return f != nil && f.Value == "up"
}

func (b *builder) portPos(port string) source.Pos {
	if pr := b.ports[port]; pr != nil {
		return pr.row.Pos()
	}
	return source.Pos{File: b.file}
}

// inventoryPorts resolves the inventory's ports: a PORT key, an alias, or a
// range whose expansion is filtered to the ports that exist.
func (b *builder) inventoryPorts(sw *model.Switch, want []string, alias map[string]string) {
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			sw.Ports = append(sw.Ports, p)
		}
	}
	for _, w := range want {
		if _, ok := b.ports[w]; ok {
			add(w)
			continue
		}
		if p, ok := alias[w]; ok {
			add(p)
			continue
		}
		names, err := nvrange.ExpandNames(sonicRange(w))
		n := 0
		for _, name := range names {
			if _, ok := b.ports[name]; ok {
				add(name)
				n++
			}
		}
		if err != nil || n == 0 {
			b.notes = append(b.notes, b.errAt(source.Pos{File: b.file}, "the inventory's port %q names no port of the PORT table", w))
		}
	}
	nvrange.SortNames(sw.Ports)
}

// sonicRange turns "Ethernet0-Ethernet60" into the range syntax ExpandNames
// reads ("Ethernet0-60").
func sonicRange(s string) string {
	a, z, ok := strings.Cut(s, "-")
	if !ok {
		return s
	}
	prefix := strings.TrimRight(a, "0123456789")
	return a + "-" + strings.TrimPrefix(z, prefix)
}

func shorten(names []string) string {
	if len(names) > 8 {
		return strings.Join(names[:8], ", ") + fmt.Sprintf(" and %d more", len(names)-8)
	}
	return strings.Join(names, ", ")
}

func (b *builder) errAt(pos source.Pos, format string, a ...any) *source.Error {
	if pos.File == "" {
		pos.File = b.file
	}
	return &source.Error{Pos: pos, Msg: fmt.Sprintf(format, a...)}
}

// platformRe finds the switch model in DEVICE_METADATA's platform
// ("x86_64-nvidia_sn5600-r0", "x86_64-mlnx_msn2700-r0") or hwsku
// ("ACS-SN5600", "Mellanox-SN5600-O128"): the folder names of
// sonic-net/sonic-buildimage device/mellanox/.
var platformRe = regexp.MustCompile(`(?i)(?:^|[_-])(m?sn\d{4}[a-z]?)(?:$|[_-])`)

func (b *builder) platform(sw *model.Switch) {
	if f, name := platformOf(b.meta); f != nil {
		sw.Flow.Platform = name
		sw.Flow.ASIC = model.ASICOf(name)
		sw.Flow.PlatformFrom = f.Pos()
	}
}

// platformOf is the switch model DEVICE_METADATA|localhost names, and the
// field that names it; nil when none does.
func platformOf(meta *configdb.Row) (*configdb.Field, string) {
	for _, name := range []string{"platform", "hwsku"} {
		f := meta.Get(name)
		if f == nil {
			continue
		}
		if m := platformRe.FindStringSubmatch(f.Value); m != nil {
			return f, strings.ToUpper(m[1])
		}
	}
	return nil, ""
}

// ASIC is the ASIC cfg's DEVICE_METADATA names ("Spectrum-4"), "" when it
// names no switch model qoslint knows: what a fix renderer asks the
// model's semantics about (model.MarksECNWithoutWREDEnable).
func ASIC(cfg *configdb.Config) string {
	if cfg == nil {
		return ""
	}
	// The row the builder reads (index): localhost's namespace wins.
	var meta *configdb.Row
	for _, ns := range cfg.Namespaces {
		if r := ns.Table("DEVICE_METADATA").Row("localhost"); r != nil && (meta == nil || ns.Name == "localhost") {
			meta = r
		}
	}
	if _, name := platformOf(meta); name != "" {
		return model.ASICOf(name)
	}
	return ""
}

// addPort gives port its QoS, MTU, speed and PFC watchdog.
func (b *builder) addPort(sw *model.Switch, port string) portEntry {
	e := b.entry(port)
	if e.mtuProblem != nil {
		b.problems = append(b.problems, e.mtuProblem)
	}
	e.apply(sw, port, len(b.order))
	return e
}

// portEntry is what addPort gives a port: its QoS, its MTU, speed and PFC
// watchdog where its rows set them, and the problem its mtu raises.
type portEntry struct {
	qos                     *model.QoS
	mtu                     model.Value[int]
	speed                   model.Value[string]
	watchdog                model.Value[bool]
	hasMTU, hasSpeed, hasWD bool
	mtuProblem              *source.Error
}

// entry is port's portEntry; the problems of a QoS it builds are
// b.problems' (portQoS), before the mtu's.
func (b *builder) entry(port string) portEntry {
	pr := b.ports[port]
	row := pr.row
	e := portEntry{qos: b.qosOf(port, b.portMaps(port, pr))}
	if f := row.Get("mtu"); f != nil {
		if n, err := strconv.Atoi(f.Value); err == nil {
			e.mtu, e.hasMTU = model.Explicit(n, f.Pos()), true
		} else {
			e.mtuProblem = b.errAt(f.Pos(), "PORT|%s mtu %q is not a number", port, f.Value)
		}
	} else {
		// portmgrd sets 9100 on a port whose PORT row has no mtu
		// (sonic-net/sonic-swss cfgmgr/portmgr.h, DEFAULT_MTU_STR "9100").
		e.mtu, e.hasMTU = model.BoundAt(row.Pos(), 9100, "no mtu: portmgrd's default 9100"), true
	}
	if f := row.Get("speed"); f != nil {
		name, ok := b.speeds[f.Value]
		if !ok {
			if b.speeds == nil {
				b.speeds = map[string]string{}
			}
			name = speedName(f.Value)
			b.speeds[f.Value] = name
		}
		e.speed, e.hasSpeed = model.Explicit(name, f.Pos()), true
	}
	e.watchdog, e.hasWD = b.watchdog(port, pr)
	return e
}

// apply writes e into sw's maps for port; n is the number of the
// switch's ports, the size of a map made here.
func (e *portEntry) apply(sw *model.Switch, port string, n int) {
	sw.PortQoS.Set(port, e.qos)
	if e.hasMTU {
		sw.MTU.Set(port, e.mtu)
	}
	if e.hasSpeed {
		if sw.Flow.Speed == nil {
			sw.Flow.Speed = make(map[string]model.Value[string], n)
		}
		sw.Flow.Speed[port] = e.speed
	}
	if e.hasWD {
		sw.Flow.Watchdog.Set(port, e.watchdog)
	}
}

// speedName spells PORT.speed (Mb/s, "400000") as NVUE does ("400G").
func speedName(mbps string) string {
	n, err := strconv.Atoi(mbps)
	if err != nil || n%1000 != 0 {
		return mbps
	}
	return strconv.Itoa(n/1000) + "G"
}

// watchdog: `config pfcwd start` writes PFC_WD|<port> (action,
// detection_time, restoration_time) into CONFIG_DB, and orchagent arms it on
// the priorities PORT_QOS_MAP.pfcwd_sw_enable lists
// (src/sonic-yang-models/yang-models/sonic-pfcwd.yang; sonic-net/sonic-swss
// orchagent/qosorch.cpp, pfcwd_sw_enable). A port without a PFC_WD row has
// no watchdog.
func (b *builder) watchdog(port string, pr *portRows) (model.Value[bool], bool) {
	r := pr.tables.pfcWD.Row(port)
	if r == nil {
		return model.Value[bool]{}, false
	}
	on := true
	pos := r.Pos()
	if f := b.portMaps(port, pr).row.Get("pfcwd_sw_enable"); f != nil && strings.TrimSpace(f.Value) == "" {
		on, pos = false, f.Pos()
	}
	return model.Explicit(on, pos), true
}

// ecmp reads SWITCH_HASH|GLOBAL.ecmp_hash (src/sonic-yang-models/
// yang-models/sonic-hash.yang) in the model's field names. Without it the
// hash is the SAI's default, which SONiC does not document: nothing is
// said, and ecmp-hash does not judge the switch.
func (b *builder) ecmp(sw *model.Switch) {
	for _, ns := range b.cfg.Namespaces {
		f := ns.Table("SWITCH_HASH").Row("GLOBAL").Get("ecmp_hash")
		if f == nil {
			continue
		}
		list := f.List
		if list == nil {
			list = strings.Split(f.Value, ",")
		}
		on := map[string]bool{}
		for _, v := range list {
			if name, ok := model.SONiCHashFields[strings.TrimSpace(v)]; ok {
				on[name] = true
			}
		}
		for _, e := range model.ECMPFields {
			sw.ECMP[e.Name] = model.Explicit(on[e.Name], f.Pos())
		}
		return
	}
	b.notes = append(b.notes, b.errAt(source.Pos{File: b.file}, "SWITCH_HASH|GLOBAL has no ecmp_hash: the ECMP hash is the ASIC's default, which SONiC does not document; ecmp-hash is not judged"))
}

// outsidePorts is the switch's model.ConfigPorts: a RoCE NIC cabled into
// a port the inventory leaves out still has its link judged. It holds
// what AddPort gives each port, read with the switch, rather than the
// builder: the builder keeps the configuration's tables (its rows and
// fields, the larger part of a parse), which would then live until every
// device is read and the links are known (model.BuildOutsidePorts) rather
// than go with the switch's capture (collectors/fabric.Builder).
type outsidePorts struct {
	order []string
	// checked are the checked ports' mtu problems (nil for none): AddPort
	// writes a checked port's values again, the ones sw has.
	checked map[string]*source.Error
	// entries are the other ports'.
	entries map[string]*portEntry
	// pending are the problems of each QoS that only a port outside the
	// checked ones reads: the first AddPort that gives it reports them,
	// as the builder's portQoS would have when it built the QoS then.
	pending map[*model.QoS][]*source.Error
}

// outside reads every port's entry: the checked ports' as addPort gave
// them, the others' now, with the problems and notes that reading raises
// kept out of the switch's.
func (b *builder) outside(checked map[string]*source.Error) *outsidePorts {
	o := &outsidePorts{order: b.order, checked: checked}
	problems, notes := len(b.problems), len(b.notes)
	for _, p := range b.order {
		if _, ok := o.checked[p]; ok {
			continue
		}
		if o.entries == nil {
			o.entries = map[string]*portEntry{}
		}
		before := len(b.problems)
		e := b.entry(p)
		// The QoS's problems come first (entry); a QoS read before has
		// none.
		if n := len(b.problems) - before; n > 0 {
			if o.pending == nil {
				o.pending = map[*model.QoS][]*source.Error{}
			}
			o.pending[e.qos] = slices.Clone(b.problems[before:])
		}
		o.entries[p] = &e
	}
	// The builder's notes past the switch's were never the switch's: the
	// builder appended them after Switch returned.
	b.problems, b.notes = b.problems[:problems], b.notes[:notes]
	return o
}

func (o *outsidePorts) Interfaces() []string { return slices.Clone(o.order) }

func (o *outsidePorts) AddPort(sw *model.Switch, iface string) (string, []*source.Error) {
	port := iface
	if p, ok := sw.PortAlias[iface]; ok {
		port = p
	}
	if mp, ok := o.checked[port]; ok {
		if mp == nil {
			return port, nil
		}
		c := *mp
		return port, []*source.Error{&c}
	}
	e, ok := o.entries[port]
	if !ok {
		return "", nil
	}
	problems := o.pending[e.qos]
	delete(o.pending, e.qos)
	if e.mtuProblem != nil {
		// A problem of its own each time, as the builder's addPort made.
		mp := *e.mtuProblem
		problems = append(problems, &mp)
	}
	e.apply(sw, port, len(o.order))
	return port, problems
}
