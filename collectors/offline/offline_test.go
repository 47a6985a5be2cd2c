package offline

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

const mlnxQos = "DCBX mode: OS controlled\nPriority trust state: dscp\nCable len: 7\n"

func inv(t *testing.T) *inventory.Inventory {
	t.Helper()
	i, err := inventory.Parse("inventory.yaml", []byte(`fabric: t
switches:
  - {name: leaf01, role: leaf, address: 192.0.2.11}
  - {name: leaf02, role: leaf, address: 192.0.2.12}
  - {name: leaf03, role: leaf, address: 192.0.2.13}
hosts:
  - {name: gpu01, address: 198.51.100.1}
  - {name: gpu02, address: 198.51.100.2, nics: [ens1f0np0]}
`))
	if err != nil {
		t.Fatal(err)
	}
	return i
}

func TestCollect(t *testing.T) {
	fsys := fstest.MapFS{
		// leaf01: both forms, describing different configurations: an
		// error naming both, and the YAML is read.
		"devices/leaf01/nv-config.yaml":         {Data: []byte("- set:\n    qos:\n      roce:\n        mode: lossy\n")},
		"devices/leaf01/nv-config-commands.txt": {Data: []byte("nv set qos roce mode lossless\n")},
		"devices/leaf01/nv-show-qos-roce.txt":   {Data: []byte("garbage\n")},
		// leaf02: commands only, no show output.
		"devices/leaf02/nv-config-commands.txt": {Data: []byte("nv set qos roce mode lossless\n")},
		// leaf03: a folder without configuration.
		"devices/leaf03/notes.txt": {Data: []byte("x")},
		// gpu01: NICs discovered from the mlnx_qos files.
		"devices/gpu01/mlnx_qos-ens2f1np1.txt": {Data: []byte(mlnxQos)},
		"devices/gpu01/mlnx_qos-ens2f0np0.txt": {Data: []byte(mlnxQos)},
		// gpu02: NIC from the inventory, ibdev from ibdev2netdev.
		"devices/gpu02/ibdev2netdev.txt":                                 {Data: []byte("mlx5_0 port 1 ==> ens1f0np0 (Up)\nmlx5_1 port 1 ==> ens1f1np1 (Up)\n")},
		"devices/gpu02/mlnx_qos-ens1f0np0.txt":                           {Data: []byte(mlnxQos)},
		"devices/gpu02/sysfs/class/net/ens1f0np0/ecn/roce_np/enable/3":   {Data: []byte("1\n")},
		"devices/gpu02/sysfs/class/infiniband/mlx5_0/tc/1/traffic_class": {Data: []byte("Global tclass=106\n")},
		"devices/gpu02/sysfs/class/net/ens1f0np0/ecn/roce_np/cnp_dscp":   {Data: []byte("x\n")},
		"devices/stray/nv-config.yaml":                                   {Data: []byte("- set: {}\n")},
	}
	c := CollectFS(fsys, inv(t))
	var errs []string
	for _, e := range c.Errors {
		errs = append(errs, e.Error())
	}
	got := strings.Join(errs, "\n")
	for _, want := range []string{
		"leaf01: devices/leaf01/nv-show-qos-roce.txt:1:",
		"leaf03: devices/leaf03: no NVUE configuration",
		"gpu02: devices/gpu02/sysfs/class/net/ens1f0np0/ecn/roce_np/cnp_dscp:1:",
		"stray: devices/stray: device folder is not in the inventory (inventory.yaml)",
		"leaf01: devices/leaf01: nv-config.yaml and nv-config-commands.txt describe different configurations (only in nv-config.yaml: qos > roce > mode = lossy; only in nv-config-commands.txt: qos > roce > mode = lossless): keep only the one the switch runs",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q:\n%s", want, got)
		}
	}
	if len(c.Switches) != 3 || c.Switches[0].Config.Format != "yaml" || c.Switches[1].Config.Format != "commands" || c.Switches[2].Config != nil {
		t.Errorf("switch configs wrong")
	}
	if m := c.Switches[1].Missing; len(m) != 1 || m[0] != layout.RoceShowFile {
		t.Errorf("leaf02 missing = %v", m)
	}
	g1, g2 := c.Hosts[0], c.Hosts[1]
	if len(g1.NICs) != 2 || g1.NICs[0].Netdev != "ens2f0np0" || g1.NICs[0].Qos == nil {
		t.Errorf("gpu01 NICs = %+v", g1.NICs)
	}
	if strings.Join(g1.Missing, ",") != "ibdev2netdev.txt,nccl.conf,ip-link.json,sysfs" {
		t.Errorf("gpu01 missing = %v", g1.Missing)
	}
	n := g2.NICs[0]
	if len(g2.NICs) != 1 || n.IBDev != "mlx5_0" || n.Port != 1 || n.Sysfs == nil || n.Sysfs.TrafficClass.Global != 106 || n.Sysfs.ECNNP[3].Value != 1 || n.Sysfs.CNPDSCP != nil {
		t.Errorf("gpu02 NIC = %+v", n)
	}
}

func TestCollectMissingDevice(t *testing.T) {
	c := CollectFS(fstest.MapFS{"devices/leaf01/nv-config-commands.txt": {Data: []byte("nv set qos roce\n")}}, inv(t))
	if len(c.Switches) != 1 || len(c.Hosts) != 0 || len(c.Errors) != 4 {
		t.Fatalf("%d switches, %d hosts, errors %v", len(c.Switches), len(c.Hosts), c.Errors)
	}
	if !strings.Contains(c.Errors[0].Error(), "leaf02: devices/leaf02: device folder not found") {
		t.Errorf("first error %v", c.Errors[0])
	}
}

// A commands capture with a bad line: the error names that line, the
// lines that are not configuration are notes, and the switch's
// configuration is what the other lines say. The banner is in the shape
// NVUE prints one (collectors/nvue/shell.go cites the real output).
func TestCollectCommandsWithABadLine(t *testing.T) {
	capture := `# nv config show -o commands, saved 2026-01-15
cumulus@leaf02:mgmt:~$ nv config show -o commands
nv set qos roce enable on
nv set qos roce mode lossless
nv set system message pre-login '#######################
# Authorized use only.
# NVIDIA Cumulus'"'"' banner
#######################'
nv set interface swp1 description 'uplink
nv set interface swp1-32 link mtu 9216
nv config apply
`
	c := CollectFS(fstest.MapFS{"devices/leaf02/nv-config-commands.txt": {Data: []byte(capture)}}, inv(t))
	file := "devices/leaf02/nv-config-commands.txt"
	var errs, notes []string
	for _, e := range c.Errors {
		if e.Device == "leaf02" && e.File == file {
			errs = append(errs, e.Error())
		}
	}
	for _, n := range c.Notes {
		notes = append(notes, n.Error())
	}
	if want := []string{"leaf02: " + file + ":9: unterminated single quote"}; strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors = %q, want %q", errs, want)
	}
	if want := []string{
		"leaf02: " + file + `:2: a shell prompt line, not configuration; skipped: "cumulus@leaf02:mgmt:~$ nv config show -o commands"`,
		"leaf02: " + file + `:11: not configuration; skipped: "nv config apply"`,
		"leaf02: devices/leaf02: nv-show-qos-roce.txt not collected: the configuration is not compared with what the switch runs",
		"leaf02: devices/leaf02: roce-status not collected: no port's `nv show interface <port> qos roce status` is compared with its configuration",
	}; strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes = %q, want %q", notes, want)
	}
	if len(c.Switches) != 1 {
		t.Fatalf("%d switches, want leaf02 alone", len(c.Switches))
	}
	sc := c.Switches[0]
	if sc.Name != "leaf02" || sc.Config == nil {
		t.Fatalf("leaf02 = %+v: the readable lines must still give a configuration", sc)
	}
	for _, w := range []struct {
		path  []string
		value string
		line  int
	}{
		{[]string{"qos", "roce", "mode"}, "lossless", 4},
		{[]string{"system", "message", "pre-login"}, "#######################\n# Authorized use only.\n# NVIDIA Cumulus' banner\n#######################", 5},
		{[]string{"interface", "swp1-32", "link", "mtu"}, "9216", 10},
	} {
		n := sc.Config.Root.Get(w.path...)
		if n == nil || n.Value != w.value || n.Line != w.line {
			t.Errorf("%v = %+v, want %q at line %d", w.path, n, w.value, w.line)
		}
	}
	if sc.Config.Root.Get("interface", "swp1") != nil {
		t.Error("the unreadable line was applied")
	}
}

// TestReadListsWhatAReportNames: of each device folder, Read keeps the
// first file read and the configuration files at its top, in read order,
// and no other (a report picks a device's primary file from these).
func TestReadListsWhatAReportNames(t *testing.T) {
	fsys := fstest.MapFS{
		"devices/leaf01/lldp.json":                      {Data: []byte(`{"lldp": {}}`)},
		"devices/leaf01/nv-config.yaml":                 {Data: []byte("- set:\n    qos:\n      roce:\n        mode: lossless\n")},
		"devices/leaf01/nv-show-qos-roce.txt":           {Data: []byte("garbage\n")},
		"devices/leaf02/nv-config-commands.txt":         {Data: []byte("nv set qos roce mode lossless\n")},
		"devices/gpu01/mlnx_qos-ens2f0np0.txt":          {Data: []byte(mlnxQos)},
		"devices/gpu01/mlnx_qos-ens2f1np1.txt":          {Data: []byte(mlnxQos)},
		"devices/gpu02/ibdev2netdev.txt":                {Data: []byte("mlx5_0 port 1 ==> ens1f0np0 (Up)\n")},
		"devices/gpu02/mlnx_qos-ens1f0np0.txt":          {Data: []byte(mlnxQos)},
		"devices/gpu02/sysfs/class/net/ens1f0np0/mtu":   {Data: []byte("9000\n")},
		"devices/gpu02/sysfs/class/net/ens1f0np0/speed": {Data: []byte("400000\n")},
	}
	c := CollectFS(fsys, inv(t))
	by := map[string][]string{}
	for _, f := range c.Read {
		if rest, ok := strings.CutPrefix(f, layout.DevicesDir+"/"); ok {
			dev, _, _ := strings.Cut(rest, "/")
			by[dev] = append(by[dev], f)
		}
	}
	for dev, want := range map[string][]string{
		"leaf01": {"devices/leaf01/nv-config.yaml"},
		"leaf02": {"devices/leaf02/nv-config-commands.txt"},
		"gpu01":  {"devices/gpu01/mlnx_qos-ens2f0np0.txt"},
		"gpu02":  {"devices/gpu02/ibdev2netdev.txt"},
	} {
		if got := by[dev]; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: Read lists %q, want %q", dev, got, want)
		}
	}
}
