package commands

import (
	"strings"
	"testing"
)

// lint --k8s DIR judges a folder of manifests kept outside the fabric
// directory, citing its files under the path given.
func TestLintK8sFlag(t *testing.T) {
	code, out, _ := run("lint", "../../../examples/k8s-pod", "--k8s", "../../../examples/k8s-broken/k8s")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{"k8s-workload-tos", "evidence: ../../../examples/k8s-broken/k8s/inference.yaml:21", "NCCL_IB_TC=26 is the DSCP, not the ToS"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code, out, _ := run("lint", "../../../examples/k8s-pod"); code != 0 || !strings.Contains(out, "0 findings") {
		t.Errorf("k8s-pod: exit %d\n%s", code, out)
	}
}
