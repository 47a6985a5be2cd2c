package inventory

import (
	"slices"
	"strings"
	"testing"
)

const limitInventory = `fabric: pod
switches:
  - name: spine01
    role: spine
  - name: spine02
    role: spine
  - name: leaf01
  - name: leaf02
  - name: border01
    role: border
hosts:
  - name: gpu01
  - name: gpu02
  - name: gpu03
`

func limitInv(t testing.TB) *Inventory {
	t.Helper()
	inv, err := Parse("inventory.yaml", []byte(limitInventory))
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

// TestParseLimit follows the pattern table of Ansible's "Patterns: targeting
// hosts and groups" (ansible/ansible-documentation docs/docsite/rst/
// inventory_guide/intro_patterns.rst), with this inventory's groups in
// place of webservers, dbservers, atlanta and staging.
func TestParseLimit(t *testing.T) {
	inv := limitInv(t)
	all := []string{"border01", "gpu01", "gpu02", "gpu03", "leaf01", "leaf02", "spine01", "spine02"}
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{"all", all},                   // "All hosts: all (or *)"
		{"*", all},                     // "all (or *)"
		{"leaf01", []string{"leaf01"}}, // "One host: host1"
		{"leaf01:gpu02", []string{"gpu02", "leaf01"}},                      // "host1:host2"
		{"leaf01,gpu02", []string{"gpu02", "leaf01"}},                      // "(or host1,host2)"
		{"spine", []string{"spine01", "spine02"}},                          // "One group: webservers"
		{"leaf:spine", []string{"leaf01", "leaf02", "spine01", "spine02"}}, // "webservers:dbservers"
		{"switches:!leaf", []string{"border01", "spine01", "spine02"}},     // "webservers:!atlanta"
		{"leaf*:&leaf", []string{"leaf01", "leaf02"}},                      // "webservers:&staging"
		{"hosts", []string{"gpu01", "gpu02", "gpu03"}},
		{"gpu0[12]", []string{"gpu01", "gpu02"}},
		{"gpu0?,border", []string{"border01", "gpu01", "gpu02", "gpu03"}},
		// "webservers:dbservers:&staging:!phoenix": the order is "1. : and
		// , 2. & 3. !" wherever each term is written.
		{"!gpu01:hosts:&gpu0*", []string{"gpu02", "gpu03"}},
		{"hosts:spine:&gpu*:!gpu03", []string{"gpu01", "gpu02"}},
		// Only exclusions start from all (manager.py order_patterns).
		{"!hosts", []string{"border01", "leaf01", "leaf02", "spine01", "spine02"}},
		{"&spine", []string{"spine01", "spine02"}},
		{" leaf01 , gpu01 ", []string{"gpu01", "leaf01"}},
	} {
		l, err := ParseLimit(inv, tc.pattern)
		if err != nil {
			t.Errorf("%q: %v", tc.pattern, err)
			continue
		}
		if got := l.Names(); !slices.Equal(got, tc.want) {
			t.Errorf("%q selects %v, want %v", tc.pattern, got, tc.want)
		}
	}
}

// TestParseLimitErrors: a term that matches nothing, or that uses syntax
// qoslint does not support, is an error naming it.
func TestParseLimitErrors(t *testing.T) {
	inv := limitInv(t)
	for _, tc := range []struct{ pattern, want string }{
		{"leaf09", `"leaf09" matches no device name or group of inventory.yaml`},
		{"leaf01,nosuch*", `"nosuch*" matches no device`},
		{"leaf01:!nosuch", `"nosuch" matches no device`},
		{"super-spine", `"super-spine" matches no device`},
		{"leaf01:!leaf01", `--limit "leaf01:!leaf01" selects no device of inventory.yaml`},
		{"hosts:&spine", `selects no device`},
		{"", `no pattern`},
		{",:", `no pattern`},
		{"!", `'!' or '&' without a pattern`},
		{"~leaf.*", `regular expressions (~) are not supported`},
		{"@retry.txt", `host files (@file) are not supported`},
		{"spine[0]", `group subscripts are not supported`},
		{"gpu[", `bad glob`},
		{"leaf01!gpu01", `'!' and '&' go only at the start`},
	} {
		_, err := ParseLimit(inv, tc.pattern)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.pattern, err, tc.want)
		}
	}
}

func TestLimitApply(t *testing.T) {
	inv := limitInv(t)
	var none *Limit
	if none.Apply(inv) != inv || !none.Has("anything") || none.Excludes("leaf01") {
		t.Error("a nil Limit must select everything")
	}
	l, err := ParseLimit(inv, "leaf01,gpu02")
	if err != nil {
		t.Fatal(err)
	}
	sub := l.Apply(inv)
	if len(sub.Switches) != 1 || sub.Switches[0].Name != "leaf01" || len(sub.Hosts) != 1 || sub.Hosts[0].Name != "gpu02" {
		t.Errorf("Apply kept %v and %v", sub.Switches, sub.Hosts)
	}
	if len(inv.Switches) != 5 {
		t.Error("Apply changed the inventory it was given")
	}
	if !l.Excludes("spine01") || l.Excludes("leaf01") || l.Excludes("(fabric)") {
		t.Error("Excludes must name only inventory devices outside the limit")
	}
	want := "limited run (--limit leaf01,gpu02): 2 of 8 devices checked (gpu02, leaf01)"
	if n := l.Note(); !strings.HasPrefix(n, want) {
		t.Errorf("note %q, want it to start with %q", n, want)
	}
}

// FuzzParseLimit: any pattern gives a selection of inventory devices or an
// error, never a panic, and the same answer twice.
func FuzzParseLimit(f *testing.F) {
	for _, s := range []string{"all", "leaf*:&leaf:!leaf02", "gpu0[1-2],spine", "~x", "@f", "spine[0]", "!", "&", "a[", "::,,"} {
		f.Add(s)
	}
	inv := limitInv(f)
	f.Fuzz(func(t *testing.T, pattern string) {
		l, err := ParseLimit(inv, pattern)
		l2, err2 := ParseLimit(inv, pattern)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("%q: two answers", pattern)
		}
		if err != nil {
			return
		}
		names := l.Names()
		if len(names) == 0 || !slices.Equal(names, l2.Names()) {
			t.Fatalf("%q: selection %v / %v", pattern, names, l2.Names())
		}
		for _, n := range names {
			if !l.known[n] {
				t.Fatalf("%q selects %q, not a device", pattern, n)
			}
		}
	})
}
