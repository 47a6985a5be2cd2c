package sim

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
)

// expect is one allowlisted command and what the device must answer.
type expect struct {
	cmd    string
	stdout string // exact exec stdout
	stderr string // substring of exec stderr ("" = none expected)
	code   int
	sysfs  []string // the paths of a sysfs read, for ParseSysfs
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sysfsPaths lists the /sys paths mirrored in a host's folder, sorted.
func sysfsPaths(t *testing.T, devDir string) []string {
	t.Helper()
	root := filepath.Join(devDir, "sysfs")
	var paths []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		paths = append(paths, "/sys/"+filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(paths)
	return paths
}

// expectations builds every allowlisted command for a clean-pod device, with
// the answer computed from the files independently of the simulator.
func expectations(t *testing.T, dir string, d Device) []expect {
	t.Helper()
	devDir := filepath.Join(dir, "devices", d.Name)
	has := func(name string) bool { _, err := os.Stat(filepath.Join(devDir, name)); return err == nil }
	if d.Kind == layout.KindSwitch {
		var out []expect
		if has("nv-config.yaml") {
			out = append(out, expect{cmd: devcmd.NVConfigYAML, stdout: readFile(t, filepath.Join(devDir, "nv-config.yaml"))})
		} else {
			out = append(out,
				expect{cmd: devcmd.NVConfigYAML, stderr: "Error: ", code: 1},
				expect{cmd: nvConfigCommands, stdout: readFile(t, filepath.Join(devDir, "nv-config-commands.txt"))})
		}
		out = append(out, expect{cmd: devcmd.NVShowQosRoce, stdout: readFile(t, filepath.Join(devDir, "nv-show-qos-roce.txt"))})
		status, _ := filepath.Glob(filepath.Join(devDir, "roce-status", "*.txt"))
		for _, f := range status {
			cmd, err := devcmd.NVShowRoceStatus(strings.TrimSuffix(filepath.Base(f), ".txt"))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, expect{cmd: cmd, stdout: readFile(t, f)})
		}
		// A port the folder lacks: NVUE's error.
		return append(out, expect{cmd: "nv show interface swp99 qos roce status", stderr: "Error: ", code: 1})
	}
	out := []expect{
		{cmd: devcmd.IBDev2Netdev, stdout: readFile(t, filepath.Join(devDir, "ibdev2netdev.txt"))},
		{cmd: devcmd.IPLink, stdout: readFile(t, filepath.Join(devDir, "ip-link.json"))},
		{cmd: devcmd.CatNCCLConf, stdout: readFile(t, filepath.Join(devDir, "nccl.conf"))},
		{cmd: devcmd.CatCPUInfo, stdout: readFile(t, filepath.Join(devDir, layout.CPUInfoFile))},
		{cmd: devcmd.Lspci, stdout: readFile(t, filepath.Join(devDir, layout.LspciFile))},
		{cmd: devcmd.SudoPrefix + devcmd.Lspci, stdout: readFile(t, filepath.Join(devDir, layout.LspciFile))},
	}
	fw, _ := filepath.Glob(filepath.Join(devDir, layout.MlxConfigFile("*")))
	if len(fw) == 0 {
		t.Fatalf("%s: no mlxconfig files", d.Name)
	}
	for _, f := range fw {
		ib := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "mlxconfig-"), ".txt")
		cmd, err := devcmd.MlxconfigQ(ib)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out,
			expect{cmd: cmd, stdout: readFile(t, f)},
			expect{cmd: devcmd.SudoPrefix + cmd, stdout: readFile(t, f)})
	}
	// An RDMA device the host lacks: mlxconfig cannot open it.
	out = append(out, expect{cmd: "mlxconfig -d mlx5_9 q", stderr: "-E- Failed to open device", code: 1})
	qos, _ := filepath.Glob(filepath.Join(devDir, "mlnx_qos-*.txt"))
	if len(qos) == 0 {
		t.Fatalf("%s: no mlnx_qos files", d.Name)
	}
	for _, q := range qos {
		nd := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(q), "mlnx_qos-"), ".txt")
		cmd, err := devcmd.MlnxQos(nd)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out,
			expect{cmd: cmd, stdout: readFile(t, q)},
			expect{cmd: devcmd.SudoPrefix + cmd, stdout: readFile(t, q)})
		// clean-pod has no ethtool files: the synthetic counters answer.
		eth, err := devcmd.EthtoolS(nd)
		if err != nil {
			t.Fatal(err)
		}
		stats := syntheticEthtool(d.Name, nd)
		out = append(out,
			expect{cmd: eth, stdout: stats},
			expect{cmd: devcmd.SudoPrefix + eth, stdout: stats})
	}
	paths := sysfsPaths(t, devDir)
	var want strings.Builder
	for _, p := range paths {
		body := readFile(t, filepath.Join(devDir, "sysfs", strings.TrimPrefix(p, "/sys/")))
		for l := range strings.Lines(body) {
			want.WriteString(p + ":" + strings.TrimSuffix(l, "\n") + "\n")
		}
	}
	cmd, err := devcmd.ReadSysfs(paths)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, expect{cmd: cmd, stdout: want.String(), sysfs: paths})
	// One missing file: grep reports it on stderr and exits 2.
	missing := "/sys/class/net/ens9f9/ecn/roce_np/cnp_dscp"
	cmd, err = devcmd.ReadSysfs([]string{paths[0], missing})
	if err != nil {
		t.Fatal(err)
	}
	first := want.String()[:strings.Index(want.String(), "\n")+1]
	if !strings.HasPrefix(first, paths[0]+":") {
		first = "" // paths[0] is an empty file
	}
	out = append(out, expect{cmd: cmd, stdout: first, stderr: "grep: " + missing + ": No such file or directory", code: 2})
	return out
}

// TestExecAllowlist runs every allowlisted command on every clean-pod
// device over exec and wants the files byte for byte, then checks what the
// server saw.
func TestExecAllowlist(t *testing.T) {
	f := startSim(t, cleanPod, Options{})
	for _, d := range f.Devices() {
		t.Run(d.Name, func(t *testing.T) {
			c := dial(t, f, d.Name)
			exps := expectations(t, cleanPod, d)
			var sent []string
			for _, e := range exps {
				r := run(t, c, e.cmd, testTimeout)
				sent = append(sent, e.cmd)
				if r.err != nil {
					t.Fatalf("%q: %v", e.cmd, r.err)
				}
				if r.stdout != e.stdout {
					t.Errorf("%q: stdout differs from the file:\n got %q\nwant %q", e.cmd, r.stdout, e.stdout)
				}
				if e.stderr == "" && r.stderr != "" || !strings.Contains(r.stderr, e.stderr) {
					t.Errorf("%q: stderr %q, want %q", e.cmd, r.stderr, e.stderr)
				}
				if r.code != e.code {
					t.Errorf("%q: exit status %d, want %d", e.cmd, r.code, e.code)
				}
			}
			seen := f.Seen(d.Name)
			if !slices.Equal(seen, sent) {
				t.Errorf("Seen = %q, want %q", seen, sent)
			}
			for _, s := range seen {
				if err := devcmd.Check(s); err != nil && s != nvConfigCommands {
					t.Errorf("sent a command off the allowlist: %v", err)
				}
			}
		})
	}
}

// TestSysfsRoundTrip reads every sysfs file of every clean-pod host through
// the simulator and parses the answer with devcmd.ParseSysfs, the
// collector's reader: each file must come back as it is on disk.
func TestSysfsRoundTrip(t *testing.T) {
	f := startSim(t, cleanPod, Options{})
	for _, d := range f.Devices() {
		if d.Kind != layout.KindHost {
			continue
		}
		c := dial(t, f, d.Name)
		devDir := filepath.Join(cleanPod, "devices", d.Name)
		paths := sysfsPaths(t, devDir)
		missing := "/sys/class/infiniband/mlx5_9/tc/1/traffic_class"
		ask := append(slices.Clone(paths), missing)
		cmd, err := devcmd.ReadSysfs(ask)
		if err != nil {
			t.Fatal(err)
		}
		r := run(t, c, cmd, testTimeout)
		if r.err != nil || r.code != 2 {
			t.Fatalf("%s: err %v status %d", d.Name, r.err, r.code)
		}
		// What a collector sees with CombinedOutput: stdout and stderr in one.
		present, gone, err := devcmd.ParseSysfs(ask, r.stdout+r.stderr)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if !slices.Equal(gone, []string{missing}) {
			t.Errorf("%s: missing = %q", d.Name, gone)
		}
		for _, p := range paths {
			want := readFile(t, filepath.Join(devDir, "sysfs", strings.TrimPrefix(p, "/sys/")))
			if want != "" && !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			if got, ok := present[p]; !ok || got != want {
				t.Errorf("%s: %s = %q (present %v), want %q", d.Name, p, got, ok, want)
			}
		}
	}
}
