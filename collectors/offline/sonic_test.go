package offline

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/inventory"
)

const sonicLeaf = "../../examples/sonic-pod/devices/leaf01/config_db.json"

// A switch is SONiC when the inventory says so, or when its folder holds
// config_db.json and no NVUE file; otherwise Cumulus.
func TestSwitchOSDetection(t *testing.T) {
	db, err := os.ReadFile(sonicLeaf)
	if err != nil {
		t.Fatal(err)
	}
	i, err := inventory.Parse("inventory.yaml", []byte(`fabric: t
switches:
  - {name: leaf01, role: leaf}
  - {name: leaf02, role: leaf}
  - {name: leaf03, role: leaf, os: sonic}
  - {name: leaf04, role: leaf, os: cumulus}
`))
	if err != nil {
		t.Fatal(err)
	}
	nv := []byte("nv set qos roce\n")
	c := CollectFS(fstest.MapFS{
		"devices/leaf01/config_db.json":         {Data: db},
		"devices/leaf02/config_db.json":         {Data: db},
		"devices/leaf02/nv-config-commands.txt": {Data: nv},
		"devices/leaf03/config_db.json":         {Data: db},
		"devices/leaf04/config_db.json":         {Data: db},
		"devices/leaf04/nv-config-commands.txt": {Data: nv},
	}, i)
	want := map[string]string{"leaf01": inventory.OSSONiC, "leaf02": inventory.OSCumulus, "leaf03": inventory.OSSONiC, "leaf04": inventory.OSCumulus}
	for _, sc := range c.Switches {
		if sc.OS != want[sc.Name] {
			t.Errorf("%s read as %q, want %q", sc.Name, sc.OS, want[sc.Name])
		}
		if (sc.OS == inventory.OSSONiC) != (sc.ConfigDB != nil) || (sc.OS == inventory.OSSONiC) == (sc.Config != nil) {
			t.Errorf("%s: config_db %v, NVUE config %v", sc.Name, sc.ConfigDB != nil, sc.Config != nil)
		}
	}
	if len(c.Switches) != 4 {
		t.Fatalf("%d switches", len(c.Switches))
	}
}

// A malformed config_db.json is an input error at its line and column;
// the other devices are still read, and a SONiC switch without one says
// what it needs.
func TestMalformedConfigDB(t *testing.T) {
	db, err := os.ReadFile(sonicLeaf)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(db), `"mtu": "9100",`, `"mtu": "9100"`, 1)
	i, err := inventory.Parse("inventory.yaml", []byte(`fabric: t
switches:
  - {name: leaf01, role: leaf, os: sonic}
  - {name: leaf02, role: leaf, os: sonic}
  - {name: leaf03, role: leaf, os: sonic}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := CollectFS(fstest.MapFS{
		"devices/leaf01/config_db.json": {Data: []byte(bad)},
		"devices/leaf02/config_db.json": {Data: db},
		"devices/leaf03/lldp.json":      {Data: []byte(`{"lldp": [{"interface": []}]}`)},
	}, i)
	var errs []string
	for _, e := range c.Errors {
		errs = append(errs, e.Error())
	}
	line := 1 + strings.Count(bad[:strings.Index(bad, `"mtu": "9100"`)], "\n")
	got := strings.Join(errs, "\n")
	if !strings.Contains(got, "leaf01: devices/leaf01/config_db.json:"+strconv.Itoa(line+1)+": column ") ||
		!strings.Contains(got, "leaf03: devices/leaf03: no SONiC configuration: the switch needs config_db.json") || len(errs) != 2 {
		t.Errorf("errors:\n%s\nwant leaf01's at line %d (the key after the missing comma) and leaf03's missing file", got, line+1)
	}
	for _, sc := range c.Switches {
		if (sc.ConfigDB != nil) != (sc.Name == "leaf02") {
			t.Errorf("%s: config_db read %v", sc.Name, sc.ConfigDB != nil)
		}
	}
}

// A config_db.json with a byte that is not UTF-8 is an input error at its
// line (JSON must be UTF-8), and noted at that line as any text output
// is; a file of UTF-8 has neither.
func TestConfigDBNotUTF8(t *testing.T) {
	db, err := os.ReadFile(sonicLeaf)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(db), `"mtu": "9100"`)
	line := 1 + strings.Count(string(db[:at]), "\n")
	col := at + 8 - strings.LastIndexByte(string(db[:at]), '\n')
	latin1 := append(append(append([]byte(nil), db[:at+8]...), 0xE9), db[at+8:]...)
	i, err := inventory.Parse("inventory.yaml", []byte(`fabric: t
switches:
  - {name: leaf01, role: leaf, os: sonic}
  - {name: leaf02, role: leaf, os: sonic}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := CollectFS(fstest.MapFS{
		"devices/leaf01/config_db.json": {Data: latin1},
		"devices/leaf02/config_db.json": {Data: db},
	}, i)
	var errs, notes []string
	for _, e := range c.Errors {
		errs = append(errs, e.Error())
	}
	for _, n := range c.Notes {
		if strings.Contains(n.Msg, "UTF-8") {
			notes = append(notes, n.Error())
		}
	}
	where := "leaf01: devices/leaf01/config_db.json:" + strconv.Itoa(line) + ": "
	if len(errs) != 1 || !strings.HasPrefix(errs[0], where+"column ") || !strings.Contains(errs[0], "byte 0xE9 is not UTF-8") {
		t.Errorf("errors %q, want one at %s", errs, where)
	}
	if len(notes) != 1 || notes[0] != where+"byte 0xE9 at column "+strconv.Itoa(col)+" is not UTF-8 (Latin-1?); read as it is" {
		t.Errorf("notes %q, want one at %s", notes, where)
	}
}
