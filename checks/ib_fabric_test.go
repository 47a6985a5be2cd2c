package checks

// The InfiniBand pod the ib-* check tests edit, and the tests that span
// those checks: the examples, the SWE fix targets, the policy's input error.

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
)

// ibPod replaces the fabric with examples/ib-pod (real-format ibstat,
// smpquery and opensm.conf files; sources in its README), so the IB
// cases start from a clean InfiniBand fabric.
func ibPod() edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		t.Helper()
		for k := range fsys {
			delete(fsys, k)
		}
		root := os.DirFS("../examples/ib-pod")
		err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(root, p)
			fsys[p] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

const (
	ibSL2VLFile = "devices/gpu02/smpquery-sl2vl-mlx5_0-1.txt"
	ibVLArbFile = "devices/gpu01/smpquery-vlarb-mlx5_0-1.txt"
	ibPIFile    = "devices/gpu01/smpquery-portinfo-mlx5_0-1.txt"
	ibSMConf    = "devices/sm01/opensm.conf"
	ibRow       = "ports: in  0, out  0: | 0| 1|"
	swSL2VL1    = "devices/sm01/smpquery-sl2vl-lid4-1.txt"
	swPI1       = "devices/sm01/smpquery-portinfo-lid4-1.txt"
	swVLArb2    = "devices/sm01/smpquery-vlarb-lid4-2.txt"
)

const (
	ibUCXConf   = "devices/gpu01/ucx.conf"
	ibQoSPolicy = "devices/sm01/qos-policy.conf"
	ibEnv       = "devices/gpu01/nccl-env.txt"
)

// ibMapGPU01 places gpu01 on the Kubernetes node labelled pool=gpu.
func ibMapGPU01() edit {
	return replace("inventory.yaml", "{name: gpu01, address: 198.51.100.101}", "{name: gpu01, address: 198.51.100.101, k8s_node: node-gpu01, k8s_labels: {pool: gpu}}")
}

// The shipped InfiniBand examples: ib-pod lints clean, ib-broken gives
// the 8 errors its README lists.
func TestIBExamples(t *testing.T) {
	want := map[string][]string{
		"ib-pod": nil,
		"ib-broken": {
			"gpu01 ib-sl-consistency error", "gpu01 ib-sl2vl error", // UCX_IB_SL=3
			"gpu01 ib-sm-consistency error", "gpu01 ib-vlarb error",
			"gpu02 ib-sl2vl error", "gpu02 ib-sm-consistency error",
			"sm01 ib-sl-consistency error", "sm01 ib-sl2vl error", "sm01 ib-sl2vl error", "sm01 ib-sm-consistency error",
		},
	}
	for dir, w := range want {
		if got := lintDir(t, "../examples/"+dir); !slices.Equal(got, w) {
			t.Errorf("%s: %q, want %q", dir, got, w)
		}
	}
}

// A switch whose drop comes from qos_swe_sl2vl itself gets that line
// fixed in place; a switch port that only differs from it, a reload. The
// swe fix leaves qos_ca_sl2vl alone.
func TestIBSwitchFixTargetsSWE(t *testing.T) {
	good := "qos_swe_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7"
	f := fabric(t, ibPod(), replace(ibSMConf, good, "qos_swe_sl2vl 0,15,2,3,4,5,6,7,8,9,10,11,12,13,14,7"),
		replace(swSL2VL1, "ports: in  2, out  1: | 0| 1|", "ports: in  2, out  1: | 0|15|"))
	fs := ibSL2VL.Run(f)
	if len(fs) != 1 || len(fs[0].Changes) != 2 {
		t.Fatalf("%+v", fs)
	}
	c := fs[0].Changes[0]
	if c.Kind != OpenSMConf || c.Device != "sm01" || c.Path[0] != "qos_swe_sl2vl" || "qos_swe_sl2vl "+c.Value != good || !c.HasOld {
		t.Errorf("%+v", c)
	}
	f = fabric(t, ibPod(), replace(swSL2VL1, "ports: in  2, out  1: | 0| 1|", "ports: in  2, out  1: | 0|15|"))
	if fs := ibSL2VL.Run(f); len(fs) != 1 || len(fs[0].Changes) != 1 || fs[0].Changes[0].Kind != OpenSMReload {
		t.Errorf("port-only defect: %+v", fs)
	}
	// qos_swe_vlarb_low's weight-0 entry for VL 1 gets 64 credits, in
	// place.
	f = fabric(t, ibPod(), replace(ibSMConf, "qos_swe_vlarb_low 0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64\n", "qos_swe_vlarb_low 0:0,1:0,2:128\n"),
		replace(swVLArb2, "WEIGHT: |0x0 |0x40|", "WEIGHT: |0x0 |0x0 |"))
	var got []Change
	for _, fd := range ibVLArb.Run(f) {
		if fd.Interface == "ib-leaf01 (lid 4) port 2" {
			got = fd.Changes
		}
	}
	if len(got) != 2 || got[0].Path[0] != "qos_swe_vlarb_low" || got[0].Value != "0:0,1:64,2:128" || !got[0].HasOld {
		t.Errorf("%+v", got)
	}
}

// A policy file OpenSM could not parse is an input error at its line.
func TestIBQoSPolicyInputError(t *testing.T) {
	fsys := loadBase(t)
	ibPod()(t, fsys)
	write(ibQoSPolicy, "qos-ulps\n default : 16\nend-qos-ulps\n")(t, fsys)
	inv, err := inventory.Parse("inventory.yaml", fsys["inventory.yaml"].Data)
	if err != nil {
		t.Fatal(err)
	}
	c := offline.CollectFS(fsys, inv)
	if len(c.Errors) != 1 || !strings.Contains(c.Errors[0].Error(), "devices/sm01/qos-policy.conf:2: SL \"16\": want 0-15") {
		t.Errorf("errors = %v", c.Errors)
	}
}
