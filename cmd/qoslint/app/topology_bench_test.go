package app

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/checks/trace"
	"github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
)

// The rail-optimised fabric of issue 13: topoHosts GPU servers with
// topoNICs NICs each, topoRails rails of topoLeavesPerRail leaves, and
// topoSpines spines. NIC k of host h sits on leaf k*topoLeavesPerRail +
// h%topoLeavesPerRail, port swp(h/topoLeavesPerRail+1); leaf l's uplink
// to spine s is its swp(topoUplink0+s) and the spine's swp(l+1).
const (
	topoHosts         = 1000
	topoNICs          = 8
	topoRails         = topoNICs
	topoLeavesPerRail = 8
	topoLeaves        = topoRails * topoLeavesPerRail
	topoSpines        = 32
	topoUplink0       = 129
)

const cleanPodDevices = "../../../examples/clean-pod/devices"

type topoFabric struct {
	tb   testing.TB
	dir  string
	lldp bool
	// neighbours[dev] are dev's LLDP neighbours, in port order.
	neighbours map[string][]lldpEntry
	dot        strings.Builder
	// trees caches the clean pod's trees read once: rel path → content.
	trees map[string]map[string]string
}

// lldpEntry is one neighbour as `lldpcli -f json0 show neighbors details`
// prints it: the local port, the neighbour's chassis name and its port ID
// (an ifname for a switch, the NIC's MAC for a host, whose ifname is in the
// port description), as in examples/clean-pod/devices/*/lldp.json.
type lldpEntry struct {
	local, chassis, idType, id, descr string
}

// chassisMAC is a device's chassis ID: a locally administered MAC from a
// hash of its name (lldpd sends the chassis MAC; only its presence matters
// here).
func chassisMAC(dev string) string {
	h := crc32.ChecksumIEEE([]byte(dev))
	return fmt.Sprintf("02:ff:%02x:%02x:%02x:%02x", h>>24, h>>16&0xff, h>>8&0xff, h&0xff)
}

func topoLeaf(l int) string  { return fmt.Sprintf("leaf%02d", l+1) }
func topoSpine(s int) string { return fmt.Sprintf("spine%02d", s+1) }
func topoHost(h int) string  { return fmt.Sprintf("gpu%04d", h+1) }
func topoNIC(k int) string   { return fmt.Sprintf("ens%df0np0", k+1) }
func topoMAC(h, k int) string {
	return fmt.Sprintf("02:00:%02x:%02x:00:%02x", h>>8, h&0xff, k)
}

// topologyFabric writes the fabric; with lldp, every device has its
// lldp.json, the fabric root a topology.dot, and the inventory a rail rule.
func topologyFabric(tb testing.TB, lldp bool) string {
	tb.Helper()
	t := &topoFabric{tb: tb, dir: tb.TempDir(), lldp: lldp, neighbours: map[string][]lldpEntry{}, trees: map[string]map[string]string{}}
	t.dot.WriteString("graph scale {\n")
	var inv strings.Builder
	inv.WriteString("fabric: scale\n")
	if lldp {
		inv.WriteString("policy:\n  rails:\n    groups:\n")
		for k := 0; k < topoRails; k++ {
			var g []string
			for j := 0; j < topoLeavesPerRail; j++ {
				g = append(g, topoLeaf(k*topoLeavesPerRail+j))
			}
			fmt.Fprintf(&inv, "      - [%s]\n", strings.Join(g, ", "))
		}
	}
	inv.WriteString("switches:\n")
	for s := 0; s < topoSpines; s++ {
		fmt.Fprintf(&inv, "  - {name: %s, role: spine, address: 192.0.2.%d}\n", topoSpine(s), s+1)
		t.switchDevice(topoSpine(s), "spine01", 1, topoLeaves, 1, topoLeaves)
	}
	for l := 0; l < topoLeaves; l++ {
		fmt.Fprintf(&inv, "  - {name: %s, role: leaf, address: 192.0.2.%d}\n", topoLeaf(l), 100+l)
		t.switchDevice(topoLeaf(l), "leaf01", 1, topoUplink0+topoSpines-1, topoUplink0, topoUplink0+topoSpines-1)
		for s := 0; s < topoSpines; s++ {
			t.cable(topoLeaf(l), fmt.Sprintf("swp%d", topoUplink0+s), topoSpine(s), fmt.Sprintf("swp%d", l+1), "")
		}
	}
	inv.WriteString("hosts:\n")
	for h := 0; h < topoHosts; h++ {
		fmt.Fprintf(&inv, "  - {name: %s, address: 198.51.%d.%d}\n", topoHost(h), 100+h/250, h%250+1)
		t.host(h)
		for k := 0; k < topoNICs; k++ {
			leaf := topoLeaf(k*topoLeavesPerRail + h%topoLeavesPerRail)
			t.cable(leaf, fmt.Sprintf("swp%d", h/topoLeavesPerRail+1), topoHost(h), topoNIC(k), topoMAC(h, k))
		}
	}
	t.write("inventory.yaml", inv.String())
	if lldp {
		for dev, ns := range t.neighbours {
			t.write(filepath.Join("devices", dev, "lldp.json"), lldpJSON(ns))
		}
		t.dot.WriteString("}\n")
		t.write("topology.dot", t.dot.String())
	}
	return t.dir
}

// cable records the cable a:ap -- b:bp in the plan and in both ends'
// LLDP. A host end (b) with a MAC is announced by its NIC's MAC.
func (t *topoFabric) cable(a, ap, b, bp, bMAC string) {
	if !t.lldp {
		return
	}
	fmt.Fprintf(&t.dot, "  %q:%q -- %q:%q;\n", a, ap, b, bp)
	t.neighbours[a] = append(t.neighbours[a], farEnd(ap, b, bp, bMAC))
	t.neighbours[b] = append(t.neighbours[b], lldpEntry{local: bp, chassis: a, idType: "ifname", id: ap, descr: ap})
}

func farEnd(local, dev, port, mac string) lldpEntry {
	if mac != "" {
		return lldpEntry{local: local, chassis: dev, idType: "mac", id: mac, descr: port}
	}
	return lldpEntry{local: local, chassis: dev, idType: "ifname", id: port, descr: port}
}

// switchDevice writes a switch from the clean pod's proto, with swp1-last
// up at MTU 9216 and BGP unnumbered on swp[bgpFrom, bgpTo] (its uplinks;
// every port for a spine).
func (t *topoFabric) switchDevice(name, proto string, first, last, bgpFrom, bgpTo int) {
	d := filepath.Join("devices", name)
	t.copyFile(filepath.Join(cleanPodDevices, proto, "nv-show-qos-roce.txt"), filepath.Join(d, "nv-show-qos-roce.txt"))
	var b strings.Builder
	fmt.Fprintf(&b, `- header:
    model: MSN4700
    nvue-api-version: nvue_v1
    rev-id: 1.0
    version: Cumulus Linux 5.14.0
- set:
    interface:
      lo:
        ip:
          address:
            10.10.%d.%d/32: {}
        type: loopback
      swp%d-%d:
        link:
          mtu: 9216
          state:
            up: {}
        qos:
          pfc-watchdog:
            state: enable
        type: swp
    qos:
      roce:
        enable: on
        mode: lossless
    router:
      bgp:
        autonomous-system: 65101
        enable: on
        router-id: 10.10.10.1
    system:
      forwarding:
        ecmp-hash:
          destination-ip: on
          destination-port: on
          ip-protocol: on
          source-ip: on
          source-port: on
      hostname: %s
    vrf:
      default:
        router:
          bgp:
            neighbor:
`, len(name), len(t.neighbours)%250, first, last, name)
	for p := bgpFrom; p <= bgpTo; p++ {
		fmt.Fprintf(&b, "              swp%d:\n                remote-as: external\n                type: unnumbered\n", p)
	}
	t.write(filepath.Join(d, "nv-config.yaml"), b.String())
}

// host writes GPU server h with topoNICs NICs, each a copy of gpu01's first
// NIC (mlnx_qos, ECN and traffic-class sysfs).
func (t *topoFabric) host(h int) {
	d := filepath.Join("devices", topoHost(h))
	src := filepath.Join(cleanPodDevices, "gpu01")
	var ib, links, hca strings.Builder
	links.WriteString(`[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,"qdisc":"noqueue","operstate":"UNKNOWN","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"loopback","address":"00:00:00:00:00:00","broadcast":"00:00:00:00:00:00"}`)
	for k := 0; k < topoNICs; k++ {
		nic, mlx := topoNIC(k), fmt.Sprintf("mlx5_%d", k)
		fmt.Fprintf(&ib, "%s port 1 ==> %s (Up)\n", mlx, nic)
		fmt.Fprintf(&links, `,{"ifindex":%d,"ifname":"%s","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":9000,"qdisc":"mq","operstate":"UP","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"ether","address":"%s","broadcast":"ff:ff:ff:ff:ff:ff"}`, k+2, nic, topoMAC(h, k))
		if k > 0 {
			hca.WriteString(",")
		}
		hca.WriteString(mlx)
		t.copyFile(filepath.Join(src, "mlnx_qos-ens1f0np0.txt"), filepath.Join(d, "mlnx_qos-"+nic+".txt"))
		t.copyTree(filepath.Join(src, "sysfs/class/net/ens1f0np0"), filepath.Join(d, "sysfs/class/net", nic))
		t.copyTree(filepath.Join(src, "sysfs/class/infiniband/mlx5_0"), filepath.Join(d, "sysfs/class/infiniband", mlx))
		fw, err := os.ReadFile(filepath.Join(src, "mlxconfig-mlx5_0.txt"))
		if err != nil {
			t.tb.Fatal(err)
		}
		t.write(filepath.Join(d, "mlxconfig-"+mlx+".txt"), strings.Replace(string(fw), "Device:         mlx5_0", "Device:         "+mlx, 1))
	}
	t.copyFile(filepath.Join(src, "lspci.txt"), filepath.Join(d, "lspci.txt"))
	t.copyFile(filepath.Join(src, "cpuinfo.txt"), filepath.Join(d, "cpuinfo.txt"))
	links.WriteString("]\n")
	t.write(filepath.Join(d, "ibdev2netdev.txt"), ib.String())
	t.write(filepath.Join(d, "ip-link.json"), links.String())
	t.write(filepath.Join(d, "nccl.conf"), "NCCL_IB_HCA="+hca.String()+"\nNCCL_IB_GID_INDEX=3\nNCCL_IB_TC=106\nNCCL_IB_QPS_PER_CONNECTION=4\n")
}

func (t *topoFabric) write(rel, data string) {
	p := filepath.Join(t.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.tb.Fatal(err)
	}
}

// copyTree copies the files under src to rel, reading src once per
// fabric: the fabric has 8,000 NICs of the same sysfs tree.
func (t *topoFabric) copyTree(src, rel string) {
	files, ok := t.trees[src]
	if !ok {
		files = map[string]string{}
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			r, _ := filepath.Rel(src, p)
			files[r] = string(data)
			return err
		})
		if err != nil {
			t.tb.Fatal(err)
		}
		t.trees[src] = files
	}
	for r, data := range files {
		t.write(filepath.Join(rel, r), data)
	}
}

func (t *topoFabric) copyFile(src, rel string) {
	data, err := os.ReadFile(src)
	if err != nil {
		t.tb.Fatal(err)
	}
	t.write(rel, string(data))
}

// lldpJSON is lldp.json in the json0 shape of the clean pod's (every value
// a list of objects), trimmed to the fields the collector reads and the
// port's MFS.
func lldpJSON(ns []lldpEntry) string {
	var b strings.Builder
	b.WriteString(`{"lldp":[{"interface":[`)
	for i, n := range ns {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":%q,"via":"LLDP","rid":"%d","age":"0 day, 03:01:07",`+
			`"chassis":[{"id":[{"type":"mac","value":%q}],"name":[{"value":%q}],"capability":[{"type":"Bridge","enabled":true}]}],`+
			`"port":[{"id":[{"type":%q,"value":%q}],"descr":[{"value":%q}],"ttl":[{"value":"120"}],"mfs":[{"value":"9238"}]}]}`,
			n.local, i+1, chassisMAC(n.chassis), n.chassis, n.idType, n.id, n.descr)
	}
	b.WriteString("]}]}\n")
	return b.String()
}

// BenchmarkLintTopology lints the rail-optimised fabric of 1,000 hosts × 8
// NICs, 64 leaves and 32 spines without LLDP and with LLDP on every
// device, a cabling plan and a rail rule: issue 13 asks lldp=on to take at
// most twice lldp=off's time.
func BenchmarkLintTopology(b *testing.B) {
	for _, lldp := range []bool{false, true} {
		name := map[bool]string{false: "lldp=off", true: "lldp=on"}[lldp]
		b.Run(name, func(b *testing.B) {
			dir := topologyFabric(b, lldp)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				r, err := BuildReport(dir, judge.Error)
				if err != nil {
					b.Fatal(err)
				}
				if len(r.Errors) > 0 {
					b.Fatalf("%d input errors, first %v", len(r.Errors), r.Errors[0])
				}
				if lldp && len(r.Findings) > 0 {
					b.Fatalf("%d findings, first %+v", len(r.Findings), r.Findings[0])
				}
			}
		})
	}
}

// BenchmarkTraceTopology times one trace between two GPU servers of the
// issue-13 fabric on an already built model: gpu0001 NIC 0 to gpu1000 NIC 0,
// different leaves of rail 0, so every one of the 32 spines is a path. The
// model build is the lint's (BenchmarkLintTopology) and is left out.
func BenchmarkTraceTopology(b *testing.B) {
	dir := topologyFabric(b, true)
	inv, err := inventory.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	f := fabric.Build(inv, offline.Collect(dir, inv))
	src := trace.Endpoint{Host: topoHost(0), NIC: topoNIC(0)}
	dst := trace.Endpoint{Host: topoHost(topoHosts - 1), NIC: topoNIC(0)}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := trace.Trace(f, src, dst)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Pairs) != 1 || len(res.Pairs[0].Paths) != topoSpines {
			b.Fatalf("%d NIC pairs, want 1 with %d paths", len(res.Pairs), topoSpines)
		}
	}
}
