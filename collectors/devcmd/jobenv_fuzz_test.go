package devcmd

import (
	"bytes"
	"slices"
	"testing"
)

// FuzzJobEnv feeds host output to the two readers of the job environment:
// the scan's list of /proc/<pid>/environ files, whose every pid must make
// an allowlisted read, and an environ (proc(5): NUL-separated NAME=value),
// of which only the variables qoslint reads may survive.
func FuzzJobEnv(f *testing.F) {
	f.Add("/proc/9876/environ\n/proc/10234/environ\n", []byte("HOME=/home/ml\x00NCCL_IB_TC=106\x00HF_TOKEN=x\x00"))
	f.Add("/proc/1/environ\r\n", []byte("NCCL_IB_QPS_PER_CONNECTION=4\x00UCX_IB_SL=3\x00NVSHMEM_IB_SL=3"))
	f.Add("grep: /proc/5/environ: Permission denied\n", []byte("=\x00\x00NCCL_\x00HOME\x00"))
	f.Add("/proc/0/environ\n/proc/self/environ", []byte("NCCL_IB_TC=1\nPASSWORD=y\x00"))
	f.Fuzz(func(t *testing.T, scan string, env []byte) {
		pids, err := ParseJobEnvScan(scan)
		if err == nil {
			if !slices.IsSorted(pids) || len(slices.Compact(slices.Clone(pids))) != len(pids) {
				t.Fatalf("pids %v not sorted and unique", pids)
			}
			for _, pid := range pids {
				cmd, err := JobEnvRead(pid)
				if err != nil || Check(cmd) != nil || Check(SudoPrefix+cmd) != nil {
					t.Fatalf("pid %d from the scan makes no allowlisted read: %v", pid, err)
				}
			}
		}
		kept := FilterEnviron(env)
		for _, rec := range bytes.Split(bytes.TrimSuffix(kept, []byte{0}), []byte{0}) {
			if len(kept) == 0 {
				break
			}
			name, _, ok := bytes.Cut(rec, []byte("="))
			if !ok || !JobEnvVar(string(name)) {
				t.Fatalf("kept %q", rec)
			}
		}
		if again := FilterEnviron(kept); !bytes.Equal(again, kept) {
			t.Fatalf("not idempotent: %q then %q", kept, again)
		}
	})
}
