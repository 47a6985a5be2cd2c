package commands

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/creack/pty"

	"github.com/qoslint/qoslint/internal/fixture"
)

const (
	broken = "../../../examples/broken-pod"
	clean  = "../../../examples/clean-pod"
	esc    = "\x1b["
)

// TestVersion: `version`, `--version` and `version -f json` say the same
// module version, revision, Go release and platform.
func TestVersion(t *testing.T) {
	code, text, _ := run("version")
	plat := runtime.GOOS + "/" + runtime.GOARCH
	for _, want := range []string{"qoslint ", "\nrevision: ", "\ntime:     ", "\ngo:       go1.", "\nplatform: " + plat + "\n"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("version: exit %d, lacks %q:\n%s", code, want, text)
		}
	}
	if code, flag, _ := run("--version"); code != 0 || flag != text {
		t.Errorf("--version: exit %d\n%s\nwant\n%s", code, flag, text)
	}
	code, out, _ := run("version", "-f", "json")
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v["platform"] != plat || v["version"] == "" || v["revision"] == "" {
		t.Errorf("version -f json: exit %d, %v\n%s", code, err, out)
	}
}

// TestColor: --color always colours severities and the verdict, never and
// a pipe do not, auto colours a terminal unless NO_COLOR is set, and
// --color always wins over NO_COLOR (https://no-color.org).
func TestColor(t *testing.T) {
	if _, out, _ := run("lint", broken, "--color", "always"); !strings.Contains(out, "  "+esc+"31merror"+esc+"0m    host-trust") ||
		!strings.Contains(out, esc+"1m"+esc+"31mFAIL:"+esc+"0m findings at or above error") {
		t.Errorf("--color always:\n%s", out)
	}
	if _, out, _ := run("lint", clean, "--color", "always"); !strings.Contains(out, esc+"1m"+esc+"32mPASS:") {
		t.Errorf("--color always, clean:\n%s", out)
	}
	if _, out, _ := run("explain", "--color", "always"); !strings.Contains(out, esc+"33mwarning"+esc+"0m") {
		t.Errorf("explain --color always:\n%.500s", out)
	}
	if _, out, _ := run("lint", broken, "--color", "never"); strings.Contains(out, esc) {
		t.Errorf("--color never coloured")
	}
	if code, _, errOut := run("lint", broken, "--color", "rainbow"); code != 2 || !strings.Contains(errOut, `--color "rainbow"`) {
		t.Errorf("--color rainbow: exit %d %s", code, errOut)
	}
	// auto into a pipe: no escapes.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); got <- b }()
	Execute([]string{"lint", broken}, w, io.Discard)
	w.Close()
	if b := <-got; len(b) == 0 || bytes.Contains(b, []byte(esc)) {
		t.Errorf("auto into a pipe: %d bytes, coloured %t", len(b), bytes.Contains(b, []byte(esc)))
	}
	// auto on a terminal: coloured, unless NO_COLOR; always beats NO_COLOR.
	onTerminal := func(args ...string) string {
		t.Helper()
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		defer ptmx.Close()
		got := make(chan []byte)
		go func() { b, _ := io.ReadAll(ptmx); got <- b }()
		Execute(args, tty, io.Discard)
		tty.Close()
		return string(<-got)
	}
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "")
	if out := onTerminal("explain", "host-tos"); !strings.Contains(out, "host-tos ("+esc+"31merror") {
		t.Errorf("auto on a terminal:\n%q", out)
	}
	t.Setenv("NO_COLOR", "1")
	if out := onTerminal("explain", "host-tos"); strings.Contains(out, esc) || !strings.Contains(out, "host-tos (error)") {
		t.Errorf("NO_COLOR on a terminal:\n%q", out)
	}
	if out := onTerminal("explain", "host-tos", "--color", "always"); !strings.Contains(out, esc+"31merror") {
		t.Errorf("--color always with NO_COLOR:\n%q", out)
	}
	// -o FILE: a file, so auto never colours it even from a terminal.
	t.Setenv("NO_COLOR", "")
	file := filepath.Join(t.TempDir(), "report.txt")
	onTerminal("lint", broken, "-o", file)
	if b, err := os.ReadFile(file); err != nil || bytes.Contains(b, []byte(esc)) || !bytes.Contains(b, []byte("FAIL:")) {
		t.Errorf("-o from a terminal: %v, coloured %t", err, bytes.Contains(b, []byte(esc)))
	}
}

// TestOutputFlag: -o FILE writes the report (exit code unchanged) and
// nothing to stdout, on every command that prints one; a folder or a
// missing folder is exit 2; snapshot's old --out still works, warned.
func TestOutputFlag(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"lint", broken, "-f", "json"}, 1, `"schema": "qoslint.report/v1"`},
		{[]string{"fix", broken, "--format", "nvue"}, 0, "nv unset qos pfc default-global switch-priority 4"},
		{[]string{"render", "--policy", broken + "/inventory.yaml", "--role", "leaf", "-f", "script"}, 0, "#!/bin/sh\n"},
		{[]string{"explain", "host-tos"}, 0, "host-tos (error)"},
		{[]string{"tos", "106"}, 0, "ToS 106 = DSCP 26"},
		{[]string{"drift", clean, broken, "-f", "markdown"}, 1, "leaf"},
		{[]string{"snapshot", clean}, 0, `"schema": "qoslint.snapshot/v1"`},
		{[]string{"version", "-f", "json"}, 0, `"go_version"`},
	} {
		file := filepath.Join(dir, tc.args[0]+".out")
		code, out, errOut := run(append(tc.args, "-o", file)...)
		b, err := os.ReadFile(file)
		if code != tc.code || out != "" || err != nil || !strings.Contains(string(b), tc.want) {
			t.Errorf("%v -o: exit %d (want %d), stdout %q, %v, file:\n%.300s\n%s", tc.args, code, tc.code, out, err, b, errOut)
		}
	}
	if code, _, errOut := run("lint", broken, "-o", dir); code != 2 || !strings.Contains(errOut, "is a folder") {
		t.Errorf("-o a folder: exit %d %s", code, errOut)
	}
	if code, _, errOut := run("lint", broken, "-o", filepath.Join(dir, "no", "such.txt")); code != 2 || !strings.Contains(errOut, "-o ") {
		t.Errorf("-o in a missing folder: exit %d %s", code, errOut)
	}
	// A run that printed nothing (bad flag value) leaves an earlier file.
	keep := filepath.Join(dir, "keep.txt")
	os.WriteFile(keep, []byte("earlier\n"), 0o644)
	if code, _, _ := run("lint", broken, "-f", "yaml", "-o", keep); code != 2 {
		t.Errorf("bad format: exit %d", code)
	}
	if b, _ := os.ReadFile(keep); string(b) != "earlier\n" {
		t.Errorf("a failed run replaced the file: %q", b)
	}
	old := filepath.Join(dir, "old.json")
	if code, out, errOut := run("snapshot", clean, "--out", old); code != 0 || out != "" || !strings.Contains(errOut, "--out is deprecated") || !strings.Contains(errOut, "wrote "+old) {
		t.Errorf("snapshot --out: exit %d\n%s%s", code, out, errOut)
	}
}

// TestFailOnNone: report-only runs exit 0 whatever the findings and say
// so, but input errors are still exit 2; demo and fix take the flags lint
// takes.
func TestFailOnNone(t *testing.T) {
	code, out, _ := run("lint", broken, "--fail-on", "none")
	if code != 0 || !strings.Contains(out, "REPORT ONLY: 30 errors, 9 warnings, 18 info (--fail-on none)\n") {
		t.Errorf("lint --fail-on none: exit %d\n%s", code, out)
	}
	if code, out, _ := run("lint", broken, "--fail-on", "none", "-f", "json"); code != 0 || !strings.Contains(out, `"fail_on": "none"`) || !strings.Contains(out, `"failed": false`) {
		t.Errorf("json: exit %d\n%.800s", code, out)
	}
	if code, _, _ := run("lint", fixture.Dir(t, "../../../render/testdata/input-errors"), "--fail-on", "none"); code != 2 {
		t.Errorf("input errors with --fail-on none: exit %d, want 2", code)
	}
	if code, _, errOut := run("lint", broken, "--fail-on", "never"); code != 2 || !strings.Contains(errOut, "or none") {
		t.Errorf("--fail-on never: exit %d %s", code, errOut)
	}
	if code, out, errOut := run("demo", "broken-pod", "--fail-on", "none", "-f", "json", "--latency", "0s"); code != 0 || !strings.Contains(out, `"fail_on": "none"`) {
		t.Errorf("demo --fail-on none: exit %d\n%.300s\n%s", code, out, errOut)
	}
	if code, _, _ := run("demo", "clean-pod", "--fail-on", "info", "--latency", "0s"); code != 0 {
		t.Errorf("demo clean-pod --fail-on info: exit %d", code)
	}
	// fix --waivers: a waived finding is not fixed.
	waivers := filepath.Join(t.TempDir(), "w.yaml")
	os.WriteFile(waivers, []byte("waivers:\n  - {check: host-tos, device: \"*\", reason: \"TICKET-1: set per job\"}\n"), 0o644)
	_, all, _ := run("fix", broken)
	code, waived, errOut := run("fix", broken, "--waivers", waivers)
	if !strings.Contains(all, "NCCL_IB_TC=") || code != 0 || strings.Contains(waived, "NCCL_IB_TC=") {
		t.Errorf("fix --waivers: exit %d, NCCL lines without %t, with %t\n%s", code, strings.Contains(all, "NCCL_IB_TC="), strings.Contains(waived, "NCCL_IB_TC="), errOut)
	}
}

// TestRenderForms: one form at a time, the syntax of any 5.x release, and
// flags of the other kind of device refused.
func TestRenderForms(t *testing.T) {
	pol := broken + "/inventory.yaml"
	for _, tc := range []struct {
		args      []string
		code      int
		want, not string
	}{
		{[]string{"--role", "leaf", "--syntax", "5.9"}, 0, "nv set qos roce enable on\n", "- set:"},
		{[]string{"--role", "leaf", "--syntax", "5.18", "-f", "yaml"}, 0, "        state: enabled\n", "nv set"},
		{[]string{"--role", "spine", "--syntax", "5.14.2", "-f", "patch"}, 0, "- set:\n", "#"},
		{[]string{"--role", "leaf", "-f", "script"}, 0, "#!/bin/sh\n", "- set:"},
		{[]string{"--role", "host", "--nics", "ens1f0np0"}, 0, "#!/bin/sh\n", "nv set"},
		{[]string{"--role", "host", "--nics", "ens1f0np0", "-f", "commands"}, 0, "mlnx_qos -i ens1f0np0 --trust dscp", "#!/bin/sh"},
		{[]string{"--role", "leaf", "--nics", "ens1f0np0"}, 2, "--nics is for a host; --role leaf is a switch", ""},
		{[]string{"--role", "host", "--nics", "eth2", "--ports", "swp1-4"}, 2, "--ports is for a switch; --role host is a host", ""},
		{[]string{"--role", "host", "--nics", "eth2", "--syntax", "5.9"}, 2, "--syntax is for a switch", ""},
		{[]string{"--role", "leaf", "--syntax", "4.4"}, 2, `--syntax "4.4": not a Cumulus Linux 5 release`, ""},
		{[]string{"--role", "leaf", "--ports", "swp1;reboot"}, 2, `--ports "swp1;reboot"`, ""},
		{[]string{"--role", "host", "--nics", "eth2", "-f", "patch"}, 2, `a host is rendered as script, commands`, ""},
	} {
		code, out, errOut := run(append([]string{"render", "--policy", pol}, tc.args...)...)
		got := out + errOut
		if code != tc.code || !strings.Contains(got, tc.want) || tc.not != "" && strings.Contains(out, tc.not) {
			t.Errorf("render %v: exit %d (want %d), want %q, not %q:\n%s", tc.args, code, tc.code, tc.want, tc.not, got)
		}
	}
}

// TestCompletion: cobra's completion command is there, and __complete
// offers values, not only flag names.
func TestCompletion(t *testing.T) {
	if code, out, _ := run("completion", "bash"); code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d\n%.200s", code, out)
	}
	if _, out, _ := run("--help"); !strings.Contains(out, "completion") {
		t.Errorf("help does not list completion:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"lint", "x", "--format", ""}, []string{"html", "json", "junit", "markdown", "sarif", "text"}},
		{[]string{"lint", "x", "-f", ""}, []string{"sarif"}},
		{[]string{"fix", "x", "--format", ""}, []string{"script", "rollback", "nvue"}},
		{[]string{"drift", "a", "b", "--format", ""}, []string{"html", "json", "markdown", "text"}},
		{[]string{"render", "--format", ""}, []string{"commands", "script", "yaml", "patch"}},
		{[]string{"render", "--role", "host", "--format", ""}, []string{"script", "commands"}},
		{[]string{"audit", "--fail-on", ""}, []string{"error", "warning", "info", "none"}},
		{[]string{"demo", "--fail-on", ""}, []string{"none"}},
		{[]string{"lint", "x", "--color", ""}, []string{"auto", "always", "never"}},
		{[]string{"render", "--role", ""}, []string{"leaf", "spine", "super-spine", "border", "host"}},
		{[]string{"render", "--syntax", ""}, []string{"5.9", "5.14", "5.15", "5.18"}},
		{[]string{"explain", ""}, []string{"host-tos\t", "switch-pfc\t", "waiver\t"}},
		{[]string{"lint", "x", "--enable", ""}, []string{"config\t", "evidence\t", "switch-pfc\t"}},
		{[]string{"lint", "x", "--disable", "switch-pfc,"}, []string{"switch-pfc,host-tos\t", "switch-pfc,evidence\t"}},
		{[]string{"demo", ""}, []string{"broken-pod", "clean-pod"}},
		{[]string{"version", "-f", ""}, []string{"text", "json"}},
	} {
		code, out, _ := run(append([]string{"__complete"}, tc.args...)...)
		lines := strings.Split(out, "\n")
		for _, w := range tc.want {
			found := false
			for _, l := range lines {
				if l == w || strings.HasPrefix(l, w) {
					found = true
				}
			}
			if code != 0 || !found {
				t.Errorf("complete %v: exit %d, lacks %q:\n%s", tc.args, code, w, out)
			}
		}
	}
}

// TestErrorsPeopleUnderstand: a missing argument names what is missing,
// with the usage line and where help is; a file in the fabric directory
// lints the directory.
func TestErrorsPeopleUnderstand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"lint"}, []string{"qoslint lint takes DIR, the fabric directory (or a file in it), got none", "usage: qoslint lint DIR [flags]", "qoslint lint --help"}},
		{[]string{"drift", "a.json"}, []string{"qoslint drift takes OLD and NEW", "got 1 (a.json)", "usage: qoslint drift OLD NEW"}},
		{[]string{"explain", "a", "b"}, []string{"takes at most one CHECK-ID"}},
		{[]string{"render", "--policy", "x", "--role", "leaf", "extra"}, []string{"takes no argument"}},
		{[]string{"lint", broken, "--nope"}, []string{"unknown flag: --nope", "usage: qoslint lint DIR"}},
	} {
		code, _, errOut := run(tc.args...)
		for _, w := range tc.want {
			if code != 2 || !strings.Contains(errOut, w) {
				t.Errorf("%v: exit %d, stderr lacks %q:\n%s", tc.args, code, w, errOut)
			}
		}
		if strings.Contains(errOut, "arg(s)") {
			t.Errorf("%v: cobra's bare message: %s", tc.args, errOut)
		}
	}
	_, dirOut, _ := run("lint", broken)
	for _, file := range []string{"inventory.yaml", "devices"} {
		code, out, errOut := run("lint", broken+"/"+file)
		if file == "devices" {
			// a folder is a fabric directory of its own: no inventory there.
			if code != 2 {
				t.Errorf("lint of devices/: exit %d", code)
			}
			continue
		}
		if code != 1 || out != dirOut {
			t.Errorf("lint of %s: exit %d, not the report of its folder\n%s", file, code, errOut)
		}
	}
	if code, out, _ := run("snapshot", clean+"/inventory.hcl"); code != 0 || !strings.Contains(out, `"fabric": "pod-clean"`) {
		t.Errorf("snapshot of inventory.hcl: exit %d", code)
	}
}
