package app

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
)

// scratchHost is a fake root for running a generated script: stub
// mlnx_qos, ip, nv, setpci and mlxconfig that log their arguments, and whatever sysfs and /etc
// files the test puts under Root.
type scratchHost struct {
	Root string
	Log  string
}

func newScratchHost(t *testing.T) *scratchHost {
	t.Helper()
	root := t.TempDir()
	h := &scratchHost{Root: root, Log: filepath.Join(root, "calls.log")}
	bin := filepath.Join(root, "bin")
	for _, d := range []string{bin, filepath.Join(root, "etc"), filepath.Join(root, "sys")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range scriptStubs {
		stub := "#!/bin/sh\necho \"" + name + " $*\" >> '" + h.Log + "'\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// scriptStubs are the commands a fix script may run besides echo and sed.
var scriptStubs = []string{"mlnx_qos", "ip", "nv", "setpci", "mlxconfig"}

// run executes script under `bash -eu` with its absolute /sys and /etc
// paths moved under the scratch root.
func (h *scratchHost) run(t *testing.T, name, script string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	script = strings.NewReplacer("/sys/", h.Root+"/sys/", "/etc/", h.Root+"/etc/").Replace(script)
	file := filepath.Join(h.Root, name)
	if err := os.WriteFile(file, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, "-eu", file)
	cmd.Env = []string{"PATH=" + filepath.Join(h.Root, "bin") + ":/usr/bin:/bin", "LC_ALL=C"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s\nscript:\n%s", name, err, out.String(), script)
	}
}

func (h *scratchHost) calls(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(h.Log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

var echoRe = regexp.MustCompile(`^echo '?([^' ]+)'? > '?([^']+?)'?$`)

// checkEffects asserts that every stubbed command of script reached its
// stub and every sysfs echo left its value in the file.
func (h *scratchHost) checkEffects(t *testing.T, name, script string) {
	t.Helper()
	calls := h.calls(t)
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if m := echoRe.FindStringSubmatch(line); m != nil && strings.HasPrefix(m[2], "/sys/") {
			got, err := os.ReadFile(filepath.Join(h.Root, m[2]))
			if err != nil || strings.TrimSpace(string(got)) != m[1] {
				t.Errorf("%s: after %q the file holds %q (%v)", name, line, got, err)
			}
			continue
		}
		for _, name := range scriptStubs {
			stub := name + " "
			if strings.HasPrefix(line, stub) && !strings.Contains(calls, strings.ReplaceAll(line, "'", "")) {
				t.Errorf("%s: %q never reached the %s stub; calls:\n%s", name, line, strings.TrimSpace(stub), calls)
			}
		}
	}
}

// copyDevice copies a host's capture into the scratch root: sysfs/ to
// /sys, nccl.conf to /etc/nccl.conf (when the host has one).
func (h *scratchHost) copyDevice(t *testing.T, dev string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dev, "sysfs")); err == nil {
		copyTree(t, filepath.Join(dev, "sysfs"), filepath.Join(h.Root, "sys"))
	}
	for capture, host := range map[string]string{"nccl.conf": "etc/nccl.conf", "ucx.conf": "etc/ucx/ucx.conf"} {
		data, err := os.ReadFile(filepath.Join(dev, capture))
		if err != nil {
			continue
		}
		file := filepath.Join(h.Root, filepath.FromSlash(host))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mkSysfs creates the sysfs folders a host script writes into, as a
// factory-fresh host has them.
func (h *scratchHost) mkSysfs(t *testing.T, netdev string) {
	t.Helper()
	for _, d := range []string{"ecn/roce_np/enable", "ecn/roce_rp/enable"} {
		if err := os.MkdirAll(filepath.Join(h.Root, "sys/class/net", netdev, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRenderedHostScriptRuns: `qoslint render --role host` on a
// factory-fresh host, which has no /etc/nccl.conf, runs to the end under
// bash -eu for every preset and leaves NCCL_IB_TC set once.
func TestRenderedHostScriptRuns(t *testing.T) {
	for _, preset := range []string{"cumulus-default", "cumulus-lossy-multi-tc", "custom-dscp46", "spectrum-x-ra2.0"} {
		t.Run(preset, func(t *testing.T) {
			dir := t.TempDir()
			policy := filepath.Join(dir, "inventory.yaml")
			inv := "fabric: fresh\npolicy:\n  preset: " + preset + "\nswitches: []\nhosts:\n  - name: gpu01\n"
			if err := os.WriteFile(policy, []byte(inv), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			if code := Generate(&out, &errOut, GenerateOptions{Policy: policy, Role: "host", NICs: []string{"ens1f0np0", "ens1f1np1"}}); code != ExitOK {
				t.Fatalf("render: exit %d: %s", code, errOut.String())
			}
			h := newScratchHost(t)
			h.mkSysfs(t, "ens1f0np0")
			h.mkSysfs(t, "ens1f1np1")
			h.run(t, "host.sh", out.String())
			h.checkEffects(t, "host.sh", out.String())
			conf, err := os.ReadFile(filepath.Join(h.Root, "etc", "nccl.conf"))
			if err != nil || strings.Count(string(conf), "NCCL_IB_TC=") != 1 {
				t.Errorf("nccl.conf after the script: %q (%v)", conf, err)
			}
		})
	}
}

// TestFixScriptsRun runs every device's fix script, then its rollback,
// for every shipped example, each on a scratch copy of that device.
func TestFixScriptsRun(t *testing.T) {
	for _, example := range []string{"clean-pod", "broken-pod"} {
		t.Run(example, func(t *testing.T) {
			src := filepath.Join("..", "..", "..", "examples", example)
			out := t.TempDir()
			var stdout, errOut bytes.Buffer
			if code := Fix(&stdout, &errOut, src, FixOptions{Format: "script", Out: out, FailOn: judge.Error}); code != ExitOK && code != ExitFindings {
				t.Fatalf("fix: exit %d: %s", code, errOut.String())
			}
			scripts, _ := filepath.Glob(filepath.Join(out, "*.sh"))
			sort.Strings(scripts)
			ran := 0
			for _, s := range scripts {
				if strings.HasSuffix(s, ".rollback.sh") {
					continue
				}
				dev := strings.TrimSuffix(filepath.Base(s), ".sh")
				fix, err := os.ReadFile(s)
				if err != nil {
					t.Fatal(err)
				}
				rollback, err := os.ReadFile(filepath.Join(out, dev+".rollback.sh"))
				if err != nil {
					t.Fatal(err)
				}
				h := newScratchHost(t)
				h.copyDevice(t, filepath.Join(src, "devices", dev))
				h.run(t, dev+".sh", string(fix))
				h.checkEffects(t, dev+".sh", string(fix))
				h.run(t, dev+".rollback.sh", string(rollback))
				h.checkEffects(t, dev+".rollback.sh", string(rollback))
				ran++
			}
			if example == "broken-pod" && ran == 0 {
				t.Fatal("the broken pod produced no fix scripts")
			}
		})
	}
}

// TestTemplateExecutionFails: a user template that parses but fails on
// the data (a misspelt field) makes fix and render exit 2 naming the
// template and its line, and prints no script.
func TestTemplateExecutionFails(t *testing.T) {
	tmpl := t.TempDir()
	bad := "{{define \"mlnx_qos\"}}mlnx_qos -i {{sq .Target}}\n{{.Flagg}} {{sq .Value}}{{end}}\n"
	if err := os.WriteFile(filepath.Join(tmpl, "commands.tmpl"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Fix(&out, &errOut, "../../../examples/broken-pod", FixOptions{Format: "script", Templates: tmpl, Out: filepath.Join(t.TempDir(), "fix"), FailOn: judge.Error})
	if code != ExitInput || out.Len() != 0 || !strings.Contains(errOut.String(), `template "mlnx_qos" failed`) || !strings.Contains(errOut.String(), "commands.tmpl:2") {
		t.Errorf("fix: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	policy := filepath.Join("..", "..", "..", "examples", "broken-pod", "inventory.yaml")
	out.Reset()
	errOut.Reset()
	code = Generate(&out, &errOut, GenerateOptions{Policy: policy, Role: "host", NICs: []string{"ens1f0np0"}, Templates: tmpl})
	if code != ExitInput || out.Len() != 0 || !strings.Contains(errOut.String(), "commands.tmpl:2") {
		t.Errorf("render: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
