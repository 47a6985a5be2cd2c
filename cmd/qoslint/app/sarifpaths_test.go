package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/sim"
)

// sarifURIs are the artifact URIs of a SARIF log, results' and
// notifications' alike, unescaped to paths; notes counts the
// notifications.
func sarifURIs(t *testing.T, data []byte) (uris []string, notes int) {
	t.Helper()
	type loc struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI       string `json:"uri"`
				URIBaseID string `json:"uriBaseId"`
			} `json:"artifactLocation"`
		} `json:"physicalLocation"`
	}
	var log struct {
		Runs []struct {
			Invocations []struct {
				Notifications []struct {
					Locations []loc `json:"locations"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []loc  `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("not a one-run SARIF log with an invocation: %v\n%.400s", err, data)
	}
	var locs []loc
	for _, r := range log.Runs[0].Results {
		if len(r.Locations) == 0 {
			t.Errorf("result of %s has no location", r.RuleID)
		}
		locs = append(locs, r.Locations...)
	}
	for _, n := range log.Runs[0].Invocations[0].Notifications {
		locs = append(locs, n.Locations...)
		notes++
	}
	for _, l := range locs {
		al := l.PhysicalLocation.ArtifactLocation
		p, err := url.PathUnescape(al.URI)
		if err != nil || al.URIBaseID != "%SRCROOT%" {
			t.Errorf("uri %q (base %q)", al.URI, al.URIBaseID)
			continue
		}
		uris = append(uris, p)
	}
	return uris, notes
}

// lintSARIF runs lint -f sarif on dir.
func lintSARIF(t *testing.T, dir, prefix string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Lint(&out, &errOut, dir, LintOptions{Format: "sarif", FailOn: judge.Error, PathPrefix: prefix})
	if code != ExitOK && code != ExitFindings {
		t.Fatalf("lint exit %d: %s", code, errOut.String())
	}
	return out.Bytes()
}

// assertFiles checks that every URI names a regular file below root, and
// that at least one starts with prefix.
func assertFiles(t *testing.T, root, prefix string, uris []string) {
	t.Helper()
	if len(uris) == 0 {
		t.Fatal("no artifact URI at all")
	}
	prefixed := false
	for _, u := range uris {
		st, err := os.Stat(filepath.Join(root, filepath.FromSlash(u)))
		if err != nil || !st.Mode().IsRegular() {
			t.Errorf("uri %s is not a file below %s", u, root)
		}
		prefixed = prefixed || strings.HasPrefix(u, prefix)
	}
	if !prefixed {
		t.Errorf("no uri starts with %q: %v", prefix, uris[:1])
	}
}

// A fabric in a subfolder of a git work tree gets URIs relative to the
// work tree's root, whether .git is a folder (a clone) or a file (a linked
// worktree, a submodule), and each of them is a file of the repository;
// every result points at a file.
func TestSARIFInGitSubfolder(t *testing.T) {
	for _, tc := range []struct {
		name string
		git  func(root string) error
	}{
		{"clone", func(root string) error { return os.Mkdir(filepath.Join(root, ".git"), 0o755) }},
		{"worktree", func(root string) error {
			return os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: /src/repo/.git/worktrees/pod\n"), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			examples, err := filepath.Abs("../../../examples")
			if err != nil {
				t.Fatal(err)
			}
			for _, example := range []string{"broken-pod", "k8s-broken", "ib-broken"} {
				root := t.TempDir()
				if err := tc.git(root); err != nil {
					t.Fatal(err)
				}
				fabric := filepath.Join(root, "fabrics", "pod")
				copyTree(t, filepath.Join(examples, example), fabric)
				uris, _ := sarifURIs(t, lintSARIF(t, fabric, ""))
				assertFiles(t, root, "fabrics/pod/", uris)
				// Run from inside the fabric directory, by a relative path.
				t.Chdir(fabric)
				again, _ := sarifURIs(t, lintSARIF(t, ".", ""))
				assertFiles(t, root, "fabrics/pod/", again)
			}
		})
	}
}

// --path-prefix wins over the work tree; without either, URIs stay
// relative to the fabric directory; a prefix outside the repository is
// an input error.
func TestSARIFPathPrefix(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	fabric := filepath.Join(root, "fabrics", "pod")
	copyTree(t, "../../../examples/broken-pod", fabric)
	uris, _ := sarifURIs(t, lintSARIF(t, fabric, "ci/checkout/fabrics/pod/"))
	for _, u := range uris {
		if !strings.HasPrefix(u, "ci/checkout/fabrics/pod/devices/") && u != "ci/checkout/fabrics/pod/topology.dot" {
			t.Errorf("uri %s does not start with the --path-prefix", u)
		}
	}

	plain := copyDir(t, "../../../examples/broken-pod")
	if p := repoPrefix(plain); p != "" {
		t.Skipf("the temporary folder is inside a git work tree (%s)", p)
	}
	uris, _ = sarifURIs(t, lintSARIF(t, plain, ""))
	assertFiles(t, plain, "devices/", uris)

	for _, bad := range []string{"/abs/pod", "../pod", "a/../../pod"} {
		var out, errOut bytes.Buffer
		if code := Lint(&out, &errOut, plain, LintOptions{Format: "sarif", FailOn: judge.Error, PathPrefix: bad}); code != ExitInput ||
			!strings.Contains(errOut.String(), "--path-prefix") {
			t.Errorf("--path-prefix %s: exit %d, %q", bad, code, errOut.String())
		}
	}
}

// A result about a device that names no file, or its folder, points at
// the device's primary file: a switch's NVUE configuration, a host's first
// file read, the inventory entry of a device with no file; a device folder
// of no inventory device is a notification only.
func TestSARIFPrimaryFiles(t *testing.T) {
	dir := copyDir(t, "../../../examples/clean-pod")
	for _, f := range []string{"devices/leaf01/nv-show-qos-roce.txt", "devices/gpu01/nccl.conf"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "devices", "gpu02")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "devices", "stray"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := BuildReport(dir, judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	for _, d := range r.Devices {
		byName[d.Name] = d.Primary.String()
	}
	for name, want := range map[string]string{
		"leaf01": "devices/leaf01/nv-config.yaml",
		"gpu01":  "devices/gpu01/ibdev2netdev.txt",
		"gpu02":  "inventory.hcl:",
	} {
		if got := byName[name]; !strings.HasPrefix(got, want) {
			t.Errorf("%s: primary file %q, want %s", name, got, want)
		}
	}
	var out, errOut bytes.Buffer
	if code := Lint(&out, &errOut, dir, LintOptions{Format: "sarif", FailOn: judge.Error}); code != ExitInput {
		t.Fatalf("exit %d, want 2 for the missing and the stray folder", code)
	}
	uris, notes := sarifURIs(t, out.Bytes())
	for _, u := range uris {
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(u))); err != nil || !st.Mode().IsRegular() {
			t.Errorf("uri %s is not a file of the fabric", u)
		}
	}
	if notes == 0 {
		t.Error("the stray folder's input error is no notification")
	}
}

// audit's URIs are relative to the repository that holds the inventory,
// as lint's of the same folder would be; a device that could not be
// collected points at its entry in the inventory; --path-prefix wins.
func TestAuditSARIFPaths(t *testing.T) {
	inv, _ := simulate(t, "../../../examples/clean-pod", map[string]sim.Fault{"leaf01": {Refuse: true}})
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	fabric := filepath.Join(root, "fabrics", "pod")
	copyTree(t, filepath.Dir(inv), fabric)
	inv = filepath.Join(fabric, "inventory.yaml")
	data, err := os.ReadFile(inv)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ prefix, want string }{{"", "fabrics/pod/"}, {"ops/pod", "ops/pod/"}} {
		var out, errOut bytes.Buffer
		code := Audit(context.Background(), &out, &errOut, AuditOptions{LiveOptions: liveOpts(inv), Format: "sarif", FailOn: judge.Error, PathPrefix: tc.prefix})
		if code != ExitIncomplete {
			t.Fatalf("exit %d, want 3 for leaf01: %s", code, errOut.String())
		}
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID    string `json:"ruleId"`
					Message   struct{ Text string }
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string } `json:"artifactLocation"`
							Region           struct{ StartLine int }
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		leaf := false
		for _, r := range log.Runs[0].Results {
			pl := r.Locations[0].PhysicalLocation
			if !strings.HasPrefix(pl.ArtifactLocation.URI, tc.want) {
				t.Errorf("%s at %s, not below %s", r.RuleID, pl.ArtifactLocation.URI, tc.want)
			}
			if r.RuleID == "input-error" && strings.HasPrefix(r.Message.Text, "leaf01:") {
				leaf = true
				lines := strings.Split(string(data), "\n")
				if pl.ArtifactLocation.URI != tc.want+"inventory.yaml" || pl.Region.StartLine < 1 || pl.Region.StartLine > len(lines) ||
					!strings.Contains(lines[pl.Region.StartLine-1], "leaf01") {
					t.Errorf("leaf01's input error at %s:%d, want its inventory entry", pl.ArtifactLocation.URI, pl.Region.StartLine)
				}
			}
		}
		if !leaf {
			t.Error("no result for leaf01, which could not be collected")
		}
	}
}
