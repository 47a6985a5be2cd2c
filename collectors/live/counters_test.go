package live

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/qoslint/qoslint/collectors/gnmi"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// counterFiles are the ethtool and gNMI files a counters collection must
// bring back: one ethtool file per host NIC (the NICs with an mlnx_qos
// file) and one gNMI file per switch.
func counterFiles(t *testing.T, p *pod) []string {
	t.Helper()
	var want []string
	for _, h := range p.inv.Hosts {
		qos, _ := filepath.Glob(filepath.Join(p.src, layout.DevicesDir, h.Name, "mlnx_qos-*.txt"))
		if len(qos) == 0 {
			t.Fatalf("%s: no NIC", h.Name)
		}
		for _, q := range qos {
			nd := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(q), "mlnx_qos-"), ".txt")
			want = append(want, path.Join(layout.DevicesDir, h.Name, layout.EthtoolFile(nd)))
		}
	}
	for _, s := range p.inv.Switches {
		want = append(want, path.Join(layout.DevicesDir, s.Name, layout.GNMIFile))
	}
	return want
}

// TestCollectCounters collects a clean pod with --counters over SSH and
// gNMI with TLS, the CA named by the inventory the simulator wrote: every
// NIC's ethtool -S (one served from a file, byte for byte; the others
// synthetic) and every switch's gnmi-counters.json.
func TestCollectCounters(t *testing.T) {
	src := t.TempDir()
	if err := os.CopyFS(src, os.DirFS(cleanPod)); err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile("../hostfiles/testdata/ethtool/constructed_cx6_prio3.txt")
	if err != nil {
		t.Fatal(err)
	}
	served := filepath.Join(src, layout.DevicesDir, "gpu01", layout.EthtoolFile("ens1f0np0"))
	writeFile(t, served, onDisk)
	// gpu02's first RDMA port has captured hw_counters (one "%llu\n" per
	// file, hostfiles/testdata/sysfs_hw_counters); the other ports get the
	// simulator's synthetic ones.
	hwRel := "sysfs/class/infiniband/mlx5_0/ports/1/hw_counters"
	if err := os.CopyFS(filepath.Join(src, layout.DevicesDir, "gpu02", hwRel),
		os.DirFS("../hostfiles/testdata/sysfs_hw_counters/class/infiniband/mlx5_0/ports/1/hw_counters")); err != nil {
		t.Fatal(err)
	}

	p := startPod(t, src, sim.Options{GNMI: true, GNMITLS: true})
	if !p.inv.GNMI.TLS || p.inv.GNMI.CAFile != sim.GNMICAFile {
		t.Fatalf("the simulator's inventory has gnmi %+v", p.inv.GNMI)
	}
	writeFile(t, filepath.Join(p.invDir, sim.GNMICAFile), p.fab.GNMICAPEM())
	opt := p.options()
	opt.Counters = true
	r := Collect(context.Background(), p.inv, opt)
	for _, s := range r.Status {
		if s.Err != "" || len(withoutStatusNote(s.Notes)) != 0 {
			t.Errorf("%s: %q %q", s.Name, s.Err, s.Notes)
		}
	}
	for _, name := range counterFiles(t, p) {
		data, ok := r.Files[name]
		if !ok {
			t.Errorf("%s not collected", name)
			continue
		}
		if strings.HasSuffix(name, layout.GNMIFile) {
			if _, _, err := gnmi.ReadFile(name, data); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		st, err := hostfiles.ParseEthtool(name, data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if p3 := st.Prio(3); p3.RxBytes.Value == 0 || !p3.RxPause.Present() {
			t.Errorf("%s: no RoCE traffic or pause on priority 3: %+v", name, p3)
		}
	}
	if got := r.Files["devices/gpu01/"+layout.EthtoolFile("ens1f0np0")]; !bytes.Equal(got, onDisk) {
		t.Errorf("the served ethtool file differs:\n got %q\nwant %q", got, onDisk)
	}
	for _, h := range p.inv.Hosts {
		for _, ib := range []string{"mlx5_0", "mlx5_1"} {
			for _, name := range hostfiles.HWCounterNames {
				file := path.Join(layout.DevicesDir, h.Name, layout.SysfsDir, "class/infiniband", ib, "ports/1/hw_counters", name)
				got, ok := r.Files[file]
				if _, err := hostfiles.ParseHWCounter(file, got); !ok || err != nil {
					t.Errorf("%s: collected %t: %v", file, ok, err)
				}
				if h.Name == "gpu02" && ib == "mlx5_0" {
					if want, _ := os.ReadFile(filepath.Join(src, layout.DevicesDir, "gpu02", hwRel, name)); !bytes.Equal(got, want) {
						t.Errorf("%s: served %q, captured %q", file, got, want)
					}
				}
			}
		}
	}
	assertNoSecret(t, r, nil)

	// Without Counters nothing of the sort is asked.
	r = Collect(context.Background(), p.inv, p.options())
	for name := range r.Files {
		if strings.Contains(name, "ethtool-S-") || strings.HasSuffix(name, layout.GNMIFile) || strings.Contains(name, "/hw_counters/") {
			t.Errorf("%s collected without Counters", name)
		}
	}
}

// TestGNMIAuthFailureIsANote: leaf01 logs in over SSH with a key but has a
// wrong password for gNMI. Its SSH files and every other switch's counters
// are collected; its own counters are a note, not a failure.
func TestGNMIAuthFailureIsANote(t *testing.T) {
	priv, pub := newKey(t)
	p := startPod(t, cleanPod, sim.Options{Password: secret, AuthorizedKeys: []ssh.PublicKey{pub}, GNMI: true})
	if p.inv.GNMI.TLS {
		t.Fatal("the plaintext simulator wrote tls: true")
	}
	writeFile(t, filepath.Join(p.invDir, "keys", "id"), keyPEM(t, priv, ""))
	const wrong = "wrong-gnmi-password-5150"
	leaf := p.inv.Switches[0].Name
	p.inv.Switches[0].Credentials.KeyFile = "keys/id"
	p.inv.Switches[0].Credentials.PasswordEnv = "LEAF_PW"
	opt := p.options()
	opt.Getenv = env(map[string]string{passwordEv: secret, "LEAF_PW": wrong})
	opt.Counters = true
	r := Collect(context.Background(), p.inv, opt)
	st := status(t, r, leaf)
	if st.Err != "" {
		t.Fatalf("%s failed: %s", leaf, st.Err)
	}
	st.Notes = withoutStatusNote(st.Notes)
	if len(st.Notes) != 1 || !strings.HasPrefix(st.Notes[0], "gNMI counters not collected: ") ||
		!strings.Contains(st.Notes[0], "Unauthenticated") && !strings.Contains(st.Notes[0], "invalid username or password") {
		t.Errorf("%s notes: %q", leaf, st.Notes)
	}
	// The report puts the device before each note: a note that names it
	// again reads "leaf01: gNMI counters not collected: leaf01: ...".
	if len(st.Notes) == 1 && strings.Contains(st.Notes[0], leaf+":") {
		t.Errorf("%s note names the device again: %q", leaf, st.Notes[0])
	}
	if _, ok := r.Files[path.Join(layout.DevicesDir, leaf, layout.GNMIFile)]; ok {
		t.Errorf("%s has counters despite the wrong password", leaf)
	}
	if _, ok := r.Files[path.Join(layout.DevicesDir, leaf, layout.NVUEYAMLFile)]; !ok {
		t.Errorf("%s: its SSH files are missing", leaf)
	}
	for _, name := range counterFiles(t, p) {
		if _, ok := r.Files[name]; !ok && !strings.Contains(name, "/"+leaf+"/") {
			t.Errorf("%s not collected", name)
		}
	}
	assertNoSecret(t, r, nil, wrong)
}
