package devcmd

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The job environment (audit --job-env): the variables of running NCCL
// processes, read from /proc/<pid>/environ, "the initial environment that
// was set when the currently executing program was started ... separated
// by null bytes" (proc(5), man7.org/linux/man-pages/man5/proc_pid_environ.5.html).
// Only the owner and root may read another process's environ (proc(5):
// ptrace access mode PTRACE_MODE_READ_FSCREDS), hence sudo -n where the
// inventory says so.
//
// JobEnvScan finds the candidates: every process whose environment has a
// variable starting NCCL_. No process name marks an NCCL user (python,
// torchrun, mpirun, a container's init, ...), so a pgrep -f pattern would
// miss some and match others, and pgrep -a prints whole command lines,
// where passwords do get passed; grep -l prints only the names of the
// matching files. -z makes each NUL-terminated variable a line, so ^
// anchors at a variable's name; -s drops the errors of processes that
// exit during the scan or that the user may not read. The shell expands
// the glob before grep starts, so grep never scans its own environment;
// it does scan the login shell running it, which matches only when the
// login profile itself exports NCCL_ variables.
const JobEnvScan = "grep -lsz '^NCCL_' /proc/[0-9]*/environ"

// jobEnvPattern keeps, on the host itself, only the variables qoslint
// reads: NCCL's, UCX's, NVSHMEM's, and HOME, which decides where NCCL
// looks for ~/.nccl.conf (NVIDIA/nccl src/misc/param.cc initEnvFunc). The
// rest of an environment (tokens, passwords) never leaves the host. -a
// keeps values with bytes that are not text from turning the output into
// "binary file matches".
const (
	jobEnvReadPrefix = "grep -az -E '^(NCCL_|UCX_|NVSHMEM_|HOME=)' /proc/"
	jobEnvReadSuffix = "/environ"
)

// maxPID is the largest pid Linux hands out: PID_MAX_LIMIT, 4194304 on
// 64-bit (Linux include/linux/threads.h), the ceiling of
// /proc/sys/kernel/pid_max.
const maxPID = 4 << 20

var pidRe = regexp.MustCompile(`^[1-9][0-9]{0,6}$`)

// JobEnvRead is the read of one process's job environment, filtered on
// the host to the variables JobEnvVar accepts.
func JobEnvRead(pid int) (string, error) {
	if pid < 1 || pid > maxPID {
		return "", fmt.Errorf("pid %d is out of range 1-%d", pid, maxPID)
	}
	return jobEnvReadPrefix + strconv.Itoa(pid) + jobEnvReadSuffix, nil
}

// parseJobEnvRead is the pid of a JobEnvRead command in exactly its form.
func parseJobEnvRead(cmd string) (int, bool) {
	rest, ok := strings.CutPrefix(cmd, jobEnvReadPrefix)
	if !ok {
		return 0, false
	}
	s, ok := strings.CutSuffix(rest, jobEnvReadSuffix)
	if !ok || !pidRe.MatchString(s) {
		return 0, false
	}
	pid, _ := strconv.Atoi(s)
	if _, err := JobEnvRead(pid); err != nil {
		return 0, false
	}
	return pid, true
}

// ParseJobEnvRead is parseJobEnvRead without a sudo -n prefix, for servers
// that answer the command (the simulator).
func ParseJobEnvRead(cmd string) (int, bool) { return parseJobEnvRead(cmd) }

// ParseJobEnvScan reads JobEnvScan's output: one /proc/<pid>/environ per
// line. The pids come back in ascending order, each once.
func ParseJobEnvScan(out string) ([]int, error) {
	seen := map[int]bool{}
	var pids []int
	for i, l := range strings.Split(strings.ReplaceAll(out, "\r", ""), "\n") {
		if l == "" {
			continue
		}
		s, ok := strings.CutPrefix(l, "/proc/")
		if ok {
			s, ok = strings.CutSuffix(s, jobEnvReadSuffix)
		}
		if !ok || !pidRe.MatchString(s) {
			return nil, fmt.Errorf("line %d: %q is not a /proc/<pid>/environ path", i+1, clipLine(l))
		}
		pid, _ := strconv.Atoi(s)
		if pid > maxPID {
			return nil, fmt.Errorf("line %d: pid %d is out of range", i+1, pid)
		}
		if !seen[pid] {
			seen[pid] = true
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	return pids, nil
}

func clipLine(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// JobEnvVar is whether qoslint keeps the variable name of the job
// environment: the ones the model reads, and nothing else.
func JobEnvVar(name string) bool {
	for _, p := range []string{"NCCL_", "UCX_", "NVSHMEM_"} {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return true
		}
	}
	return name == "HOME"
}

// FilterEnviron keeps the NUL-terminated variables of env that JobEnvVar
// accepts, in their order, each still NUL-terminated. It is applied again
// to what the host sent, so that a host (or anything between) that
// ignored the grep cannot put another variable into the capture.
func FilterEnviron(env []byte) []byte {
	var out []byte
	for _, rec := range bytes.Split(env, []byte{0}) {
		name, _, ok := bytes.Cut(rec, []byte("="))
		if !ok || !JobEnvVar(string(name)) {
			continue
		}
		out = append(append(out, rec...), 0)
	}
	return out
}
