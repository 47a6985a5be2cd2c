package offline

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/inventory"
)

// ibdev2netdev lines in the form of Mellanox/mlnx-tools sbin/ibdev2netdev
// (`echo "$d port $port ==> $ethdev ($link_state)"`), an IPoIB port
// included; ip -j link objects as iproute2 prints them (link_type
// "infiniband" for IPoIB, lib/ll_types.c).
const (
	ibMixed = "mlx5_0 port 1 ==> ens1f0np0 (Up)\nmlx5_1 port 1 ==> ens1f1np1 (Down)\nmlx5_2 port 1 ==> ibp59s0 (Up)\nmlx5_3 port 1 ==> ens2f0np0 (Up)\n"
	ipMixed = `[{"ifindex":3,"ifname":"ens1f0np0","mtu":9000,"operstate":"UP","link_type":"ether"},` +
		`{"ifindex":4,"ifname":"ens1f1np1","mtu":9000,"operstate":"DOWN","link_type":"ether"},` +
		`{"ifindex":5,"ifname":"ibp59s0","mtu":4092,"operstate":"UP","link_type":"infiniband"},` +
		`{"ifindex":6,"ifname":"ens2f0np0","mtu":9000,"operstate":"DOWN","link_type":"ether"}]`
)

func hostInv(t *testing.T, nics string) *inventory.Inventory {
	t.Helper()
	i, err := inventory.Parse("inventory.yaml", []byte("fabric: t\nhosts:\n  - {name: gpu01, address: 198.51.100.1"+nics+"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	return i
}

func TestHostNotes(t *testing.T) {
	const dir = "devices/gpu01/"
	for _, tc := range []struct {
		name   string
		nics   string // inventory suffix
		files  map[string]string
		want   []string // NICs checked
		notes  []string // substrings, one per note, in order
		errors []string
	}{
		{
			name:  "IPoIB and down ports are not RoCE NICs by default",
			files: map[string]string{"ibdev2netdev.txt": ibMixed, "ip-link.json": ipMixed},
			want:  []string{"ens1f0np0"},
			notes: []string{"not checked as RoCE NICs (the inventory names no nics): ens1f1np1 (Down in ibdev2netdev), ens2f0np0 (operstate DOWN), ibp59s0 (IPoIB: link_type infiniband)"},
		},
		{
			name:  "the inventory's nics are checked whatever their state",
			nics:  ", nics: [ens1f1np1]",
			files: map[string]string{"ibdev2netdev.txt": ibMixed, "ip-link.json": ipMixed},
			want:  []string{"ens1f1np1"},
		},
		{
			name:   "only IPoIB ports: no RoCE NIC",
			files:  map[string]string{"ibdev2netdev.txt": "mlx5_2 port 1 ==> ibp59s0 (Up)\n", "ip-link.json": ipMixed},
			notes:  []string{"ibp59s0 (IPoIB"},
			errors: []string{"no RoCE NIC found: every port of ibdev2netdev.txt is IPoIB or down"},
		},
		{
			name: "half a CNP pair",
			files: map[string]string{"ibdev2netdev.txt": "mlx5_0 port 1 ==> ens1f0np0 (Up)\n",
				"sysfs/class/net/ens1f0np0/ecn/roce_np/cnp_dscp": "48\n"},
			want:  []string{"ens1f0np0"},
			notes: []string{"ens1f0np0: ecn/roce_np/cnp_802p_prio was not collected, so the CNP 802.1p priority of ens1f0np0 is not checked"},
		},
		{
			name: "traffic_class of an unmapped port",
			files: map[string]string{"ibdev2netdev.txt": "mlx5_0 port 1 ==> ens1f0np0 (Up)\n",
				"sysfs/class/infiniband/mlx5_0/tc/1/traffic_class": "Global tclass=106\n",
				"sysfs/class/infiniband/mlx5_4/tc/1/traffic_class": "Global tclass=106\n"},
			want:  []string{"ens1f0np0"},
			notes: []string{"traffic_class of mlx5_4 port 1 is not read: no checked NIC maps to mlx5_4 port 1 in ibdev2netdev.txt"},
		},
		{
			name: "NCCL layers are read",
			files: map[string]string{"ibdev2netdev.txt": "mlx5_0 port 1 ==> ens1f0np0 (Up)\n",
				"nccl-env.txt": "HOME=/root\x00NCCL_IB_TC=104\x00", "home-nccl.conf": "NCCL_IB_TC=106\n"},
			want: []string{"ens1f0np0"},
		},
		{
			name: "a bad environment capture is an input error",
			files: map[string]string{"ibdev2netdev.txt": "mlx5_0 port 1 ==> ens1f0np0 (Up)\n",
				"nccl-env.txt": "HOME=/root\nexport NCCL_IB_TC=106\n"},
			want:   []string{"ens1f0np0"},
			errors: []string{"devices/gpu01/nccl-env.txt:2: \"export NCCL_IB_TC=106\" is shell syntax"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for f, data := range tc.files {
				fsys[dir+f] = &fstest.MapFile{Data: []byte(data)}
			}
			c := CollectFS(fsys, hostInv(t, tc.nics))
			var nics []string
			for _, n := range c.Hosts[0].NICs {
				nics = append(nics, n.Netdev)
			}
			if strings.Join(nics, ",") != strings.Join(tc.want, ",") {
				t.Errorf("NICs %v, want %v", nics, tc.want)
			}
			match := func(kind string, got []string, want []string) {
				if len(got) != len(want) {
					t.Fatalf("%s %q, want %d", kind, got, len(want))
				}
				for i := range want {
					if !strings.Contains(got[i], want[i]) {
						t.Errorf("%s %d = %q, want %q", kind, i, got[i], want[i])
					}
				}
			}
			var notes, errs []string
			for _, n := range c.Notes {
				notes = append(notes, n.Error())
			}
			for _, e := range c.Errors {
				errs = append(errs, e.Error())
			}
			match("notes", notes, tc.notes)
			match("errors", errs, tc.errors)
			if tc.name == "NCCL layers are read" {
				h := c.Hosts[0]
				if h.NCCLEnv == nil || !h.NCCLEnv.NUL || h.NCCLEnv.Vars["NCCL_IB_TC"].Value != "104" || h.NCCLHome == nil || h.NCCLHome.Vars["NCCL_IB_TC"].Value != "106" {
					t.Errorf("layers: env %+v home %+v", h.NCCLEnv, h.NCCLHome)
				}
			}
		})
	}
}

// On a fabric with InfiniBand, the IPoIB netdev's HCA port is judged by
// the ib-* checks: the note says so instead of asking for it in nics.
func TestHostNotesMixedIPoIB(t *testing.T) {
	inv, err := inventory.Parse("inventory.yaml", []byte("fabric: t\nfabric_type: mixed\nhosts:\n  - {name: gpu01, address: 198.51.100.1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		"devices/gpu01/ibdev2netdev.txt": {Data: []byte(ibMixed)},
		"devices/gpu01/ip-link.json":     {Data: []byte(ipMixed)},
	}
	c := CollectFS(fsys, inv)
	var notes []string
	for _, n := range c.Notes {
		notes = append(notes, n.Error())
	}
	got := strings.Join(notes, "\n")
	for _, want := range []string{
		"IPoIB netdevs, not RoCE NICs: ibp59s0; the InfiniBand checks (ib-*) judge their HCA ports",
		"not checked as RoCE NICs (the inventory names no nics): ens1f1np1 (Down in ibdev2netdev), ens2f0np0 (operstate DOWN); name them",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("notes\n%s\nwant %q", got, want)
		}
	}
	if strings.Contains(got, "ibp59s0 (IPoIB") {
		t.Errorf("the IPoIB port is still offered for nics:\n%s", got)
	}
}
