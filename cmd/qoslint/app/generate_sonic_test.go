package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sonicPorts are the PORT rows and metadata a rendered fragment is laid
// over: two SN5600 ports, as sonic-pod's leaves have them.
func sonicBase(t *testing.T) map[string]map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile("../../../examples/sonic-pod/devices/leaf01/config_db.json")
	if err != nil {
		t.Fatal(err)
	}
	var pod map[string]map[string]map[string]any
	if err := json.Unmarshal(data, &pod); err != nil {
		t.Fatal(err)
	}
	return map[string]map[string]map[string]any{
		"DEVICE_METADATA": pod["DEVICE_METADATA"],
		"PORT":            {"Ethernet0": pod["PORT"]["Ethernet0"], "Ethernet4": pod["PORT"]["Ethernet4"]},
	}
}

// lintOne lints one SONiC leaf with the sonic-pod's policy and returns the
// findings at warning or above.
func lintOne(t *testing.T, db any) []string {
	t.Helper()
	dir := t.TempDir()
	data, err := json.MarshalIndent(db, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "devices", "leaf01"), 0o755); err != nil {
		t.Fatal(err)
	}
	inv, err := os.ReadFile("../../../examples/sonic-pod/inventory.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The policy without its rails, which name the pod's other switches.
	head := string(inv[:strings.Index(string(inv), "  rails:")])
	for name, content := range map[string][]byte{
		"inventory.yaml":                []byte(head + "switches:\n  - {name: leaf01, role: leaf, os: sonic}\n"),
		"devices/leaf01/config_db.json": data,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return serious(t, dir)
}

// The rendered tables of a new SONiC leaf, laid over its PORT rows, lint
// clean: render follows the policy the checks judge.
func TestRenderSONiCLintsClean(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Generate(&out, &errOut, GenerateOptions{Policy: "../../../examples/sonic-pod/inventory.yaml", Role: "leaf", OS: "sonic", Ports: "Ethernet0,Ethernet4"})
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var frag map[string]map[string]map[string]any
	if err := json.Unmarshal(out.Bytes(), &frag); err != nil {
		t.Fatal(err)
	}
	db := sonicBase(t)
	for table, rows := range frag {
		if db[table] == nil {
			db[table] = rows
			continue
		}
		for k, row := range rows {
			for f, v := range row {
				if db[table][k] == nil {
					db[table][k] = map[string]any{}
				}
				db[table][k][f] = v
			}
		}
	}
	if got := lintOne(t, db); len(got) > 0 {
		t.Errorf("the rendered switch has findings:\n%s", strings.Join(got, "\n"))
	}
	if !strings.Contains(errOut.String(), "buffer_model dynamic") {
		t.Errorf("notes %q", errOut.String())
	}
}

// The rendered patch, applied to SONiC's stock QoS rendering for a
// Mellanox SKU (sonic-buildimage's qos and dynamic-buffers samples, with
// the PORT rows), converges: the result lints clean, where the stock
// tables break DSCP 26, the CNP queue and ECN's thresholds.
func TestRenderSONiCPatchConverges(t *testing.T) {
	stock := sonicBase(t)
	for _, f := range []string{"qos-mellanox4600c-c64-remap-disabled.json", "buffers-mellanox4600c-t1-dynamic.json"} {
		data, err := os.ReadFile(filepath.Join("../../../collectors/sonic/configdb/testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		var part map[string]map[string]map[string]any
		if err := json.Unmarshal(data, &part); err != nil {
			t.Fatal(err)
		}
		for table, rows := range part {
			stock[table] = rows
		}
	}
	before := lintOne(t, stock)
	if len(before) == 0 {
		t.Fatal("the stock tables lint clean; the test proves nothing")
	}
	var out, errOut bytes.Buffer
	if code := Generate(&out, &errOut, GenerateOptions{Policy: "../../../examples/sonic-pod/inventory.yaml", Role: "leaf", OS: "sonic", Ports: "Ethernet0,Ethernet4", Format: "patch"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var ops []struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	if err := json.Unmarshal(out.Bytes(), &ops); err != nil {
		t.Fatal(err)
	}
	var doc any = map[string]any{}
	raw, _ := json.Marshal(stock)
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, o := range ops {
		if o.Op != "add" {
			t.Fatalf("op %q: render writes add only", o.Op)
		}
		applyAdd(t, doc.(map[string]any), o.Path, o.Value)
	}
	if got := lintOne(t, doc); len(got) > 0 {
		t.Errorf("stock + patch has findings (before: %d):\n%s", len(before), strings.Join(got, "\n"))
	}
}

// applyAdd is RFC 6902's add on a JSON object: the parent must exist; the
// member is created or replaced.
func applyAdd(t *testing.T, doc map[string]any, path string, v any) {
	t.Helper()
	toks := strings.Split(strings.TrimPrefix(path, "/"), "/")
	cur := doc
	for i, tok := range toks {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if i == len(toks)-1 {
			cur[tok] = v
			return
		}
		next, ok := cur[tok].(map[string]any)
		if !ok {
			t.Fatalf("%s: no parent %q (RFC 6902 add needs it)", path, tok)
		}
		cur = next
	}
}

// The rendered SONiC forms, as golden files.
func TestRenderSONiCGolden(t *testing.T) {
	for _, format := range SONiCRenderFormats {
		var out, errOut bytes.Buffer
		if code := Generate(&out, &errOut, GenerateOptions{Policy: "../../../examples/sonic-pod/inventory.yaml", Role: "leaf", OS: "sonic", Ports: "Ethernet0,Ethernet4", Format: format}); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", format, code, errOut.String())
		}
		golden(t, "render-sonic-leaf."+format+".golden", out.Bytes())
	}
	var out, errOut bytes.Buffer
	if code := Generate(&out, &errOut, GenerateOptions{Policy: "../../../examples/sonic-pod/inventory.yaml", Role: "leaf", OS: "sonic", Ports: "swp1-32"}); code != ExitInput || !strings.Contains(errOut.String(), "a SONiC switch's ports are PORT names") {
		t.Errorf("swp ports: exit %d, %q", code, errOut.String())
	}
}
