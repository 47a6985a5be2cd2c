package preview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/render"
)

// applyGCU applies a SONiC plan's patch to the switch's config_db.json as
// Generic Config Updater would to CONFIG_DB, with an RFC 6902
// implementation of its own (evanphx/json-patch; GCU uses python's
// jsonpatch). A capture in the flat redis-dump shape is written nested
// first: the patch's paths are CONFIG_DB's tables. buffermgrd's answer to
// a new pfc_enable is applied too (buffermgrd below): it is part of what
// the patch does on the switch.
func applyGCU(dir string, p render.Plan) error {
	if len(p.Patch) == 0 {
		return nil
	}
	file := filepath.Join(dir, layout.ConfigDBFile)
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if data, err = nested(data); err != nil {
		return fmt.Errorf("%s: %v", layout.ConfigDBFile, err)
	}
	patch, err := jsonpatch.DecodePatch(p.Patch)
	if err != nil {
		return fmt.Errorf("the patch: %v", err)
	}
	before := data
	if data, err = patch.ApplyIndent(data, "    "); err != nil {
		return fmt.Errorf("%s: the patch does not apply: %v", layout.ConfigDBFile, err)
	}
	if data, err = buffermgrd(before, data); err != nil {
		return fmt.Errorf("%s: %v", layout.ConfigDBFile, err)
	}
	return os.WriteFile(file, data, 0o644)
}

// nested rewrites a flat {"TABLE|key": {...}} dump as {"TABLE": {"key":
// {...}}}; a nested file is returned as it is.
func nested(data []byte) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, err
	}
	flat := false
	for k := range top {
		if strings.Contains(k, "|") {
			flat = true
			break
		}
	}
	if !flat {
		return data, nil
	}
	out := map[string]map[string]json.RawMessage{}
	for k, v := range top {
		t, key, ok := strings.Cut(k, "|")
		if !ok {
			continue
		}
		if out[t] == nil {
			out[t] = map[string]json.RawMessage{}
		}
		out[t][key] = v
	}
	return json.MarshalIndent(out, "", "    ")
}

// buffermgrd is what SONiC's traditional buffer manager writes when a
// port's pfc_enable changes: for a port with a cable length other than 0m,
// the lossless priority groups of pfc_enable (consecutive ones as a range,
// "3-4", orchagent/orch.cpp generateIdListFromMap) in BUFFER_PG with
// pg_lossless_<speed>_<cable>_profile (sonic-net/sonic-swss
// cfgmgr/buffermgr.cpp, doPortQosTableTask → doSpeedUpdateTask). It reuses the profile when BUFFER_PROFILE has it;
// otherwise it writes one from the SKU's pg_profile_lookup.ini, which a
// capture does not hold, so the preview writes the PG only where the
// profile exists, and lint of the preview says what is missing. The
// dynamic model's buffermgrd does not read pfc_enable (cfgmgr/
// buffermgrdyn.cpp): the patch itself adds its PGs.
func buffermgrd(before, after []byte) ([]byte, error) {
	old, err := tables(before)
	if err != nil {
		return nil, err
	}
	cfg, err := tables(after)
	if err != nil {
		return nil, err
	}
	str := func(db map[string]map[string]map[string]any, t, k, f string) string {
		s, _ := db[t][k][f].(string)
		return s
	}
	if str(cfg, "DEVICE_METADATA", "localhost", "buffer_model") == "dynamic" {
		return after, nil
	}
	changed := false
	for port := range cfg["PORT_QOS_MAP"] {
		pfc := str(cfg, "PORT_QOS_MAP", port, "pfc_enable")
		if pfc == str(old, "PORT_QOS_MAP", port, "pfc_enable") {
			continue
		}
		cable := ""
		for _, row := range cfg["CABLE_LENGTH"] {
			if c, ok := row[port].(string); ok {
				cable = c
			}
		}
		speed := str(cfg, "PORT", port, "speed")
		profile := "pg_lossless_" + speed + "_" + cable + "_profile"
		if cable == "" || cable == "0m" || speed == "" || cfg["BUFFER_PROFILE"][profile] == nil {
			continue
		}
		for _, pgs := range pgRanges(pfc) {
			if cfg["BUFFER_PG"] == nil {
				cfg["BUFFER_PG"] = map[string]map[string]any{}
			}
			cfg["BUFFER_PG"][port+"|"+pgs] = map[string]any{"profile": profile}
			changed = true
		}
	}
	if !changed {
		return after, nil
	}
	// Only BUFFER_PG changed: every other key (bgpraw's text too) is
	// written back as it was.
	var top map[string]json.RawMessage
	if err := json.Unmarshal(after, &top); err != nil {
		return nil, err
	}
	if top["BUFFER_PG"], err = json.Marshal(cfg["BUFFER_PG"]); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "    ")
	enc.SetEscapeHTML(false)
	err = enc.Encode(top)
	return b.Bytes(), err
}

// bufferTables are the tables buffermgrd reads and writes.
var bufferTables = []string{"DEVICE_METADATA", "PORT_QOS_MAP", "CABLE_LENGTH", "PORT", "BUFFER_PROFILE", "BUFFER_PG"}

// tables decodes a nested config_db.json's buffer tables; the file's other
// keys, which need not be tables (show runningconfiguration all's bgpraw
// is a string), are left alone.
func tables(data []byte) (map[string]map[string]map[string]any, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, err
	}
	out := map[string]map[string]map[string]any{}
	for _, name := range bufferTables {
		raw, ok := top[name]
		if !ok {
			continue
		}
		var t map[string]map[string]any
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		out[name] = t
	}
	return out, nil
}

// pgRanges is a pfc_enable list as buffermgrd keys its PGs: runs of
// consecutive priorities as "lo-hi", others alone (generateIdListFromMap).
func pgRanges(pfc string) []string {
	var ns []int
	for _, s := range strings.Split(pfc, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n >= 0 && n < 32 && !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	var out []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if i == j {
			out = append(out, strconv.Itoa(ns[i]))
		} else {
			out = append(out, strconv.Itoa(ns[i])+"-"+strconv.Itoa(ns[j]))
		}
		i = j + 1
	}
	return out
}
