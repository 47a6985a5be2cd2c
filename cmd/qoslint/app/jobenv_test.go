package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/sim"
)

// jobEnvSecret is a distinctive value of a variable qoslint does not read.
const jobEnvSecret = "ghp_AuditJ0bEnvS3cr3t7Qx"

// TestAuditJobEnv: with --job-env, audit reads gpu01's NCCL processes from
// the simulator (sim-procs.json), judges the lowest pid's environment,
// lint of the collected capture finds the same, and the secret in the
// processes' environments appears in no report, message or file.
func TestAuditJobEnv(t *testing.T) {
	src := copyDir(t, "../../../examples/clean-pod")
	procs := `{"processes": [
 {"pid": 31337, "environ": ["HOME=/home/ml", "HF_TOKEN=` + jobEnvSecret + `", "NCCL_IB_TC=106", "NCCL_IB_QPS_PER_CONNECTION=1"]},
 {"pid": 31400, "environ": ["HOME=/home/ml", "HF_TOKEN=` + jobEnvSecret + `", "NCCL_IB_TC=106", "NCCL_IB_QPS_PER_CONNECTION=4"]}
]}`
	writeFile(t, filepath.Join(src, "devices/gpu01", sim.ProcsFile), procs)
	inv, _ := simulate(t, src, nil)
	opt := liveOpts(inv)
	opt.JobEnv = true

	var auditOut, errOut bytes.Buffer
	if code := Audit(context.Background(), &auditOut, &errOut, AuditOptions{LiveOptions: opt, Format: "json", FailOn: judge.Error}); code != ExitOK {
		t.Fatalf("audit exit %d: %s\n%s", code, errOut.String(), auditOut.String())
	}
	a := decode(t, auditOut.Bytes())
	if len(a.Findings) != 1 || a.Findings[0].Check != "host-nccl-qps" || a.Findings[0].Device != "gpu01" ||
		!strings.Contains(a.Findings[0].Message, "NCCL_IB_QPS_PER_CONNECTION=1 (set in the job environment)") {
		t.Errorf("audit findings %+v, want gpu01's host-nccl-qps from the job environment", a.Findings)
	}
	var text bytes.Buffer
	Audit(context.Background(), &text, &errOut, AuditOptions{LiveOptions: opt, Format: "text", FailOn: judge.Error})
	if !strings.Contains(text.String(), "differ from pid 31337's in NCCL_IB_QPS_PER_CONNECTION") {
		t.Errorf("the report lacks the note on the differing processes:\n%s", text.String())
	}

	out := filepath.Join(t.TempDir(), "capture")
	if code := Collect(context.Background(), &errOut, opt, out); code != ExitOK {
		t.Fatalf("collect exit %d: %s", code, errOut.String())
	}
	env, err := os.ReadFile(filepath.Join(out, "devices/gpu01/nccl-env.txt"))
	if want := "HOME=/home/ml\x00NCCL_IB_TC=106\x00NCCL_IB_QPS_PER_CONNECTION=1\x00"; err != nil || string(env) != want {
		t.Errorf("nccl-env.txt = %q (%v), want %q", env, err, want)
	}
	var again bytes.Buffer
	Lint(&again, &errOut, out, LintOptions{Format: "json", FailOn: judge.Error})
	lj, _ := json.Marshal(decode(t, again.Bytes()).Findings)
	aj, _ := json.Marshal(a.Findings)
	if string(lj) != string(aj) {
		t.Errorf("lint of the capture differs from audit:\nlint  %s\naudit %s", lj, aj)
	}

	leaked := func(what string, b []byte) {
		if bytes.Contains(b, []byte(jobEnvSecret)) || bytes.Contains(b, []byte("HF_TOKEN")) {
			t.Errorf("the job environment's secret leaked into %s", what)
		}
	}
	leaked("the audit report", auditOut.Bytes())
	leaked("the text report", text.Bytes())
	leaked("stderr", errOut.Bytes())
	leaked("lint of the capture", again.Bytes())
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		leaked(p, b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
