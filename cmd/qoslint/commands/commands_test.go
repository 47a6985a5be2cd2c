package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

func run(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Execute(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// explain lists every check of the catalog once, with its kind; TestCatalog
// (checks/catalog_test.go) holds the catalog itself to its declarations.
func TestExplainListsEveryCheck(t *testing.T) {
	code, out, _ := run("explain")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if want := len(catalog()) + 1; len(lines) != want {
		t.Errorf("%d lines, want a header and %d checks", len(lines), want-1)
	}
	for i, c := range catalog() {
		if f := strings.Fields(lines[i+1]); len(f) < 3 || f[0] != c.ID || f[1] != string(c.Kind) || f[2] != c.Severity.String() {
			t.Errorf("line %d: %q, want %s %s %s", i+2, lines[i+1], c.ID, c.Kind, c.Severity)
		}
	}
}

func TestExplainOne(t *testing.T) {
	code, out, _ := run("explain", "host-tos")
	if code != 0 || !strings.Contains(out, "NCCL_IB_TC=26 puts DSCP 6 on the wire") {
		t.Errorf("exit %d, out:\n%s", code, out)
	}
	code, out, _ = run("explain", "evidence-dcqcn")
	for _, want := range []string{"kind:     evidence\n", "devices:  host\n", "inputs:   hw_counters, ibdev2netdev\n",
		"requires: host-ecn, host-trust, host-dscp-map\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("explain evidence-dcqcn lacks %q:\n%s", want, out)
		}
	}
	if code, out, _ := run("explain", "waiver"); code != 0 || !strings.Contains(out, "devices:  waiver file\n") {
		t.Errorf("explain waiver: exit %d\n%s", code, out)
	}
	if code, _, errOut := run("explain", "nope"); code != 2 || !strings.Contains(errOut, `no check "nope"`) {
		t.Errorf("unknown check: exit %d, %s", code, errOut)
	}
}

func TestToS(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"tos", "106"}, "ToS 106 = DSCP 26 (ToS>>2) + ECN ECT(0)", 0},
		{[]string{"tos", "26"}, "if 26 was meant as a DSCP, the ToS is 104", 0},
		{[]string{"tos", "--dscp", "24"}, "DSCP 24 = ToS 96 (DSCP×4), 98 with ECT(0)", 0},
		{[]string{"tos"}, "26  104         106                 3", 0},
		{[]string{"tos", "300"}, "", 2},
		{[]string{"tos", "--dscp", "64"}, "", 2},
	} {
		code, out, errOut := run(tc.args...)
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, out:\n%s\nerr: %s", tc.args, code, out, errOut)
		}
	}
}

func TestLintCommand(t *testing.T) {
	code, out, _ := run("lint", "../../../examples/broken-pod", "--format", "json")
	if code != 1 || !strings.Contains(out, `"schema": "qoslint.report/v1"`) {
		t.Errorf("exit %d, out:\n%.300s", code, out)
	}
	if code, _, errOut := run("lint", "../../../examples/clean-pod", "--fail-on", "fatal"); code != 2 || !strings.Contains(errOut, "unknown severity") {
		t.Errorf("bad --fail-on: exit %d, %s", code, errOut)
	}
	if code, _, _ := run("lint"); code != 2 {
		t.Errorf("missing DIR: exit %d", code)
	}
}

func TestLiveCommands(t *testing.T) {
	if code, _, errOut := run("audit"); code != 2 || !strings.Contains(errOut, `required flag(s) "inventory" not set`) {
		t.Errorf("audit without --inventory: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run("collect", "--inventory", "x.yaml"); code != 2 || !strings.Contains(errOut, `"out" not set`) {
		t.Errorf("collect without --out: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run("audit", "--inventory", "testdata/none.yaml"); code != 2 || !strings.Contains(errOut, "none.yaml") {
		t.Errorf("audit of a missing inventory: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run("sim", "../../../examples/clean-pod", "--listen", "192.0.2.1"); code != 2 || !strings.Contains(errOut, "loopback") {
		t.Errorf("sim on a non-loopback address: exit %d, %s", code, errOut)
	}
	code, out, errOut := run("demo", "clean-pod", "--format", "json")
	if code != 0 || !strings.Contains(out, `"findings": 0`) {
		t.Errorf("demo clean-pod: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, _ := run("demo", "nope"); code != 2 {
		t.Errorf("demo of an unknown fabric: exit %d", code)
	}
}

func TestFixAndRenderCommands(t *testing.T) {
	code, out, _ := run("lint", "../../../examples/broken-pod", "--fix")
	if code != 1 || !strings.Contains(out, "fix for leaf02 (switch)") || !strings.Contains(out, "nv unset qos pfc default-global switch-priority 4") {
		t.Errorf("lint --fix: exit %d\n%s", code, out)
	}
	code, out, _ = run("fix", "../../../examples/broken-pod", "--format", "rollback")
	if code != 0 || !strings.Contains(out, "# qoslint rollback for gpu03 (host)") {
		t.Errorf("fix --format rollback: exit %d\n%.500s", code, out)
	}
	code, out, errOut := run("render", "--policy", "../../../examples/clean-pod/inventory.hcl", "--role", "spine")
	if code != 0 || !strings.Contains(out, "nv set qos roce state enabled") || strings.Contains(out, "- set:") {
		t.Errorf("render: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := run("render", "--role", "leaf"); code != 2 || !strings.Contains(errOut, `"policy" not set`) {
		t.Errorf("render without --policy: exit %d %s", code, errOut)
	}
}

// writer writes files into dir and returns their paths.
func writer(t *testing.T, dir string) func(name, text string) string {
	return func(name, text string) string {
		t.Helper()
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// TestBadSettingsExitTwo: settings that would make every device fail the
// same way, or check nothing, are refused up front with exit 2 and a
// message naming the setting, before anything is dialled.
func TestBadSettingsExitTwo(t *testing.T) {
	dir := t.TempDir()
	write := writer(t, dir)
	// 192.0.2.1 is a documentation address; nothing here dials it, since
	// every case is refused before collection.
	inv := write("inv.yaml", "fabric: x\npolicy: {preset: cumulus-default}\nssh: {known_hosts: ./absent_known_hosts}\n"+
		"switches:\n  - {name: leaf01, address: 192.0.2.1, username: u, password_env: QOSLINT_TEST_NONE}\n")
	empty := write("empty.yaml", "fabric: x\npolicy: {preset: cumulus-default}\n")
	full := t.TempDir() // an earlier run's output
	if err := os.WriteFile(full+"/leaf01.sh", []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	emptyDir := t.TempDir()
	if err := os.WriteFile(emptyDir+"/inventory.yaml", []byte("fabric: x\npolicy: {preset: cumulus-default}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"audit", "--inventory", inv}, "absent_known_hosts"},
		{[]string{"collect", "--inventory", inv, "--out", dir + "/out"}, "absent_known_hosts"},
		{[]string{"collect", "--inventory", inv, "--out", full}, "is not empty: use --force"},
		{[]string{"collect", "--inventory", inv, "--out", full, "--force"}, "absent_known_hosts"},
		{[]string{"collect", "--inventory", inv, "--out", dir, "--force"}, "which this command reads"},
		{[]string{"fix", "../../../examples/broken-pod", "--out", full}, "is not empty: use --force"},
		{[]string{"fix", "../../../examples/broken-pod", "--out", "../../../examples", "--force"}, "which this command reads"},
		{[]string{"audit", "--inventory", empty}, "names no device"},
		{[]string{"lint", emptyDir}, "names no device"},
		{[]string{"audit", "--inventory", inv, "--workers", "0"}, "--workers 0"},
		{[]string{"audit", "--inventory", inv, "--command-timeout", "-1s"}, "--command-timeout -1s"},
		{[]string{"audit", "--inventory", inv, "--device-timeout", "0s"}, "--device-timeout 0s"},
		{[]string{"audit", "--inventory", inv, "--interval", "5s"}, "--interval needs --counters"},
		{[]string{"audit", "--inventory", inv, "--max-output", "0"}, "--max-output 0"},
		{[]string{"sim", "../../../examples/clean-pod", "--latency", "-1s"}, "--latency -1s"},
		{[]string{"demo", "clean-pod", "--latency", "2h"}, "--latency 2h0m0s"},
	} {
		code, _, errOut := run(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// --enable and --disable, and the inventory's checks section: disable wins,
// an unknown name is exit 2 naming it (at its inventory line), and a check
// left out is neither reported nor a reason to fail.
func TestSelectChecks(t *testing.T) {
	code, out, _ := run("lint", "../../../examples/broken-pod", "--format", "json", "--enable", "switch-pfc,evidence")
	// Each device's check statuses name every check (host-tos "disabled"):
	// only the findings must leave it out.
	var rep struct{ Findings []struct{ Check string } }
	_ = json.Unmarshal([]byte(out), &rep)
	if code != 1 || strings.Count(out, `"check": "switch-pfc"`) == 0 || slices.ContainsFunc(rep.Findings, func(f struct{ Check string }) bool { return f.Check == "host-tos" }) ||
		!strings.Contains(out, `"check": "host-tos",
          "status": "skipped",
          "findings": 0,
          "skip": "disabled"`) ||
		!strings.Contains(out, "checks not run (--enable, --disable or the inventory's checks section): switch-roce-mode") {
		t.Errorf("--enable: exit %d\n%.2000s", code, out)
	}
	if code, out, _ := run("lint", "../../../examples/broken-pod", "--format", "json", "--enable", "switch-pfc", "--disable", "config"); code != 2 ||
		strings.Contains(out, `"check"`) {
		t.Errorf("disable wins, nothing left: exit %d\n%.500s", code, out)
	}
	if code, _, errOut := run("lint", "../../../examples/broken-pod", "--disable", "switch-pfcc"); code != 2 || !strings.Contains(errOut, `--disable: unknown check or kind "switch-pfcc"`) {
		t.Errorf("unknown ID: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run("fix", "../../../examples/broken-pod", "--enable", "nope"); code != 2 || !strings.Contains(errOut, `--enable: unknown check or kind "nope"`) {
		t.Errorf("fix, unknown ID: exit %d, %s", code, errOut)
	}
	// The inventory's section, at its line; audit refuses it before it dials.
	dir := t.TempDir()
	data, err := os.ReadFile("../../../examples/clean-pod/inventory.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/inventory.hcl", append(data, "checks {\n  disable = [\"evidence\", \"mtuu\"]\n}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	line := strings.Count(string(data), "\n") + 2
	want := fmt.Sprintf(`inventory.hcl:%d: checks.disable: unknown check or kind "mtuu"`, line)
	if code, _, errOut := run("lint", dir); code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("inventory: exit %d, %s; want %s", code, errOut, want)
	}
	if code, _, errOut := run("audit", "--inventory", dir+"/inventory.hcl"); code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("audit: exit %d, %s; want %s", code, errOut, want)
	}
}

// trace's exit codes through the CLI: 0 all paths ok, 1 a broken hop, 2
// an unknown host, a bad flag or argument count; -o writes the report.
func TestTraceExitCodes(t *testing.T) {
	out := t.TempDir() + "/trace.json"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"trace", "gpu01:ens1f0np0", "gpu03:ens1f1np1", "--dir", "../../../examples/clean-pod"}, 0, "2 paths, all ok"},
		{[]string{"trace", "gpu02:ens1f0np0", "gpu01:ens1f0np0", "--dir", "../../../examples/broken-pod"}, 1, "broken at leaf01 (switch-dscp-map)"},
		{[]string{"trace", "gpu01", "gpu02", "--dir", "../../../examples/broken-pod", "-f", "json", "-o", out}, 1, ""},
		{[]string{"trace", "gpu01", "gpu99", "--dir", "../../../examples/clean-pod"}, 2, `no host "gpu99"`},
		{[]string{"trace", "gpu01", "--dir", "../../../examples/clean-pod"}, 2, "SRC[:NIC] and DST[:NIC]"},
		{[]string{"trace", "gpu01", "gpu02", "--dir", "../../../examples/clean-pod", "--format", "sarif"}, 2, `--format "sarif"`},
	} {
		code, stdout, stderr := run(tc.args...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q\nstdout: %s\nstderr: %s", tc.args, code, tc.code, tc.want, stdout, stderr)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(data), `"schema": "qoslint.trace/v1"`) {
		t.Errorf("-o %s: %v %.80s", out, err, data)
	}
}

// An unknown check ID close to a known one names it, wherever it is
// written; a far one does not guess. A shell with no completion script is
// exit 2 naming the ones there are.
func TestDidYouMeanAndShells(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "hots-tos"}, `no check "hots-tos"; did you mean host-tos?`},
		{[]string{"lint", "../../../examples/clean-pod", "--disable", "switch-pfcc"}, "did you mean switch-pfc?"},
		{[]string{"fix", "../../../examples/clean-pod", "--enable", "evidnce"}, "did you mean evidence?"},
		{[]string{"completion", "tcsh"}, `no script for the shell "tcsh": one of bash, fish, powershell, zsh`},
	} {
		code, _, errOut := run(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, _, errOut := run("explain", "nope"); strings.Contains(errOut, "did you mean") {
		t.Errorf("a far name got a guess: %s", errOut)
	}
	if code, out, _ := run("completion", "bash"); code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d\n%.100s", code, out)
	}
}

// sim and serve refuse what they must before they listen: a file sim
// would replace without --force (named), one of the fabric it serves
// (even with --force), and an --interval that is not positive. Each runs
// as a process with a deadline, since a command that accepts them serves
// until interrupted.
func TestRefusedBeforeListening(t *testing.T) {
	dir := t.TempDir()
	write := writer(t, dir)
	inv := write("inv.yaml", "fabric: x\npolicy: {preset: cumulus-default}\nssh: {known_hosts: ./absent_known_hosts}\n"+
		"switches:\n  - {name: leaf01, address: 192.0.2.1, username: u, password_env: QOSLINT_TEST_NONE}\n")
	write("sim.known_hosts", "the user's own\n") // where sim --inventory-out sim.yaml would put its known_hosts
	write("topology.dot", "graph {}\n")          // and --topology the cabling plan
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "../../../examples/clean-pod", "--inventory-out", inv}, inv + " exists: --force replaces it"},
		{[]string{"sim", "../../../examples/clean-pod", "--inventory-out", dir + "/sim.yaml"}, dir + "/sim.known_hosts exists: --force replaces it"},
		{[]string{"sim", "../../../examples/clean-pod", "--inventory-out", dir + "/new.yaml", "--topology"}, dir + "/topology.dot exists: --force replaces it"},
		{[]string{"sim", "../../../examples/clean-pod", "--inventory-out", "../../../examples/clean-pod/inventory.hcl", "--force"}, "is a file of the fabric being served"},
		{[]string{"serve", "--inventory", inv, "--interval", "0s"}, "--interval 0s: must be positive"},
		{[]string{"serve", "--inventory", inv, "--interval", "-5m"}, "--interval -5m0s: must be positive"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, os.Args[0], tc.args...)
		cmd.Env = append(os.Environ(), asQoslint+"=1", "TMPDIR="+t.TempDir())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		timedOut := ctx.Err() != nil
		cancel()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if timedOut {
			t.Errorf("%v: still running after 20s (it was accepted)\n%s", tc.args, stderr.String())
		} else if code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
	if data, _ := os.ReadFile(dir + "/sim.known_hosts"); string(data) != "the user's own\n" {
		t.Errorf("a refused sim replaced sim.known_hosts: %q", data)
	}
}
