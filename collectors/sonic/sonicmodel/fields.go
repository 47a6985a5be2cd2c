package sonicmodel

import (
	"slices"

	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/internal/intern"
)

// knownFields are the fields of the QoS tables the builder reads, from
// their YANG models (sonic-net/sonic-buildimage src/sonic-yang-models/
// yang-models/sonic-port-qos-map.yang, sonic-queue.yang,
// sonic-scheduler.yang, sonic-wred-profile.yang, sonic-buffer-pg.yang,
// sonic-buffer-profile.yang, sonic-buffer-pool.yang, sonic-hash.yang). A
// field outside them is a note: the configuration says something the model
// does not read. Other tables are not the builder's, and are ignored.
var knownFields = map[string][]string{
	"PORT_QOS_MAP": {"dot1p_to_tc_map", "dscp_to_tc_map", "pfc_enable", "pfc_to_pg_map", "pfc_to_queue_map",
		"pfcwd_sw_enable", "scheduler", "tc_to_dscp_map", "tc_to_pg_map", "tc_to_queue_map"},
	"QUEUE":     {"scheduler", "wred_profile"},
	"SCHEDULER": {"cbs", "cir", "meter_type", "pbs", "pir", "priority", "type", "weight"},
	"WRED_PROFILE": {"ecn", "green_drop_probability", "green_max_threshold", "green_min_threshold",
		"red_drop_probability", "red_max_threshold", "red_min_threshold", "wred_green_enable",
		"wred_red_enable", "wred_yellow_enable", "yellow_drop_probability", "yellow_max_threshold",
		"yellow_min_threshold"},
	"BUFFER_PG":      {"profile"},
	"BUFFER_PROFILE": {"dynamic_th", "headroom_type", "packet_discard_action", "pool", "size", "static_th", "xoff", "xon", "xon_offset"},
	"BUFFER_POOL":    {"mode", "percentage", "size", "type", "xoff"},
	"SWITCH_HASH":    {"ecmp_hash", "ecmp_hash_algorithm", "lag_hash", "lag_hash_algorithm"},
}

// unknownFields notes each field the builder's tables do not define, once
// per table and field.
func (b *builder) unknownFields() {
	type tf struct{ table, field string }
	seen := map[tf]bool{}
	for _, ns := range b.cfg.Namespaces {
		for _, tname := range ns.Order {
			known, ok := knownFields[tname]
			if !ok {
				continue
			}
			t := ns.Table(tname)
			// A table's rows mostly have the same fields in the same
			// order: a name the row before had in its place was judged
			// there, known or noted.
			var before []configdb.Field
			for i, r := range t.RowList() {
				k := t.Keys[i]
				for i := range r.Fields {
					f := &r.Fields[i]
					if i < len(before) && before[i].Name == f.Name {
						continue
					}
					if slices.Contains(known, f.Name) || seen[tf{tname, f.Name}] {
						continue
					}
					seen[tf{tname, f.Name}] = true
					b.notes = append(b.notes, b.errAt(f.Pos(), "%s|%s: unknown field %q, not read", tname, k, f.Name))
				}
				before = r.Fields
			}
		}
	}
}

// own is s as the model keeps it: configdb.ParseOwned cuts its strings
// from the file's own buffer, so a port or profile name kept as it is
// would keep the whole config_db.json alive with the model (at 32 ports,
// 67 kB of a switch's 118 kB; TestModelKeepsNoTextOfTheFile). The copy is
// shared with every switch that names the same port or profile.
func own(s string) string { return intern.String(s) }
