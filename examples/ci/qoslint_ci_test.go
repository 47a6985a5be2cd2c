// Package ci_test checks the CI examples: that they parse, wire the report
// files together, call qoslint with flags and formats it has, and that the
// pre-commit hook blocks exactly the commits it should.
package ci_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/qoslint/qoslint/cmd/qoslint/commands"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/render"
)

// asQoslint makes the test binary itself the qoslint the pre-commit hook
// runs: no separate build, and exactly the code under test.
const asQoslint = "QOSLINT_CI_TEST_RUN_AS_QOSLINT"

func TestMain(m *testing.M) {
	if os.Getenv(asQoslint) == "1" {
		os.Exit(commands.Execute(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

type ghStep struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

type ghWorkflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Permissions map[string]string `yaml:"permissions"`
		Steps       []ghStep          `yaml:"steps"`
	} `yaml:"jobs"`
}

type glJob struct {
	Image        string   `yaml:"image"`
	BeforeScript []string `yaml:"before_script"`
	Script       []string `yaml:"script"`
	Artifacts    struct {
		When    string   `yaml:"when"`
		Paths   []string `yaml:"paths"`
		Reports struct {
			JUnit string `yaml:"junit"`
		} `yaml:"reports"`
	} `yaml:"artifacts"`
}

func load(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// outputOf is the file a lint line writes format to: --format FORMAT=PATH
// (or -f), else its stdout redirect when that format goes to stdout.
func outputOf(line, format string) string {
	if m := regexp.MustCompile(`(?:--format|-f)[ =]` + format + `=(\S+)`).FindStringSubmatch(line); m != nil {
		return m[1]
	}
	if regexp.MustCompile(`(?:--format|-f)[ =]` + format + `(\s|$)`).MatchString(line) {
		if m := regexp.MustCompile(`>\s*(\S+)`).FindStringSubmatch(line); m != nil {
			return m[1]
		}
	}
	return ""
}

func TestGitHubActions(t *testing.T) {
	var wf ghWorkflow
	load(t, "github-actions.yml", &wf)
	job, ok := wf.Jobs["qoslint"]
	if !ok {
		t.Fatalf("no job qoslint: %+v", wf.Jobs)
	}
	if job.Permissions["security-events"] != "write" || job.Permissions["checks"] != "write" {
		t.Errorf("permissions %v: upload-sarif needs security-events: write, the JUnit check checks: write", job.Permissions)
	}
	var uses []string
	var sarifOut, junitOut string
	gate := -1
	for i, s := range job.Steps {
		if s.Uses != "" {
			uses = append(uses, strings.Split(s.Uses, "@")[0])
		}
		switch {
		case strings.Contains(s.Run, "qoslint lint"):
			if gate >= 0 {
				t.Errorf("step %q lints again: one run writes every report (--format FORMAT=PATH)", s.Name)
			}
			gate, sarifOut, junitOut = i, outputOf(s.Run, "sarif"), outputOf(s.Run, "junit")
			if s.If != "" || strings.Contains(s.Run, "|| true") {
				t.Errorf("the lint step is the gate: it must run and fail the job: %+v", s)
			}
		}
		// Everything after the gate must run when the gate failed.
		if gate >= 0 && i > gate && !strings.Contains(s.If, "always()") {
			t.Errorf("step %q runs only when the gate passed", s.Name)
		}
		switch strings.Split(s.Uses, "@")[0] {
		case "github/codeql-action/upload-sarif":
			if s.With["sarif_file"] != sarifOut || sarifOut == "" {
				t.Errorf("upload-sarif reads %q, the lint step writes %q", s.With["sarif_file"], sarifOut)
			}
		case "mikepenz/action-junit-report":
			if s.With["report_paths"] != junitOut || junitOut == "" {
				t.Errorf("the JUnit report reads %q, the lint step writes %q", s.With["report_paths"], junitOut)
			}
		}
	}
	for _, want := range []string{"actions/checkout", "actions/setup-go", "github/codeql-action/upload-sarif", "mikepenz/action-junit-report"} {
		if !slices.Contains(uses, want) {
			t.Errorf("no step uses %s", want)
		}
	}
	if wf.Env["FABRIC"] == "" {
		t.Errorf("no FABRIC: the lint step has no fabric directory")
	}
	var lines []string
	for _, s := range job.Steps {
		lines = append(lines, strings.Split(s.Run, "\n")...)
	}
	checkCommands(t, "github-actions.yml", lines)
}

func TestGitLabCI(t *testing.T) {
	var jobs map[string]glJob
	load(t, "gitlab-ci.yml", &jobs)
	job, ok := jobs["qoslint"]
	if !ok {
		t.Fatalf("no job qoslint")
	}
	if job.Artifacts.When != "always" {
		t.Errorf("artifacts:when %q: the report of a failing gate would be lost", job.Artifacts.When)
	}
	var junitOut string
	for _, l := range job.Script {
		if strings.Contains(l, "qoslint lint") {
			if junitOut != "" {
				t.Errorf("%q lints again: one run writes every report (--format FORMAT=PATH)", l)
			}
			junitOut = outputOf(l, "junit")
			if strings.Contains(l, "|| true") {
				t.Errorf("the JUnit lint line is the gate: %q", l)
			}
		}
	}
	if junitOut == "" || job.Artifacts.Reports.JUnit != junitOut {
		t.Errorf("artifacts:reports:junit %q, the lint line writes %q", job.Artifacts.Reports.JUnit, junitOut)
	}
	if !strings.HasPrefix(job.Image, "golang:") {
		t.Errorf("image %q has no go to install qoslint with", job.Image)
	}
	checkCommands(t, "gitlab-ci.yml", append(job.BeforeScript, job.Script...))
}

func TestPreCommitHookCommands(t *testing.T) {
	data, err := os.ReadFile("pre-commit-hook.sh")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var n int
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), `"$qoslint" lint`) {
			lines[i] = strings.Replace(l, `"$qoslint"`, "qoslint", 1)
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d qoslint lint lines in the hook", n)
	}
	checkCommands(t, "pre-commit-hook.sh", lines)
}

// checkCommands checks each qoslint command line: `go install` names the
// real main package, and `qoslint lint` uses only flags lint has and
// formats render has.
func checkCommands(t *testing.T, file string, lines []string) {
	t.Helper()
	var help bytes.Buffer
	if code := commands.Execute([]string{"lint", "--help"}, &help, &help); code != 0 {
		t.Fatalf("lint --help: exit %d", code)
	}
	linted := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if strings.Contains(l, "go install ") {
			m := regexp.MustCompile(`go install (\S+)@\S+`).FindStringSubmatch(l)
			if m == nil || m[1] != "github.com/qoslint/qoslint/cmd/qoslint" {
				t.Errorf("%s: %q does not install qoslint's main package", file, l)
			}
			if _, err := os.Stat("../../cmd/qoslint/main.go"); err != nil {
				t.Errorf("%s: %v", file, err)
			}
		}
		i := strings.Index(l, "qoslint lint ")
		if i < 0 {
			continue
		}
		linted = true
		fields := strings.Fields(l[i+len("qoslint lint "):])
		for j := 0; j < len(fields); j++ {
			f := fields[j]
			if f == ">" || f == "||" || strings.HasPrefix(f, ">") {
				break
			}
			if !strings.HasPrefix(f, "--") {
				continue
			}
			name, value, hasValue := strings.Cut(f, "=")
			// "  --waivers string" or, with a short form, "  -f, --format string".
			if !strings.Contains(help.String(), "  "+name+" ") && !strings.Contains(help.String(), ", "+name+" ") {
				t.Errorf("%s: lint has no flag %s (%q)", file, name, l)
			}
			if !hasValue && j+1 < len(fields) {
				value = fields[j+1]
			}
			switch name {
			case "--format":
				value, _, _ = strings.Cut(value, "=") // FORMAT=PATH
				if !slices.Contains(render.FormatNames(), value) {
					t.Errorf("%s: format %q is not one of %v", file, value, render.FormatNames())
				}
			case "--fail-on":
				if !slices.Contains([]string{"error", "warning", "info", `"$fail_on"`}, value) {
					t.Errorf("%s: --fail-on %q", file, value)
				}
			}
		}
	}
	if !linted {
		t.Errorf("%s runs no qoslint lint", file)
	}
}

// The hook lints what is staged, only when the fabric is, and its exit
// code decides the commit.
func TestPreCommitHook(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	hook, err := filepath.Abs("pre-commit-hook.sh")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run := func(qoslint string) (int, string) {
		t.Helper()
		cmd := exec.Command("sh", hook)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), asQoslint+"=1", "QOSLINT="+qoslint, "QOSLINT_FABRIC=fabric",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	fabric := func(example string) {
		t.Helper()
		dst := filepath.Join(repo, "fabric")
		if err := os.RemoveAll(dst); err != nil {
			t.Fatal(err)
		}
		fixture.Copy(t, filepath.Join("..", example), dst) // through the example's links
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("not the fabric\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "notes.txt")
	// Nothing of the fabric staged: qoslint is not even looked for.
	if code, out := run("/nonexistent/qoslint"); code != 0 {
		t.Errorf("no fabric staged: exit %d\n%s", code, out)
	}

	fabric("broken-pod")
	git("add", "-A")
	fabric("clean-pod") // the working tree is clean, the index is not
	if code, out := run(bin); code != 1 || !strings.Contains(out, "FAIL: findings at or above error") || !strings.Contains(out, "commit refused") {
		t.Errorf("broken fabric staged: exit %d\n%s", code, out)
	}
	git("add", "-A")
	fabric("broken-pod") // and now the other way round
	if code, out := run(bin); code != 0 || !strings.Contains(out, "PASS") {
		t.Errorf("clean fabric staged: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(filepath.Join(repo, "fabric", "qoslint-waivers.yaml"), []byte("waivers:\n  - {check: mtu, device: leaf01, reasons: typo}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "fabric/qoslint-waivers.yaml")
	if code, out := run(bin); code != 2 || !strings.Contains(out, `unknown key "reasons"`) {
		t.Errorf("bad waiver file staged: exit %d\n%s", code, out)
	}
	if code, out := run("/nonexistent/qoslint"); code != 1 || !strings.Contains(out, "not found") {
		t.Errorf("qoslint missing: exit %d\n%s", code, out)
	}
}
