package checks

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/fixture"
)

// examples/spectrumx-pod (its README) lints clean: lossy-multi-tc with
// packet trimming and adaptive routing on SN5600 switches, two of them in
// the commands form with their platform in the inventory, NICs configured
// by a spectrumXOptimized profile ConfigMap. Each defect below, planted in
// a copy, is judged by the check its README names, so the clean verdict is
// not a silent pass.
func TestSpectrumXPod(t *testing.T) {
	const src = "../examples/spectrumx-pod"
	if got := lintDir(t, src); len(got) != 0 {
		t.Fatalf("spectrumx-pod: %q, want no findings", got)
	}
	for _, tc := range []struct {
		name, file, old, new string
		want                 []string
	}{
		// "The Spectrum-4 switch does not support adaptive routing on 800G links".
		{"800G uplinks on a Spectrum-4", "devices/leaf01/nv-config.yaml", "          speed: 400G\n", "          speed: 800G\n",
			[]string{"leaf01 adaptive-routing error"}},
		// The commands form: the inventory's platform SN5600 names the ASIC.
		{"800G on the commands-form leaf", "devices/leaf02/nv-config-commands.txt", "swp1-32 link speed 400G", "swp1-32 link speed 800G",
			[]string{"leaf02 adaptive-routing error"}},
		{"one uplink without adaptive routing", "devices/leaf02/nv-config-commands.txt",
			"nv set interface swp31-32 router adaptive-routing state enabled", "nv set interface swp31 router adaptive-routing state enabled",
			[]string{"leaf02 adaptive-routing error"}},
		// lossy-multi-tc-host-group is the downlinks' profile, -network-group the uplinks'.
		{"remark profiles swapped", "devices/leaf01/nv-config.yaml", "      swp31-32:\n        qos:\n          remark:\n            profile: lossy-multi-tc-network-group",
			"      swp31-32:\n        qos:\n          remark:\n            profile: lossy-multi-tc-host-group",
			[]string{"leaf01 packet-trim-remark warning"}},
		// "do not configure ... adaptive routing ... on the service port".
		{"adaptive routing on the service port", "devices/spine02/nv-config-commands.txt", "nv set interface swp1-32 type swp\n",
			"nv set interface swp1-32 type swp\nnv set interface swp65 router adaptive-routing state enabled\n",
			[]string{"spine02 packet-trim-service-port error"}},
		{"the switch trims with another DSCP than configured", "devices/spine01/nv-show-packet-trim.txt", "dscp                     11", "dscp                     10",
			[]string{"spine01 packet-trim warning"}},
		// DSCP 26 is traffic class 4 under lossy-multi-tc: no ECN, not trimmed.
		{"the job marks the lossless-era ToS 106", "k8s/training.yaml", `NCCL_IB_TC: "24"`, `NCCL_IB_TC: "106"`,
			[]string{"gpu01 k8s-workload-tos error", "gpu02 k8s-workload-tos error"}},
		// RA2.2's lossless PFC on priority 3 in a lossy fabric.
		{"the profile's PFC on priority 3", "k8s/nic-configuration.yaml", `value: "00000000"`, `value: "00010000"`,
			[]string{"gpu01 k8s-nic-template warning", "gpu02 k8s-nic-template warning"}},
		{"a NIC pauses RoCE in a lossy fabric", "devices/gpu02/mlnx_qos-ens1f1np1.txt",
			"\tenabled     0   0   0   0   0   0   0   0", "\tenabled     0   0   0   1   0   0   0   0",
			[]string{"gpu02 host-pfc warning"}},
		{"roceOptimized beside spectrumXOptimized", "k8s/nic-configuration.yaml", "    spectrumXOptimized:\n",
			"    roceOptimized:\n      enabled: true\n    spectrumXOptimized:\n",
			[]string{"gpu01 k8s-nic-template error", "gpu02 k8s-nic-template error"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Regular files: the example links its unchanged files to
			// clean-pod's, and the edit must not write through a link.
			dir := fixture.Build(t, src, nil)
			p := filepath.Join(dir, tc.file)
			b, err := os.ReadFile(p)
			if err != nil || !strings.Contains(string(b), tc.old) {
				t.Fatalf("%s lacks %q (%v)", tc.file, tc.old, err)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), tc.old, tc.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			got := slices.Compact(lintDir(t, dir))
			if !slices.Equal(got, tc.want) {
				t.Errorf("findings %q, want %q", got, tc.want)
			}
		})
	}
}
