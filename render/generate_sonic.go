package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// ConfigDB is a config_db.json fragment: table → key → field → value,
// every value a string (lists are comma strings) or, for a YANG
// leaf-list, a list of strings (sonic-net/sonic-buildimage
// src/sonic-yang-models/tests/files/sample_config_db.json).
type ConfigDB map[string]map[string]map[string]any

// SONiC names of the tables' entries the generated configuration adds.
const (
	sonicMap      = "ROCE"
	sonicWRED     = "ROCE_LOSSLESS"
	sonicRoCESch  = "qoslint.roce"
	sonicOtherSch = "qoslint.other"
	sonicCNPSch   = "qoslint.strict"
)

// SONiCTables is the RoCE QoS configuration of a new SONiC switch that
// follows the policy, on ports (PORT names: Ethernet0, Ethernet8): every
// table the checks read for a SONiC switch, written out rather than left to
// SONiC's AZURE defaults (files/build_templates/qos_config.j2), which send
// DSCP 26 to TC 1, schedule no queue strict and give the lossless queues
// DWRR 15 beside 14. A SONiC TC is the model's switch priority and its
// queue the traffic class; the other DSCPs go to TC 0.
func SONiCTables(p policy.Policy, ports []string) ConfigDB {
	db := ConfigDB{}
	row := func(table, key string) map[string]any {
		if db[table] == nil {
			db[table] = map[string]map[string]any{}
		}
		if db[table][key] == nil {
			db[table][key] = map[string]any{}
		}
		return db[table][key]
	}
	prio, tc := p.RoCE.Priority, p.RoCE.TrafficClass
	cnpTC := p.CNP.Priority
	if cnpTC == tc {
		cnpTC = 6
	}
	dscp := row("DSCP_TO_TC_MAP", sonicMap)
	for d := range 64 {
		dscp[strconv.Itoa(d)] = "0"
	}
	for _, d := range p.RoCE.DSCP {
		dscp[strconv.Itoa(d)] = strconv.Itoa(prio)
	}
	dscp[strconv.Itoa(p.CNP.DSCP)] = strconv.Itoa(p.CNP.Priority)
	// Switch priority → queue: the identity, but the RoCE and CNP
	// priorities into their own queues and nothing else in them.
	queue := row("TC_TO_QUEUE_MAP", sonicMap)
	for t := range 8 {
		q := t
		if q == tc || q == cnpTC {
			q = 0
		}
		queue[strconv.Itoa(t)] = strconv.Itoa(q)
	}
	queue[strconv.Itoa(prio)] = strconv.Itoa(tc)
	queue[strconv.Itoa(p.CNP.Priority)] = strconv.Itoa(cnpTC)
	// Priority groups: the lossless priority in its own PG, as the stock
	// TC_TO_PRIORITY_GROUP_MAP puts 3 and 4 in PGs 3 and 4.
	pg := row("TC_TO_PRIORITY_GROUP_MAP", sonicMap)
	pfcQueue := row("MAP_PFC_PRIORITY_TO_QUEUE", sonicMap)
	for t := range 8 {
		pg[strconv.Itoa(t)] = "0"
		pfcQueue[strconv.Itoa(t)] = strconv.Itoa(t)
	}
	pg[strconv.Itoa(prio)] = strconv.Itoa(prio)
	pfcQueue[strconv.Itoa(prio)] = strconv.Itoa(tc)
	row("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", sonicMap)[strconv.Itoa(prio)] = strconv.Itoa(prio)
	row("PORT_QOS_MAP", "global")["dscp_to_tc_map"] = sonicMap
	// DWRR weights are shares of the port's DWRR queues (1..100,
	// sonic-scheduler.yang): the RoCE queue's weight gives it at least the
	// policy's share beside the other DWRR queues' weight 10 each.
	others := 0
	for q := range 8 {
		if q != tc && q != cnpTC {
			others++
		}
	}
	weight, other := sonicWeights(max(p.RoCE.MinBandwidth, 1), others)
	row("SCHEDULER", sonicRoCESch)["type"], row("SCHEDULER", sonicRoCESch)["weight"] = "DWRR", strconv.Itoa(weight)
	row("SCHEDULER", sonicOtherSch)["type"], row("SCHEDULER", sonicOtherSch)["weight"] = "DWRR", strconv.Itoa(other)
	row("SCHEDULER", sonicCNPSch)["type"] = "STRICT"
	// ECN marks green packets only where wred_green_enable is true beside
	// ecn (sonic-net/sonic-buildimage#4545); the thresholds are the
	// Cumulus defaults the policy judges elsewhere.
	w := row("WRED_PROFILE", sonicWRED)
	for k, v := range SONiCWRED() {
		w[k] = v
	}
	lossless := p.RoCE.Lossless()
	mtu := strconv.Itoa(judge.MinSwitchMTU(p, layout.OSSONiC))
	for _, port := range ports {
		m := row("PORT_QOS_MAP", port)
		m["dscp_to_tc_map"], m["tc_to_queue_map"], m["tc_to_pg_map"] = sonicMap, sonicMap, sonicMap
		m["pfc_to_queue_map"], m["pfc_to_pg_map"] = sonicMap, sonicMap
		if lossless {
			m["pfc_enable"], m["pfcwd_sw_enable"] = strconv.Itoa(prio), strconv.Itoa(prio)
			// The dynamic buffer model computes the lossless headroom of a
			// PG whose profile is "NULL" (sonic-net/SONiC
			// doc/qos/dynamically-headroom-calculation.md).
			row("BUFFER_PG", port+"|"+strconv.Itoa(prio))["profile"] = "NULL"
			row("CABLE_LENGTH", "AZURE")[port] = strconv.Itoa(p.PFC.CableLength) + "m"
			// pfcwd start_default's settings (sonic-net/sonic-utilities
			// pfcwd/main.py: drop, 200 ms).
			wd := row("PFC_WD", port)
			wd["action"], wd["detection_time"], wd["restoration_time"] = "drop", "200", "200"
		}
		for q := range 8 {
			qr := row("QUEUE", port+"|"+strconv.Itoa(q))
			switch q {
			case tc:
				qr["scheduler"], qr["wred_profile"] = sonicRoCESch, sonicWRED
			case cnpTC:
				qr["scheduler"] = sonicCNPSch
			default:
				qr["scheduler"] = sonicOtherSch
			}
		}
		row("PORT", port)["mtu"] = mtu
	}
	var hash []string
	for name, field := range model.SONiCHashFields {
		if slices.Contains(judge.ECMPHashFields(p), field) {
			hash = append(hash, name)
		}
	}
	sort.Strings(hash)
	g := row("SWITCH_HASH", "GLOBAL")
	g["ecmp_hash"] = hash
	return db
}

// SONiCMapName, SONiCWREDName, SONiCStrictName and SONiCWRED are the map,
// WRED profile and strict scheduler qoslint adds to a SONiC switch that has
// none; a fix adds them under the same names as a new switch's tables.
const (
	SONiCMapName    = sonicMap
	SONiCWREDName   = sonicWRED
	SONiCStrictName = sonicCNPSch
)

// SONiCWRED is the WRED profile of the RoCE queue: ECN on green, yellow and
// red with the Cumulus default thresholds (150,000 to 1,500,000 bytes,
// CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
// Quality-of-Service/_index.md, ECN), which the policy judges elsewhere.
func SONiCWRED() map[string]string {
	return map[string]string{"ecn": "ecn_all", "wred_green_enable": "true", "wred_yellow_enable": "true", "wred_red_enable": "true",
		"green_min_threshold": "150000", "green_max_threshold": "1500000", "yellow_min_threshold": "150000", "yellow_max_threshold": "1500000",
		"red_min_threshold": "150000", "red_max_threshold": "1500000", "green_drop_probability": "5", "yellow_drop_probability": "5", "red_drop_probability": "5"}
}

// sonicWeights are the RoCE queue's DWRR weight and the other queues' so
// that the RoCE queue's share, w/(w+others×o), is at least min percent,
// within SCHEDULER's 1..100 (sonic-scheduler.yang): the others weigh 10,
// or 1 where 10 would need a RoCE weight above 100; a share no weight
// reaches gets the largest.
func sonicWeights(min, others int) (roce, other int) {
	if min >= 100 || others == 0 {
		return 100, 1
	}
	for _, o := range []int{10, 1} {
		w := (min*others*o + (100 - min) - 1) / (100 - min)
		if w <= 100 {
			return max(w, 1), o
		}
	}
	return 100, 1
}

// SONiCNotes are what the generated tables assume of the switch.
var SONiCNotes = []string{
	"the BUFFER_PG profiles NULL need DEVICE_METADATA|localhost buffer_model dynamic, NVIDIA's images' default (platform/mellanox/rules.mk)",
	"the patch adds rows to the QoS tables SONiC's qos_config.j2 renders on every switch; take a checkpoint first (sudo config checkpoint NAME) and try it with --dry-run",
}

// JSON prints the fragment as sonic-cfggen prints a configuration: keys
// sorted, four-space indents.
func (db ConfigDB) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "    ")
	enc.SetEscapeHTML(false)
	err := enc.Encode(map[string]map[string]map[string]any(db))
	return b.Bytes(), err
}

// Patch is the fragment as a JSON Patch (RFC 6902) for `sudo config
// apply-patch` (sonic-net/sonic-utilities config/main.py; Generic Config
// Updater): one "add" per row, which creates the row or replaces it, and
// per field of the rows other settings share (PORT, CABLE_LENGTH's
// per-port lengths), which it must not replace. A table the switch lacks
// must be added whole first: SWITCH_HASH is, so is every table a stock
// SONiC does not render (PFC_WD, PFC_PRIORITY_TO_PRIORITY_GROUP_MAP).
func (db ConfigDB) Patch() ([]byte, error) {
	type op struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	whole := map[string]bool{"SWITCH_HASH": true, "PFC_WD": true, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": true}
	var ops []op
	tables := make([]string, 0, len(db))
	for t := range db {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	for _, t := range tables {
		if whole[t] {
			ops = append(ops, op{"add", "/" + pointer(t), db[t]})
			continue
		}
		keys := make([]string, 0, len(db[t]))
		for k := range db[t] {
			keys = append(keys, k)
		}
		model.SortNames(keys)
		for _, k := range keys {
			if t == "PORT" || t == "CABLE_LENGTH" {
				fields := make([]string, 0, len(db[t][k]))
				for f := range db[t][k] {
					fields = append(fields, f)
				}
				model.SortNames(fields)
				for _, f := range fields {
					ops = append(ops, op{"add", "/" + pointer(t) + "/" + pointer(k) + "/" + pointer(f), db[t][k][f]})
				}
				continue
			}
			ops = append(ops, op{"add", "/" + pointer(t) + "/" + pointer(k), db[t][k]})
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "    ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ops); err != nil {
		return nil, fmt.Errorf("patch: %w", err)
	}
	return b.Bytes(), nil
}

// pointer escapes a JSON Pointer token (RFC 6901): "~" as "~0", "/" as "~1".
func pointer(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }

// JSONPointer is the JSON Pointer (RFC 6901) of the tokens.
func JSONPointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString("/" + pointer(t))
	}
	return b.String()
}
