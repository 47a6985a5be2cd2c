package commands

import (
	"strings"
	"testing"
)

// --path-prefix on lint, audit and demo puts the fabric's folder of the
// repository before every SARIF artifact URI; outside the repository it is
// an input error, found before any device is dialled.
func TestPathPrefixFlag(t *testing.T) {
	for _, args := range [][]string{
		{"lint", "../../../examples/broken-pod", "-f", "sarif", "--path-prefix", "fabrics/broken-pod"},
		{"demo", "broken-pod", "--latency", "0s", "-f", "sarif", "--path-prefix", "fabrics/broken-pod"},
	} {
		code, out, errOut := run(args...)
		if code != 1 || !strings.Contains(out, `"uri": "fabrics/broken-pod/devices/leaf01/nv-config.yaml"`) ||
			strings.Contains(out, `"uri": "devices/`) {
			t.Errorf("%s: exit %d, URIs not below the prefix:\n%.600s\n%s", args[0], code, out, errOut)
		}
	}
	for _, args := range [][]string{
		{"lint", "../../../examples/clean-pod", "-f", "sarif", "--path-prefix", "../elsewhere"},
		{"audit", "--inventory", "../../../examples/clean-pod/inventory.hcl", "-f", "sarif", "--path-prefix", "/abs/pod"},
		{"demo", "clean-pod", "-f", "sarif", "--path-prefix", "/abs/pod"},
	} {
		if code, _, errOut := run(args...); code != 2 || !strings.Contains(errOut, "--path-prefix") {
			t.Errorf("%s with %s: exit %d: %s", args[0], args[len(args)-1], code, errOut)
		}
	}
}
