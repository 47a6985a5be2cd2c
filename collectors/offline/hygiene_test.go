package offline_test

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// loadTree copies a folder of the repository into a MapFS below prefix.
func loadTree(t *testing.T, m fstest.MapFS, dir, prefix string) {
	t.Helper()
	dir = fixture.Build(t, dir, nil) // the examples' links as files
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path.Join(dir, p))
		if err != nil {
			return err
		}
		m[path.Join(prefix, p)] = &fstest.MapFile{Data: data}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// everyFileType is the broken-pod example (NVUE YAML and commands, nv show
// qos roce, ibdev2netdev, ip -j link, nccl.conf, mlnx_qos, the sysfs ints
// and traffic_class) with the optional files the example lacks added from
// the parsers' own fixtures: ~/.nccl.conf, the job's environment, ethtool
// -S and its earlier sample, the RDMA hw_counters, gNMI counters and the
// counters interval.
func everyFileType(t *testing.T) (fstest.MapFS, *inventory.Inventory) {
	t.Helper()
	m := fstest.MapFS{}
	loadTree(t, m, "../../examples/broken-pod", "")
	delete(m, "README.md")
	hf := "../hostfiles/testdata/"
	for dst, src := range map[string]string{
		"devices/gpu01/home-nccl.conf":                 hf + "nccl/docs_example.conf",
		"devices/gpu01/nccl-env.txt":                   hf + "nccl_env/env_slurm_job.txt",
		"devices/gpu01/ethtool-S-ens1f0np0.txt":        hf + "ethtool/constructed_cx6_prio3.txt",
		"devices/gpu01/ethtool-S-ens1f0np0.before.txt": hf + "ethtool/constructed_cx6_prio3.txt",
		"devices/leaf01/gnmi-counters.json":            "../gnmi/testdata/leaf01-gnmi-counters.json",
		"devices/leaf01/gnmi-counters.before.json":     "../gnmi/testdata/leaf01-gnmi-counters.json",
	} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		m[dst] = &fstest.MapFile{Data: data}
	}
	m["devices/gpu01/counters-interval.txt"] = &fstest.MapFile{Data: []byte("30s\n")}
	m["devices/leaf01/counters-interval.txt"] = &fstest.MapFile{Data: []byte("30s\n")}
	loadTree(t, m, hf+"sysfs_hw_counters", "devices/gpu01/sysfs")
	loadTree(t, m, hf+"sysfs_hw_counters", "devices/gpu01/sysfs.before")
	inv, err := inventory.Parse("inventory.yaml", m["inventory.yaml"].Data)
	if err != nil {
		t.Fatal(err)
	}
	return m, inv
}

func clone(m fstest.MapFS) fstest.MapFS {
	out := fstest.MapFS{}
	for k, v := range m {
		cp := *v
		out[k] = &cp
	}
	return out
}

// TestBOMEveryFileType: a copy of any one file with a UTF-8 byte order mark
// in front reads exactly as the file without it.
func TestBOMEveryFileType(t *testing.T) {
	base, inv := everyFileType(t)
	want := offline.CollectFS(base, inv)
	if len(want.Errors) > 0 {
		t.Fatalf("the fixture fabric has errors: %v", want.Errors)
	}
	kinds := map[string]bool{}
	for name := range base {
		if !strings.HasPrefix(name, "devices/") || layout.InCaptures(name) {
			continue // a packet capture is binary: a BOM makes it no capture
		}
		kind := path.Base(name)
		if strings.Contains(name, "/sysfs") {
			kind = "sysfs " + kind
		}
		kinds[kind] = true
		t.Run(name, func(t *testing.T) {
			m := clone(base)
			m[name].Data = append([]byte("\ufeff"), m[name].Data...)
			got := offline.CollectFS(m, inv)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("with a BOM: errors %v, notes %v; the capture differs from the one without", got.Errors, got.Notes)
			}
		})
	}
	for _, k := range []string{"nv-config.yaml", "nv-config-commands.txt", "nv-show-qos-roce.txt", "ibdev2netdev.txt", "ip-link.json",
		"nccl.conf", "home-nccl.conf", "nccl-env.txt", "mlnx_qos-ens1f0np0.txt", "ethtool-S-ens1f0np0.txt", "ethtool-S-ens1f0np0.before.txt",
		"gnmi-counters.json", "gnmi-counters.before.json", "counters-interval.txt", "lldp.json", "sysfs cnp_dscp", "sysfs 3", "sysfs traffic_class", "sysfs np_cnp_sent"} {
		if !kinds[k] {
			t.Errorf("no %s in the table", k)
		}
	}
}

// TestBOMInventoryAndWaivers: the inventory (YAML and HCL) and the waiver
// file read the same with a byte order mark.
func TestBOMInventoryAndWaivers(t *testing.T) {
	for _, f := range []string{"../../examples/broken-pod/inventory.yaml", "../../examples/clean-pod/inventory.hcl"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := inventory.Parse(path.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := inventory.Parse(path.Base(f), append([]byte("\ufeff"), data...))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s with a BOM: %v", f, err)
		}
	}
}

// TestNonUTF8 names the real line of a byte that is not UTF-8: an error
// where the format requires UTF-8, a note in a device's text output.
func TestNonUTF8(t *testing.T) {
	base, inv := everyFileType(t)
	for _, tc := range []struct {
		file string
		line int
		err  bool
	}{
		{"devices/leaf01/nv-config.yaml", 12, true},
		{"devices/leaf02/nv-config-commands.txt", 3, true},
		{"devices/leaf01/gnmi-counters.json", 2, true},
		{"devices/leaf01/nv-show-qos-roce.txt", 3, false},
		{"devices/gpu01/nccl.conf", 2, false},
		{"devices/gpu01/ip-link.json", 1, false},
		{"devices/gpu01/nccl-env.txt", 2, false},
		{"devices/gpu01/mlnx_qos-ens1f0np0.txt", 2, false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			m := clone(base)
			lines := strings.SplitAfter(string(m[tc.file].Data), "\n")
			lines[tc.line-1] = strings.TrimSuffix(lines[tc.line-1], "\n") + " caf\xe9\n"
			if strings.HasSuffix(tc.file, ".json") {
				// Inside a JSON string, where the byte is valid syntax.
				lines[tc.line-1] = strings.Replace(lines[tc.line-1], `"`, "\"caf\xe9", 1)
				lines[tc.line-1] = strings.TrimSuffix(lines[tc.line-1], " caf\xe9\n") + "\n"
			}
			m[tc.file].Data = []byte(strings.Join(lines, ""))
			c := offline.CollectFS(m, inv)
			list := c.Notes
			if tc.err {
				list = c.Errors
			}
			found := false
			for _, e := range list {
				if e.File == tc.file && strings.Contains(e.Msg, "not UTF-8") {
					found = true
					if e.Line != tc.line {
						t.Errorf("%s: at line %d, want %d", e, e.Line, tc.line)
					}
				}
			}
			if !found {
				t.Errorf("no %s about the byte (error %t); errors %v", tc.file, tc.err, c.Errors)
			}
		})
	}
}

// TestRefusedNames: a name the live audit would not send is an input error
// at its line, and is not in the capture.
func TestRefusedNames(t *testing.T) {
	base, inv := everyFileType(t)
	for _, tc := range []struct {
		name, file, text string
		line             int
	}{
		{"ibdev2netdev backticks", "devices/gpu01/ibdev2netdev.txt", "mlx5_0 port 1 ==> ens`id` (Up)\nmlx5_1 port 1 ==> ens1f1np1 (Up)\n", 1},
		{"ibdev2netdev semicolon", "devices/gpu01/ibdev2netdev.txt", "mlx5_0 port 1 ==> ens1f0np0 (Up)\nmlx5_1 port 1 ==> a;reboot (Up)\n", 2},
		{"NVUE commands", "devices/leaf02/nv-config-commands.txt", "nv set interface swp1-32 type swp\nnv set interface 'swp40;reboot' qos pfc profile default-global\n", 2},
		{"NVUE YAML", "devices/leaf01/nv-config.yaml", "- set:\n    interface:\n      swp1:\n        type: swp\n      'swp40;reboot':\n        type: swp\n", 5},
		{"ip link", "devices/gpu01/ip-link.json", `[{"ifname":"ens1f0np0","mtu":9000,"operstate":"UP"},` + "\n" + `{"ifname":"$(reboot)","mtu":1500,"operstate":"UP"}]`, 2},
		{"mlnx_qos file name", "devices/gpu02/mlnx_qos-a;b.txt", "x", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := clone(base)
			if tc.name == "mlnx_qos file name" {
				delete(m, "devices/gpu02/ibdev2netdev.txt") // NICs from the file names
			}
			m[tc.file] = &fstest.MapFile{Data: []byte(tc.text)}
			c := offline.CollectFS(m, inv)
			var hit []string
			for _, e := range c.Errors {
				if e.File == tc.file && e.Line == tc.line && strings.Contains(e.Msg, "refused") {
					hit = append(hit, e.Error())
				}
			}
			if len(hit) != 1 {
				t.Fatalf("want one refusal at %s:%d, got errors %v", tc.file, tc.line, c.Errors)
			}
			for _, sc := range c.Switches {
				if sc.Config == nil {
					continue
				}
				for _, n := range sc.Config.Root.Child("interface").Children {
					if strings.ContainsAny(n.Key, ";`$") {
						t.Errorf("%s: interface %q is still in the configuration", sc.Name, n.Key)
					}
				}
			}
			for _, hc := range c.Hosts {
				for _, l := range hc.Links {
					if strings.ContainsAny(l.Name, ";`$") {
						t.Errorf("%s: link %q kept", hc.Name, l.Name)
					}
				}
				for _, n := range hc.NICs {
					if strings.ContainsAny(n.Netdev, ";`$") {
						t.Errorf("%s: NIC %q kept", hc.Name, n.Netdev)
					}
				}
			}
		})
	}
}

// faultFS makes a malformed fabric directory out of a MapFS: a path whose
// Stat fails (a symbolic link loop), one that cannot be listed or opened
// below (a folder without permission: root ignores permission bits, so
// the error is injected), and a file whose size is over the limit.
type faultFS struct {
	fstest.MapFS
	statErr  map[string]error
	noRead   string
	hugeFile string
}

func (f faultFS) Stat(name string) (fs.FileInfo, error) {
	if err, ok := f.statErr[name]; ok {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	st, err := f.MapFS.Stat(name)
	if err == nil && name == f.hugeFile {
		return hugeInfo{st}, nil
	}
	return st, err
}

type hugeInfo struct{ fs.FileInfo }

func (hugeInfo) Size() int64 { return 100 << 20 }

func (f faultFS) Open(name string) (fs.File, error) {
	if err, ok := f.statErr[name]; ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if f.noRead != "" && (name == f.noRead || strings.HasPrefix(name, f.noRead+"/")) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	fl, err := f.MapFS.Open(name)
	if err == nil && name == f.hugeFile {
		return hugeFile{fl}, nil
	}
	return fl, err
}

// hugeFile is an open file whose Stat reports the huge size, as the
// fstat of a real file over the limit would.
type hugeFile struct{ fs.File }

func (h hugeFile) Stat() (fs.FileInfo, error) {
	st, err := h.File.Stat()
	if err != nil {
		return nil, err
	}
	return hugeInfo{st}, nil
}

func (f faultFS) ReadFile(name string) ([]byte, error) {
	fl, err := f.Open(name)
	if err != nil {
		return nil, err
	}
	fl.Close()
	return f.MapFS.ReadFile(name)
}

func (f faultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if _, err := f.Open(name); err != nil {
		return nil, err
	}
	return f.MapFS.ReadDir(name)
}

// TestMalformedFabric: each malformed folder or file is one error that
// says what is wrong, at that path.
func TestMalformedFabric(t *testing.T) {
	base, inv := everyFileType(t)
	eloop := errors.New("too many levels of symbolic links")
	for _, tc := range []struct {
		name string
		edit func(m fstest.MapFS) fs.FS
		file string
		msg  string
	}{
		{"device folder is a file", func(m fstest.MapFS) fs.FS {
			for k := range m {
				if strings.HasPrefix(k, "devices/gpu02/") {
					delete(m, k)
				}
			}
			m["devices/gpu02"] = &fstest.MapFile{Data: []byte("x")}
			return m
		}, "devices/gpu02", "is a file, but must be a folder"},
		{"symbolic link loop", func(m fstest.MapFS) fs.FS {
			return faultFS{MapFS: m, statErr: map[string]error{"devices/gpu02": eloop}}
		}, "devices/gpu02", "cannot read the folder: too many levels of symbolic links"},
		{"sysfs is a file", func(m fstest.MapFS) fs.FS {
			for k := range m {
				if strings.HasPrefix(k, "devices/gpu02/sysfs/") {
					delete(m, k)
				}
			}
			m["devices/gpu02/sysfs"] = &fstest.MapFile{Data: []byte("x")}
			return m
		}, "devices/gpu02/sysfs", "is a file, but must be a folder"},
		{"unreadable device folder", func(m fstest.MapFS) fs.FS {
			return faultFS{MapFS: m, noRead: "devices/gpu02"}
		}, "devices/gpu02", "cannot read the folder: permission denied"},
		{"unreadable sysfs folder", func(m fstest.MapFS) fs.FS {
			return faultFS{MapFS: m, noRead: "devices/gpu02/sysfs"}
		}, "devices/gpu02/sysfs", "cannot read the folder: permission denied"},
		{"over-limit NVUE file", func(m fstest.MapFS) fs.FS {
			return faultFS{MapFS: m, hugeFile: "devices/leaf01/nv-config.yaml"}
		}, "devices/leaf01/nv-config.yaml", "over the 64 MiB limit"},
		{"over-limit mlnx_qos file", func(m fstest.MapFS) fs.FS {
			return faultFS{MapFS: m, hugeFile: "devices/gpu02/mlnx_qos-ens1f0np0.txt"}
		}, "devices/gpu02/mlnx_qos-ens1f0np0.txt", "over the 64 MiB limit"},
		{"over-limit sysfs file", func(m fstest.MapFS) fs.FS {
			return faultFS{MapFS: m, hugeFile: "devices/gpu02/sysfs/class/net/ens1f0np0/ecn/roce_np/cnp_dscp"}
		}, "devices/gpu02/sysfs/class/net/ens1f0np0/ecn/roce_np/cnp_dscp", "over the 64 MiB limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var errs []string
			go func() {
				defer close(done)
				c := offline.CollectFS(tc.edit(clone(base)), inv)
				for _, e := range c.Errors {
					errs = append(errs, e.Error())
				}
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("CollectFS did not return")
			}
			if len(errs) != 1 || !strings.Contains(errs[0], tc.file+":") && !strings.Contains(errs[0], tc.file+": ") || !strings.Contains(errs[0], tc.msg) {
				t.Fatalf("errors %q, want one at %s saying %q", errs, tc.file, tc.msg)
			}
		})
	}
}
