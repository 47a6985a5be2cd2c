package hostmodel

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
)

// The per-host note lists the applications the capture shows marking
// RoCE, in name order, and what each puts in the ToS byte.
func TestAppsNote(t *testing.T) {
	mustUCX := func(s string) *hostfiles.UCXConf {
		c, err := hostfiles.ParseUCXConf("devices/h/ucx.conf", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	mustEnv := func(s string) *hostfiles.NCCLEnv {
		e, err := hostfiles.ParseNCCLEnv("devices/h/nccl-env.txt", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	nic := func(tos int, gids bool) *collectors.NICCapture {
		n := &collectors.NICCapture{Netdev: "eth0", IBDev: "mlx5_0", Port: 1}
		if tos >= 0 {
			n.RoCEToS = &hostfiles.RoCEToS{ToS: tos, File: "devices/h/sysfs/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"}
		}
		if gids {
			n.GIDTypes = &hostfiles.GIDTypes{Dir: "devices/h/sysfs/class/infiniband/mlx5_0/ports/1/gid_attrs/types", ByIndex: map[int]hostfiles.RoCEType{}}
		}
		return n
	}
	tests := []struct {
		name string
		in   collectors.HostCapture
		want string // "" for no note
	}{
		{name: "nothing collected", in: collectors.HostCapture{NICs: []*collectors.NICCapture{nic(-1, false)}}},
		{name: "UCX auto and RDMA-CM", in: collectors.HostCapture{UCX: mustUCX("UCX_IB_SL=3\n"), NICs: []*collectors.NICCapture{nic(106, true)}},
			want: "applications marking RoCE: RDMA-CM (ToS 106), UCX (auto → 106)"},
		{name: "all four", in: collectors.HostCapture{NCCL: &hostfiles.NCCLConf{File: "devices/h/nccl.conf", Vars: map[string]hostfiles.NCCLVar{"NCCL_IB_TC": {Value: "106", Line: 1}}},
			NCCLEnv: mustEnv("HOME=/root\nNVSHMEM_IB_TRAFFIC_CLASS=104\nUCX_IB_TRAFFIC_CLASS=26\n"), NICs: []*collectors.NICCapture{nic(0, true)}},
			want: "applications marking RoCE: NCCL (ToS 106), NVSHMEM (ToS 104), RDMA-CM (ToS 0), UCX (ToS 26)"},
		{name: "NCCL unset", in: collectors.HostCapture{NCCL: &hostfiles.NCCLConf{File: "devices/h/nccl.conf", Vars: map[string]hostfiles.NCCLVar{}}, NICs: []*collectors.NICCapture{nic(-1, false)}},
			want: "applications marking RoCE: NCCL (unset → ToS 0)"},
		// An InfiniBand-only host marks no RoCE: its SLs are the IB checks'.
		{name: "no RoCE NIC", in: collectors.HostCapture{NCCL: &hostfiles.NCCLConf{File: "devices/h/nccl.conf", Vars: map[string]hostfiles.NCCLVar{}}, UCX: mustUCX("UCX_IB_SL=3\n")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Name = "h"
			h := Host(&tt.in)
			got := ""
			for _, n := range h.Notes {
				if strings.HasPrefix(n.Msg, "applications marking RoCE") {
					got = n.Msg
				}
			}
			if got != tt.want {
				t.Errorf("note %q, want %q", got, tt.want)
			}
		})
	}
}

// default_roce_tos missing next to a captured port is a note; a port
// whose sysfs was not captured at all is not.
func TestRDMACMNote(t *testing.T) {
	in := &collectors.HostCapture{Name: "h", NICs: []*collectors.NICCapture{
		{Netdev: "eth0", IBDev: "mlx5_0", Port: 1, GIDTypes: &hostfiles.GIDTypes{ByIndex: map[int]hostfiles.RoCEType{}}},
		{Netdev: "eth1", IBDev: "mlx5_1", Port: 1},
	}}
	var got []string
	for _, n := range Host(in).Notes {
		if strings.Contains(n.Msg, "default_roce_tos") {
			got = append(got, n.Msg)
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "RDMA-CM's default_roce_tos not collected for eth0:") {
		t.Errorf("notes %q", got)
	}
}
