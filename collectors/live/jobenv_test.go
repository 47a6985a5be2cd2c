package live

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// jobSecret is a distinctive value of a variable qoslint does not read: it
// must appear in no file, note or error.
const jobSecret = "hf_J0bEnvS3cr3tZq9xK"

// jobProcs are gpu01's processes: two NCCL ranks of one user that differ
// in NCCL_IB_TC, a root-only one of another user with a lower pid, and a
// process without NCCL_ variables. The environ entries are in the shape
// proc(5) gives, NAME=value each.
const jobProcs = `{"processes": [
 {"pid": 10234, "environ": ["PATH=/usr/bin", "HOME=/home/ml", "HF_TOKEN=` + jobSecret + `", "NCCL_IB_TC=104", "NCCL_IB_QPS_PER_CONNECTION=4", "UCX_IB_TRAFFIC_CLASS=106"]},
 {"pid": 9876, "environ": ["PATH=/usr/bin", "HOME=/home/ml", "HF_TOKEN=` + jobSecret + `", "NCCL_IB_TC=106", "NCCL_IB_QPS_PER_CONNECTION=4", "UCX_IB_TRAFFIC_CLASS=106"]},
 {"pid": 555, "root_only": true, "environ": ["HOME=/root", "DB_PASSWORD=` + jobSecret + `", "NCCL_IB_TC=106"]},
 {"pid": 77, "environ": ["HOME=/home/ops", "PASSWORD=` + jobSecret + `"]}
]}`

func jobEnvPod(t *testing.T) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "pod")
	if err := os.CopyFS(src, os.DirFS(cleanPod)); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, layout.DevicesDir, "gpu01", sim.ProcsFile), []byte(jobProcs))
	return src
}

func TestJobEnv(t *testing.T) {
	src := jobEnvPod(t)
	for _, tc := range []struct {
		name  string
		sudo  bool
		env   string
		notes []string
	}{
		{name: "as the login user", env: "HOME=/home/ml\x00NCCL_IB_TC=106\x00NCCL_IB_QPS_PER_CONNECTION=4\x00UCX_IB_TRAFFIC_CLASS=106\x00",
			notes: []string{
				"nccl-env.txt is the job environment of pid 9876, the lowest of the NCCL processes read (others: 10234)",
				"the NCCL processes' environments differ from pid 9876's in NCCL_IB_TC: each process reads its own environment first, so the findings hold for pid 9876 only",
			}},
		{name: "with sudo, other users' processes too", sudo: true, env: "HOME=/root\x00NCCL_IB_TC=106\x00",
			notes: []string{
				"nccl-env.txt is the job environment of pid 555, the lowest of the NCCL processes read (others: 9876, 10234)",
				"the NCCL processes' environments differ from pid 555's in HOME, NCCL_IB_QPS_PER_CONNECTION, NCCL_IB_TC, UCX_IB_TRAFFIC_CLASS: each process reads its own environment first, so the findings hold for pid 555 only",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startPod(t, src, sim.Options{})
			p.inv.SSH.Hosts.Sudo = tc.sudo
			opt := p.options()
			opt.JobEnv = true
			var evs events
			opt.OnEvent = evs.add
			r := Collect(context.Background(), p.inv, opt)
			if got := string(r.Files["devices/gpu01/"+layout.NCCLEnvFile]); got != tc.env {
				t.Errorf("nccl-env.txt = %q, want %q", got, tc.env)
			}
			var notes []string
			for _, n := range status(t, r, "gpu01").Notes {
				if strings.Contains(n, "pid") {
					notes = append(notes, n)
				}
			}
			if !slices.Equal(notes, tc.notes) {
				t.Errorf("notes\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(tc.notes, "\n"))
			}
			if n := status(t, r, "gpu02").Notes; !slices.ContainsFunc(n, func(s string) bool {
				return strings.Contains(s, "nccl-env.txt not collected: no process")
			}) {
				t.Errorf("gpu02 notes %q lack the no-process note", n)
			}
			if _, ok := r.Files["devices/gpu02/"+layout.NCCLEnvFile]; ok {
				t.Error("gpu02 has no NCCL process but got nccl-env.txt")
			}
			assertNoSecret(t, r, evs.list(), jobSecret)
			seen := p.fab.Seen("gpu01")
			if !slices.ContainsFunc(seen, func(c string) bool { return strings.HasSuffix(c, devcmd.JobEnvScan) }) {
				t.Errorf("the scan was not sent: %q", seen)
			}
			for _, c := range seen {
				if err := devcmd.Check(c); err != nil {
					t.Errorf("sent %q: %v", c, err)
				}
			}
		})
	}
}

// TestJobEnvOff: without --job-env no process is looked at.
func TestJobEnvOff(t *testing.T) {
	p := startPod(t, jobEnvPod(t), sim.Options{})
	r := Collect(context.Background(), p.inv, p.options())
	if _, ok := r.Files["devices/gpu01/"+layout.NCCLEnvFile]; ok {
		t.Error("nccl-env.txt collected without JobEnv")
	}
	for _, c := range p.fab.Seen("gpu01") {
		if strings.Contains(c, "/proc/") && c != devcmd.CatCPUInfo && !strings.HasSuffix(c, devcmd.CatCPUInfo) {
			t.Errorf("sent %q without JobEnv", c)
		}
	}
}
