package drift_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/snaptest"
	"github.com/qoslint/qoslint/model/snapshot"
)

// The drift's agreement with the checks, on every example and every check
// test case, is proven in package checks (agreement_test.go).

// mutate takes the clean pod and changes it.
func mutate(t *testing.T, f func(s *snapshot.Snapshot)) (*snapshot.Snapshot, *snapshot.Snapshot) {
	t.Helper()
	old := snaptest.Take(t, "../../examples/clean-pod")
	// A deep copy; Read would validate it too, which TestRoundTrip covers.
	cur := &snapshot.Snapshot{}
	if err := json.Unmarshal(snaptest.Write(t, old), cur); err != nil {
		t.Fatal(err)
	}
	f(cur)
	return old, cur
}

func findSwitch(s *snapshot.Snapshot, name string) *snapshot.Switch {
	for i := range s.Switches {
		if s.Switches[i].Name == name {
			return &s.Switches[i]
		}
	}
	return nil
}

func findHost(s *snapshot.Snapshot, name string) *snapshot.Host {
	for i := range s.Hosts {
		if s.Hosts[i].Name == name {
			return &s.Hosts[i]
		}
	}
	return nil
}

func ptr(i int) *int { return &i }

// findLink is the link with an end on device:port.
func findLink(t *testing.T, s *snapshot.Snapshot, device, port string) *snapshot.Link {
	t.Helper()
	for i, l := range s.Topology.Links {
		for _, e := range []snapshot.LinkEnd{l.A, l.B} {
			if e.Device == device && e.Port == port {
				return &s.Topology.Links[i]
			}
		}
	}
	t.Fatalf("no link on %s:%s", device, port)
	return nil
}

// changeLines renders changes as "device iface: message [effect checks]".
func changeLines(d *drift.Drift) []string {
	var out []string
	for _, c := range d.Fabric {
		out = append(out, fmt.Sprintf("fabric: %s [%s %s]", c.Message, c.Effect, strings.Join(c.Checks, ",")))
	}
	for _, dev := range d.Devices {
		if len(dev.Changes) == 0 {
			out = append(out, dev.Name+" "+dev.Status)
		}
		for _, c := range dev.Changes {
			out = append(out, fmt.Sprintf("%s %s: %s [%s %s]", dev.Name, c.Interface, c.Message, c.Effect, strings.Join(c.Checks, ",")))
		}
	}
	return out
}

func TestDiffCases(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(s *snapshot.Snapshot)
		want   []string
	}{
		{"switch DSCP map", func(s *snapshot.Snapshot) {
			g := &findSwitch(s, "leaf02").PortGroups[0]
			g.DSCP.Map[26] = ptr(0)
			g.DSCP.Map[10] = ptr(5)
		}, []string{
			"leaf02 swp1-32: DSCP 10 → switch-priority 5, was 1 [neutral ]",
			"leaf02 swp1-32: DSCP 26 → switch-priority 0, was 3 [breaks switch-dscp-map]",
		}},
		{"NIC PFC moves", func(s *snapshot.Snapshot) {
			findHost(s, "gpu03").NICs[1].PFC.Value = []int{5}
		}, []string{"gpu03 ens1f1np1: PFC moved from priority 3 to 5 [breaks host-pfc]"}},
		{"NIC PFC on two, then none", func(s *snapshot.Snapshot) {
			findHost(s, "gpu01").NICs[0].PFC.Value = []int{3, 4}
			findHost(s, "gpu01").NICs[1].PFC.Value = []int{}
		}, []string{
			"gpu01 ens1f0np0: PFC on priority 3,4, was 3 [breaks host-pfc]",
			"gpu01 ens1f1np1: PFC off on every priority, was on 3 [breaks host-pfc]",
		}},
		{"CNP priority into the RoCE queue, CNP queue not strict", func(s *snapshot.Snapshot) {
			g := &findSwitch(s, "spine01").PortGroups[0]
			g.SPToTC[6].Value = 3
			g.TrafficClasses[6].Scheduler.Value = "dwrr"
		}, []string{
			// switch-queue-map warns of any other priority in the RoCE
			// class, the CNP one included.
			"spine01 swp1-32: switch-priority 6 → traffic-class 3, was 6 [breaks switch-queue-map,switch-cnp]",
			// The CNP priority left traffic class 6: its scheduler was
			// right for CNPs and now concerns them no more.
			"spine01 swp1-32: traffic-class 6 scheduler dwrr, was strict [neutral switch-cnp]",
		}},
		{"ECN thresholds inverted", func(s *snapshot.Snapshot) {
			findSwitch(s, "spine01").PortGroups[0].TrafficClasses[3].ECNMin.Value = 2000000
		}, []string{"spine01 swp1-32: traffic-class 3 ECN min-threshold 2000000 B, was 150000 B [breaks switch-ecn]"}},
		{"ports regrouped and one port's MTU", func(s *snapshot.Snapshot) {
			sw := findSwitch(s, "leaf01")
			g := sw.PortGroups[0]
			g2 := g
			g2.Trust.Value, g2.Trust.Origin = "l2", "devices/leaf01/nv-config.yaml:99"
			g.Ports, g2.Ports = "swp1-8,swp17-32", "swp9-16"
			sw.PortGroups = []snapshot.PortGroup{g, g2}
			sw.MTU = []snapshot.PortValue[int]{{Ports: "swp1-31", Value: 9216, Origin: sw.MTU[0].Origin}, {Ports: "swp32", Value: 1500, Origin: "x:1"}}
		}, []string{
			"leaf01 swp9-16: trust l2, was both [breaks switch-trust]",
			"leaf01 swp32: MTU 1500, was 9216 [breaks mtu]",
		}},
		{"ports added and removed", func(s *snapshot.Snapshot) {
			sw := findSwitch(s, "leaf01")
			sw.PortGroups[0].Ports = "swp1-30,swp33-34"
			sw.PortGroups[0].Trust.Value = "l2"
			sw.MTU[0].Ports = "swp1-30,swp33-34"
		}, []string{
			"leaf01 swp1-30: trust l2, was both [breaks switch-trust]",
			"leaf01 swp31-32: ports removed [neutral ]",
			"leaf01 swp33-34: ports added [neutral ]",
			"leaf01 swp33-34: trust l2 [breaks switch-trust]",
			// The new ports are lossless and no watchdog line names them.
			"leaf01 swp33-34: PFC watchdog off on a lossless port [breaks pfc-watchdog]",
		}},
		{"PFC cable length under the policy", func(s *snapshot.Snapshot) {
			findSwitch(s, "leaf02").PortGroups[0].CableLength.Value = 50
		}, []string{"leaf02 swp1-32: PFC cable length 50 m on a lossless port, under the policy's 100 m, was 100 m [breaks pfc-cable-length]"}},
		{"PFC cable length changed on half the fabric", func(s *snapshot.Snapshot) {
			// Two switches at 200 m, two at 100 m: the longest wins the
			// tie, so the spines, whose own value did not change, now
			// differ from the fabric's.
			findSwitch(s, "leaf01").PortGroups[0].CableLength.Value = 200
			findSwitch(s, "leaf02").PortGroups[0].CableLength.Value = 200
		}, []string{
			"leaf01 swp1-32: PFC cable length 200 m, was 100 m [neutral pfc-cable-length]",
			"leaf02 swp1-32: PFC cable length 200 m, was 100 m [neutral pfc-cable-length]",
			"spine01 swp1-32: PFC cable length 100 m, the fabric's lossless ports use 200 m, was 100 m [breaks pfc-cable-length]",
			"spine02 swp1-32: PFC cable length 100 m, the fabric's lossless ports use 200 m, was 100 m [breaks pfc-cable-length]",
		}},
		{"PFC watchdog off on some ports", func(s *snapshot.Snapshot) {
			findSwitch(s, "leaf01").Flow.Watchdog[0].Ports = "swp1-16"
		}, []string{"leaf01 swp17-32: PFC watchdog off on a lossless port, was on [breaks pfc-watchdog]"}},
		{"link pause on a PFC port", func(s *snapshot.Snapshot) {
			findSwitch(s, "spine01").Flow.LinkPause = []snapshot.PortValue[string]{{Ports: "swp5", Value: "my_pause", Origin: "devices/spine01/nv-config.yaml:40"}}
		}, []string{"spine01 swp5: link pause qos link-pause profile my_pause with PFC on, was off [breaks link-pause]"}},
		{"link pause on a bond member", func(s *snapshot.Snapshot) {
			sw := findSwitch(s, "spine02")
			sw.PortGroups[0].Ports = "swp1-30,bond1"
			sw.Flow.Bonds = []snapshot.Bond{{Bond: "bond1", Members: "swp31-32"}}
			sw.Flow.LinkPause = []snapshot.PortValue[string]{{Ports: "swp32", Value: "", Origin: "devices/spine02/nv-config.yaml:40"}}
		}, []string{
			// The watchdog is on both members, so the bond has it.
			"spine02 bond1: ports added [neutral ]",
			"spine02 bond1: link pause swp32: qos link-pause with PFC on [breaks link-pause]",
			"spine02 swp31-32: ports removed [neutral ]",
		}},
		{"two switches share a hash seed", func(s *snapshot.Snapshot) {
			for _, n := range []string{"leaf01", "spine02"} {
				findSwitch(s, n).HashSeed = &snapshot.Fact[int64]{Value: 50, Known: true, Origin: "devices/" + n + "/nv-config.yaml:9"}
			}
			findSwitch(s, "leaf02").HashSeed = &snapshot.Fact[int64]{Value: 51, Known: true, Origin: "devices/leaf02/nv-config.yaml:9"}
		}, []string{
			"leaf01 : hash-seed 50, also the seed of spine02, was not set (random) [breaks ecmp-hash-seed]",
			"leaf02 : hash-seed 51, was not set (random) [neutral ecmp-hash-seed]",
			"spine02 : hash-seed 50, also the seed of leaf01, was not set (random) [breaks ecmp-hash-seed]",
		}},
		{"traffic pools: RoCE in a lossy pool, memory above 100%", func(s *snapshot.Snapshot) {
			// The shape of the QoS guide's Traffic Pools example (CumulusNetworks/docs
			// content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md):
			// nv set qos traffic-pool default-lossy memory-percent 50 and
			// switch-priority 0-3,5-7 (here with 3 as well).
			o := "devices/spine01/nv-config.yaml:"
			findSwitch(s, "spine01").TrafficPools = []snapshot.TrafficPool{
				{Name: "default-lossy", MemoryPercent: snapshot.Fact[int]{Value: 50, Known: true, Origin: o + "40"},
					SwitchPriorities: snapshot.Fact[[]int]{Value: []int{0, 1, 2, 3, 5, 6, 7}, Known: true, Origin: o + "41"}},
				{Name: "roce-lossless", MemoryPercent: snapshot.Fact[int]{Value: 60, Known: true, Origin: o + "43"}},
			}
		}, []string{
			// The total is the one field the old side has: it comes first.
			"spine01 : traffic pools' memory-percent total 110%, was 0% [breaks switch-buffer-pool]",
			"spine01 : traffic-pool default-lossy memory-percent 50%, was absent [neutral switch-buffer-pool]",
			"spine01 : traffic-pool default-lossy switch-priority 0-3,5-7 (RoCE priority 3 in a lossy pool), was absent [breaks switch-buffer-pool]",
			"spine01 : traffic-pool roce-lossless memory-percent 60%, was absent [neutral switch-buffer-pool]",
			"spine01 : traffic-pool roce-lossless switch-priority not set, was absent [neutral switch-buffer-pool]",
		}},
		{"RDMA-CM back to RoCE v1, NCCL's choice prefers v1", func(s *snapshot.Snapshot) {
			// default_roce_mode holds "IB/RoCE v1" or "RoCE v2" (Linux
			// Documentation/ABI/testing/configfs-rdma_cm).
			h := findHost(s, "gpu03")
			h.NICs[0].RoCEVersion.RDMACMMode.Value = "IB/RoCE v1"
			h.NCCLGIDIndex.Value, h.NCCLGIDIndex.Origin = -1, "NCCL_IB_GID_INDEX not set"
			h.NCCLRoCEVersion.Value, h.NCCLRoCEVersion.Origin = 1, "devices/gpu03/nccl.conf:4"
			for i := range h.NICs {
				h.NICs[i].RoCEVersion.NCCLGIDType = snapshot.Fact[string]{}
			}
		}, []string{
			"gpu03 : NCCL_IB_GID_INDEX unset (NCCL chooses), was 3 [neutral host-roce-version]",
			"gpu03 : NCCL_IB_ROCE_VERSION_NUM 1, was 2 [neutral host-roce-version]",
			"gpu03 ens1f0np0: RDMA-CM default RoCE mode IB/RoCE v1, was RoCE v2 [breaks host-roce-version]",
			"gpu03 ens1f0np0: NCCL's GID chosen by NCCL, preferring RoCE v1, RoCE v2 GIDs 1,3, was index 3, type RoCE v2 [breaks host-roce-version]",
			"gpu03 ens1f1np1: NCCL's GID chosen by NCCL, preferring RoCE v1, RoCE v2 GIDs 1,3, was index 3, type RoCE v2 [breaks host-roce-version]",
		}},
		{"NCCL_IB_GID_INDEX on an entry without a GID", func(s *snapshot.Snapshot) {
			h := findHost(s, "gpu04")
			h.NCCLGIDIndex.Value = 7
			for i := range h.NICs {
				h.NICs[i].RoCEVersion.NCCLGIDType = snapshot.Fact[string]{}
			}
		}, []string{
			"gpu04 : NCCL_IB_GID_INDEX 7, was 3 [neutral host-roce-version]",
			"gpu04 ens1f0np0: NCCL's GID index 7, no such GID, was index 3, type RoCE v2 [breaks host-roce-version]",
			"gpu04 ens1f1np1: NCCL's GID index 7, no such GID, was index 3, type RoCE v2 [breaks host-roce-version]",
		}},
		{"mlxconfig changed: CNP DSCP wrong at the next boot", func(s *snapshot.Snapshot) {
			// Values in the shape `mlxconfig -d mlx5_1 q` prints (the
			// parser's fixture collectors/hostfiles/testdata/mlxconfig/
			// constructed_default_current_next.txt); CNP_802P_PRIO_P1 not
			// printed.
			o := "devices/gpu02/mlxconfig-mlx5_1.txt:"
			findHost(s, "gpu02").NICs[1].Firmware = &snapshot.Firmware{Device: "mlx5_1", Params: []snapshot.FirmwareParam{
				{Name: "CNP_DSCP_P1", Next: "46", Current: "48", Origin: o + "16"},
				{Name: "ROCE_CC_PRIO_MASK_P1", Next: "8", Current: "8", Origin: o + "14"},
				{Name: "LINK_TYPE_P1", Next: "ETH(2)", Current: "ETH(2)", Origin: o + "13"},
				{Name: "ROCE_ADAPTIVE_ROUTING_EN", Next: "False(0)", Current: "False(0)", Origin: o + "17"},
			}}
		}, []string{
			// The clean pod's own mlxconfig-mlx5_1.txt is the old side.
			"gpu02 ens1f1np1: mlxconfig CNP_DSCP_P1 (next boot) 46, was 48 [breaks host-firmware]",
			"gpu02 ens1f1np1: mlxconfig CNP_802P_PRIO_P1 (next boot) not in mlxconfig's output, was 6 [neutral host-firmware]",
			// Bit 3, the RoCE priority's, is set in 8.
			"gpu02 ens1f1np1: mlxconfig ROCE_CC_PRIO_MASK_P1 (next boot) 8, was 255 [neutral host-firmware]",
			// LINK_TYPE_P1 and ROCE_ADAPTIVE_ROUTING_EN are the clean pod's.
		}},
		{"NCCL_IB_QPS_PER_CONNECTION back to one QP", func(s *snapshot.Snapshot) {
			// NCCL_PARAM(IbQpsPerConn, "IB_QPS_PER_CONNECTION", 1) (NVIDIA/nccl
			// src/transport/net_ib/connect.cc); the clean pod's nccl.conf sets 4.
			findHost(s, "gpu02").Applications.NCCLQPsPerConn = snapshot.Fact[int]{Value: 1, Known: true, Origin: "devices/gpu02/nccl.conf:8"}
		}, []string{
			"gpu02 : NCCL_IB_QPS_PER_CONNECTION 1 (/etc/nccl.conf), was 4 (/etc/nccl.conf) [breaks host-nccl-qps]",
		}},
		{"RDMA-CM default ToS: the DSCP written as the ToS, and a forced port", func(s *snapshot.Snapshot) {
			// default_roce_tos is 0-255 (Linux Documentation/ABI/testing/configfs-rdma_cm).
			h := findHost(s, "gpu01")
			h.NICs[0].RDMACMToS.Value = 26
			// A forced traffic_class replaces RDMA-CM's ToS too: host-tos's.
			h.NICs[1].ToS.Forced = snapshot.Fact[int]{Value: 106, Known: true, Origin: "devices/gpu01/sysfs/class/infiniband/mlx5_1/tc/1/traffic_class:1"}
			h.NICs[1].RDMACMToS.Value = 0
		}, []string{
			"gpu01 ens1f0np0: RDMA-CM default_roce_tos 26, was 106 [breaks host-rdma-cm-tos]",
			"gpu01 ens1f1np1: forced traffic_class 106, was unset [neutral ]",
			"gpu01 ens1f1np1: RDMA-CM default_roce_tos 0, replaced by the forced traffic_class, was 106 [neutral host-rdma-cm-tos]",
		}},
		{"UCX's ToS from the job environment, NVSHMEM unset, UCX's SL under a DSCP policy", func(s *snapshot.Snapshot) {
			// UCX reads the environment before ucx.conf (openucx/ucx
			// src/ucs/config/parser.c); NVSHMEM_IB_TRAFFIC_CLASS defaults to 0
			// (https://docs.nvidia.com/nvshmem/api/gen/env.html).
			a := findHost(s, "gpu01").Applications
			a.ToS[0] = snapshot.AppSetting{App: "UCX", Var: "UCX_IB_TRAFFIC_CLASS", Value: snapshot.Fact[int]{Value: 26, Known: true, Origin: "devices/gpu01/nccl-env.txt:2"},
				Layer: "environment", Knob: "UCX_IB_TRAFFIC_CLASS=26"}
			a.ToS = append(a.ToS, snapshot.AppSetting{App: "NVSHMEM", Var: "NVSHMEM_IB_TRAFFIC_CLASS", Value: snapshot.Fact[int]{Value: 0, Known: true, Origin: "devices/gpu01/nccl-env.txt"},
				Layer: "NCCL default", Knob: "NVSHMEM_IB_TRAFFIC_CLASS unset, NVSHMEM's default 0"})
			a.SL[0].Value.Value, a.SL[0].Knob = 0, "UCX_IB_SL=0"
		}, []string{
			"gpu01 : UCX ToS 26 (UCX_IB_TRAFFIC_CLASS=26; environment), was 106 (UCX_IB_TRAFFIC_CLASS=106; /etc/ucx/ucx.conf) [breaks host-app-tos]",
			"gpu01 : UCX SL 0 (UCX_IB_SL=0; /etc/ucx/ucx.conf), was 3 (UCX_IB_SL=3; /etc/ucx/ucx.conf) [neutral host-app-tos]",
			// An item the old side lacks comes after those it has.
			"gpu01 : NVSHMEM ToS 0 (NVSHMEM_IB_TRAFFIC_CLASS unset, NVSHMEM's default 0; NVSHMEM's default), was absent [breaks host-app-tos]",
		}},
		{"an ecmp-hash pair set unlike", func(s *snapshot.Snapshot) {
			v := findSwitch(s, "spine01").ECMPHash["destination-port"]
			v.Value = false
			findSwitch(s, "spine01").ECMPHash["destination-port"] = v
		}, []string{
			"spine01 : ECMP hash on destination-port off, was on [breaks ecmp-hash]",
			"spine01 : ecmp-hash source-port and destination-port set unlike (source-port on, destination-port off): symmetric hashing off, was alike [breaks ecmp-hash-seed]",
		}},
		{"NIC and devices come and go", func(s *snapshot.Snapshot) {
			h := findHost(s, "gpu02")
			nic := h.NICs[1]
			nic.Netdev, nic.Trust.Value = "ens2f0np0", "pcp"
			h.NICs = []snapshot.NIC{h.NICs[0], nic}
			gpu09 := *findHost(s, "gpu04")
			gpu09.Name = "gpu09"
			gpu09.NICs = append([]snapshot.NIC(nil), gpu09.NICs...)
			gpu09.NICs[0].MTU.Value = 1500
			s.Hosts = append(s.Hosts[1:], gpu09)
		}, []string{
			"gpu01 vanished",
			"gpu02 ens1f1np1: NIC removed [neutral ]",
			"gpu02 ens2f0np0: NIC added [neutral ]",
			"gpu02 ens2f0np0: trust pcp [breaks host-trust]",
			"gpu09 ens1f0np0: MTU 1500 [breaks mtu]",
		}},
		{"ToS and a broken value changed but still broken", func(s *snapshot.Snapshot) {
			n := &findHost(s, "gpu04").NICs[0]
			n.ToS.Effective.Value, n.ToS.Via = 26, "NCCL_IB_TC"
		}, []string{"gpu04 ens1f0np0: ToS 26 (DSCP 6) via NCCL_IB_TC, was 106 (DSCP 26) via traffic_class [breaks host-tos]"}},
		{"policy and fabric", func(s *snapshot.Snapshot) {
			s.Fabric = "pod-z"
			s.Policy.RoCE.DSCP = []int{24}
		}, []string{
			"fabric: fabric pod-z, was pod-clean [neutral ]",
			"fabric: policy RoCE DSCP 24, was 26 [neutral switch-dscp-map,host-dscp-map,host-tos]",
		}},
		{"configuration no longer readable", func(s *snapshot.Snapshot) {
			sw := findSwitch(s, "spine02")
			*sw = snapshot.Switch{Name: sw.Name, Role: sw.Role, PortGroups: []snapshot.PortGroup{}, ECMPHash: map[string]snapshot.Fact[bool]{},
				PortAdaptiveRouting: []snapshot.PortValue[bool]{}, MTU: []snapshot.PortValue[int]{}, NotCollected: []string{}}
		}, []string{"spine02 : configuration not readable, was read from devices/spine02/nv-config-commands.txt [neutral ]"}},
		// Links: link-mtu's rule judges each side; the end to raise is
		// the device that breaks it, the other end's change is neutral.
		{"uplink MTUs differ below RoCE's packets", func(s *snapshot.Snapshot) {
			l := findLink(t, s, "spine01", "swp1")
			l.B.MTU.Value, l.B.MTU.Origin = 4000, "devices/spine01/nv-config.yaml:21"
		}, []string{
			"leaf01 swp31: link to spine01:swp1: 9216 here, 4000 at spine01:swp1, was 9216 here, 9216 at spine01:swp1 [neutral link-mtu]",
			"spine01 swp1: link to leaf01:swp31: 4000 here, 9216 at leaf01:swp31, was 9216 here, 9216 at leaf01:swp31 [breaks link-mtu]",
		}},
		// 9000 against 9216 drops nothing the hosts (at 9000) send: link-mtu
		// says so as info, which breaks nothing.
		{"uplink MTUs differ above what the hosts send", func(s *snapshot.Snapshot) {
			l := findLink(t, s, "spine01", "swp1")
			l.B.MTU.Value, l.B.MTU.Origin = 9000, "devices/spine01/nv-config.yaml:21"
		}, []string{
			"leaf01 swp31: link to spine01:swp1: 9216 here, 9000 at spine01:swp1, was 9216 here, 9216 at spine01:swp1 [neutral link-mtu]",
			"spine01 swp1: link to leaf01:swp31: 9000 here, 9216 at leaf01:swp31, was 9216 here, 9216 at leaf01:swp31 [neutral link-mtu]",
		}},
		{"a host cable moved to the other NIC", func(s *snapshot.Snapshot) {
			l := findLink(t, s, "leaf01", "swp1")
			l.A.Port = "ens1f1np1" // gpu01 sorts before leaf01: A is the host end
		}, []string{
			"gpu01 ens1f0np0: link to leaf01:swp1 disappeared [neutral link-mtu]",
			"gpu01 ens1f1np1: link to leaf01:swp1 appeared, seen from both ends; MTU 9000 here, 9216 at leaf01:swp1 [neutral link-mtu]",
			"leaf01 swp1: link to gpu01:ens1f1np1, was to gpu01:ens1f0np0 (the port's cable moved); MTU 9216 here, 9000 at gpu01:ens1f1np1 [neutral link-mtu]",
		}},
		{"a host above its switch port", func(s *snapshot.Snapshot) {
			l := findLink(t, s, "leaf02", "swp2")
			l.B.MTU.Value = 4200 // leaf02 sorts after gpu02: B is the switch end
		}, []string{
			"gpu02 ens1f1np1: link to leaf02:swp2: 9000 here, 4200 at leaf02:swp2, was 9000 here, 9216 at leaf02:swp2 [neutral link-mtu]",
			"leaf02 swp2: link to gpu02:ens1f1np1: 4200 here, 9000 at gpu02:ens1f1np1, was 9216 here, 9000 at gpu02:ens1f1np1 [breaks link-mtu]",
		}},
		{"one end stops reporting a link", func(s *snapshot.Snapshot) {
			l := findLink(t, s, "spine02", "swp2")
			l.B.Seen, l.OneSided = "", true
		}, []string{
			"leaf02 swp32: link to spine02:swp2 seen from one end only, was seen from both ends [neutral ]",
			"spine02 swp2: link to leaf02:swp32 seen from one end only, was seen from both ends [neutral ]",
		}},
		{"origin alone is no drift", func(s *snapshot.Snapshot) {
			findSwitch(s, "leaf01").RoCE.Mode.Origin = "devices/leaf01/nv-config.yaml:1"
			findHost(s, "gpu01").NICs[0].Trust.Origin = "elsewhere:3"
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old, cur := mutate(t, tc.mutate)
			// The mutations stay within what a snapshot can say.
			snaptest.Validate(t, snapshot.SnapshotSchemaFile, snaptest.Write(t, cur))
			got := changeLines(drift.Diff(old, cur, cur.Policy.Inventory()))
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestDiffWithoutLinks: a snapshot of a qoslint that recorded no links
// (no "topology") still reads and compares; its links are not compared,
// and the drift notes so instead of reporting every link as new.
func TestDiffWithoutLinks(t *testing.T) {
	data, err := os.ReadFile("../../model/snapshot/testdata/clean-pod.nolinks.snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	old, err := snapshot.Read("clean-pod.nolinks.snapshot.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if old.Topology != nil {
		t.Fatalf("a snapshot without links read as %+v", old.Topology)
	}
	cur := snaptest.Take(t, "../../examples/clean-pod")
	d := drift.Diff(old, cur, cur.Policy.Inventory())
	if d.HasDrift() {
		t.Errorf("links not recorded on one side made drift: %v", changeLines(d))
	}
	want := "links were not recorded in the old snapshot (taken by a qoslint that did not record them): links and link-mtu are not compared"
	// The fixture predates the optional sections too (TestDiffOldSections).
	if len(d.Notes) != 1+len(snapshot.AllSections) || d.Notes[0] != want {
		t.Errorf("notes %q, want [%q] first", d.Notes, want)
	}
	if back := drift.Diff(cur, old, cur.Policy.Inventory()); back.HasDrift() || len(back.Notes) != 1+len(snapshot.AllSections) || !strings.Contains(back.Notes[0], "the new snapshot") {
		t.Errorf("new side without links: drift %v, notes %q", changeLines(back), back.Notes)
	}
}

// TestDiffSelf: a snapshot compared with itself never drifts, for every
// example (the input-errors fabric included).
func TestDiffSelf(t *testing.T) {
	for _, f := range fabrics {
		s := snaptest.Take(t, fixture.Dir(t, f.dir))
		if d := drift.Diff(s, s, s.Policy.Inventory()); d.HasDrift() {
			t.Errorf("%s drifts from itself: %v", f.name, changeLines(d))
		}
	}
}

var fabrics = []struct{ name, dir string }{
	{"clean-pod", "../../examples/clean-pod"},
	{"broken-pod", "../../examples/broken-pod"},
	{"input-errors", "../../render/testdata/input-errors"},
}

func BenchmarkDiff(b *testing.B) {
	o, n := snaptest.Take(b, "../../examples/clean-pod"), snaptest.Take(b, "../../examples/broken-pod")
	p := n.Policy.Inventory()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		drift.Diff(o, n, p)
	}
}

// stripSections is a current snapshot as a qoslint that predates the
// optional sections wrote it: without "sections", the policy's "pfc", and
// the switches' and port groups' fields of those sections.
func stripSections(t *testing.T, s *snapshot.Snapshot) *snapshot.Snapshot {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(snaptest.Write(t, s), &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "sections")
	delete(doc["policy"].(map[string]any), "pfc")
	for _, sw := range doc["switches"].([]any) {
		m := sw.(map[string]any)
		delete(m, "flow_control")
		delete(m, "hash_seed")
		delete(m, "traffic_pools")
		for _, g := range m["port_groups"].([]any) {
			delete(g.(map[string]any), "cable_length")
			delete(g.(map[string]any), "pcp_map")
		}
	}
	for _, h := range doc["hosts"].([]any) {
		m := h.(map[string]any)
		delete(m, "nccl_ib_gid_index")
		delete(m, "nccl_ib_roce_version_num")
		delete(m, "applications")
		for _, n := range m["nics"].([]any) {
			delete(n.(map[string]any), "roce_version")
			delete(n.(map[string]any), "firmware")
			delete(n.(map[string]any), "rdma_cm_default_roce_tos")
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	old, err := snapshot.Read("old.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return old
}

// TestDiffOldSections: a snapshot without the optional sections knows
// nothing of their values, so a value that changed, or breaks the policy,
// on the other side is no drift; the notes say what was not compared.
// Values outside the sections are compared as before.
func TestDiffOldSections(t *testing.T) {
	base, cur := mutate(t, func(s *snapshot.Snapshot) {
		findSwitch(s, "leaf01").Flow.Watchdog = []snapshot.PortValue[bool]{}
		findSwitch(s, "leaf02").PortGroups[0].CableLength.Value = 10
		findSwitch(s, "spine01").Flow.LinkPause = []snapshot.PortValue[string]{{Ports: "swp1", Origin: "x:1"}}
		for _, n := range []string{"spine01", "spine02"} {
			findSwitch(s, n).HashSeed = &snapshot.Fact[int64]{Value: 7, Known: true, Origin: "x:2"}
		}
		findSwitch(s, "spine02").PortGroups[0].Trust.Value = "l2"
		findSwitch(s, "spine02").PortGroups[0].PCP[3].Value = 5
		findHost(s, "gpu01").NICs[0].RoCEVersion.RDMACMMode.Value = "IB/RoCE v1"
		findHost(s, "gpu02").NCCLGIDIndex.Value = 0
		findHost(s, "gpu03").NICs[0].Firmware = &snapshot.Firmware{Params: []snapshot.FirmwareParam{{Name: "LINK_TYPE_P1", Next: "IB(1)", Origin: "x:5"}}}
		findHost(s, "gpu04").Applications.NCCLQPsPerConn.Value = 1
		findHost(s, "gpu04").NICs[0].RDMACMToS.Value = 0
		findHost(s, "gpu01").Applications.ToS[0].Value.Value = 26
		findHost(s, "gpu01").Applications.ToS[0].Knob = "UCX_IB_TRAFFIC_CLASS=26"
		findSwitch(s, "leaf02").TrafficPools = []snapshot.TrafficPool{{Name: "default-lossy",
			MemoryPercent: snapshot.Fact[int]{Value: 120, Known: true, Origin: "x:3"}, SwitchPriorities: snapshot.Fact[[]int]{Value: []int{3}, Known: true, Origin: "x:4"}}}
	})
	old := stripSections(t, base)
	if sw := old.Switches[0]; len(old.Sections) != 0 || sw.Flow != nil || sw.HashSeed != nil || sw.TrafficPools != nil || sw.PortGroups[0].CableLength != nil || sw.PortGroups[0].PCP != nil {
		t.Fatalf("the stripped snapshot still carries sections: %v", old.Sections)
	}
	if got := old.Policy.Inventory().PFC.CableLength; got != 100 {
		t.Errorf("an old snapshot's pfc.cable_length reads as %d, want the default 100", got)
	}
	want := []string{"spine02 swp1-32: trust l2, was both [breaks switch-trust]"}
	notes := []string{
		"PFC cable lengths, PFC watchdogs and link pause were not recorded in the %s snapshot (taken by a qoslint that did not record them): pfc-cable-length, pfc-watchdog and link-pause are not compared on them",
		"ECMP hash seeds were not recorded in the %s snapshot (taken by a qoslint that did not record them): ecmp-hash-seed is not compared on them",
		"802.1p (PCP) maps were not recorded in the %s snapshot (taken by a qoslint that did not record them): switch-pcp-map is not compared on them",
		"traffic pools were not recorded in the %s snapshot (taken by a qoslint that did not record them): switch-buffer-pool is not compared on them",
		"GID types, RDMA-CM RoCE modes and NCCL's GID parameters were not recorded in the %s snapshot (taken by a qoslint that did not record them): host-roce-version is not compared on them",
		"NIC firmware settings (mlxconfig) were not recorded in the %s snapshot (taken by a qoslint that did not record them): host-firmware is not compared on them",
		"NCCL's QPs per connection and control-message class, UCX and NVSHMEM ToS and SL, and RDMA-CM default ToS were not recorded in the %s snapshot (taken by a qoslint that did not record them): host-nccl-qps, host-nccl-fifo-tc, host-app-tos and host-rdma-cm-tos are not compared on them",
	}
	for _, tc := range []struct {
		side     string
		old, new *snapshot.Snapshot
		want     []string
	}{{"old", old, cur, want}, {"new", cur, old, []string{"spine02 swp1-32: trust both, was l2 [repairs switch-trust]"}}} {
		d := drift.Diff(tc.old, tc.new, cur.Policy.Inventory())
		if got := changeLines(d); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s side without sections: got\n%s\nwant\n%s", tc.side, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
		var wantNotes []string
		for _, n := range notes {
			wantNotes = append(wantNotes, fmt.Sprintf(n, tc.side))
		}
		if strings.Join(d.Notes, "\n") != strings.Join(wantNotes, "\n") {
			t.Errorf("%s side without sections: notes %q, want %q", tc.side, d.Notes, wantNotes)
		}
	}
	// With the sections on both sides the same change is drift.
	if d := drift.Diff(base, cur, cur.Policy.Inventory()); d.Summary.Breaks < 12 {
		t.Errorf("with the sections on both sides: %v", changeLines(d))
	}
}

// TestDiffPCPMap: under a PCP policy, a port group trusting l2 that maps
// the RoCE priority's PCP elsewhere breaks switch-pcp-map; the same change
// on ports trusting both is neutral (they classify RoCE by DSCP).
func TestDiffPCPMap(t *testing.T) {
	old, cur := mutate(t, func(s *snapshot.Snapshot) {
		findSwitch(s, "leaf01").PortGroups[0].PCP[3].Value = 0
		findSwitch(s, "leaf02").PortGroups[0].PCP[3].Value = 0
	})
	// The default-global map's entry, as "nv set qos mapping default-global
	// pcp 0 switch-priority 4" sets one (CumulusNetworks/docs content/
	// cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md).
	findSwitch(cur, "leaf01").PortGroups[0].PCP[3].Origin = "devices/leaf01/nv-config.yaml:30"
	for _, s := range []*snapshot.Snapshot{old, cur} {
		findSwitch(s, "leaf01").PortGroups[0].Trust.Value = "l2"
	}
	p := cur.Policy.Inventory()
	p.Trust = "pcp"
	want := []string{
		"leaf01 swp1-32: PCP 3 → switch-priority 0 on ports trusting l2, was 3 [breaks switch-pcp-map]",
		"leaf02 swp1-32: PCP 3 → switch-priority 0, was 3 [neutral switch-pcp-map]",
	}
	if got := changeLines(drift.Diff(old, cur, p)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
