package sim

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ProcsFile lists a simulated host's running processes for the job
// environment's commands (audit --job-env): {"processes": [{"pid": 4242,
// "root_only": true, "environ": ["HOME=/home/ml", "NCCL_IB_TC=106", ...]}]}.
// root_only is a process of another user, whose environ only root may
// read (proc(5)). The file is the simulator's only; lint ignores it.
const ProcsFile = "sim-procs.json"

type simProc struct {
	PID      int      `json:"pid"`
	RootOnly bool     `json:"root_only"`
	Environ  []string `json:"environ"`
}

// procs reads ProcsFile; none (or a file that is not JSON, which the
// simulator's own tests catch) is a host where nothing runs.
func (d *device) procs() []simProc {
	b, err := os.ReadFile(filepath.Join(d.dir, ProcsFile))
	if err != nil {
		return nil
	}
	var f struct {
		Processes []simProc `json:"processes"`
	}
	if json.Unmarshal(b, &f) != nil {
		return nil
	}
	return f.Processes
}

// jobEnvScan answers devcmd.JobEnvScan: the environ files with an NCCL_
// variable the caller may read, in the shell's glob order (text order),
// and grep -l's status: 1 when none matched. -s keeps errors silent.
func (d *device) jobEnvScan(sudo bool) result {
	var paths []string
	for _, p := range d.procs() {
		if p.RootOnly && !sudo {
			continue
		}
		for _, v := range p.Environ {
			if strings.HasPrefix(v, "NCCL_") {
				paths = append(paths, "/proc/"+strconv.Itoa(p.PID)+"/environ")
				break
			}
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return result{code: exitFail}
	}
	return stdout(strings.Join(paths, "\n")+"\n", exitOK)
}

// jobEnvGrepRe is devcmd.JobEnvRead's grep -E pattern.
var jobEnvGrepRe = regexp.MustCompile(`^(NCCL_|UCX_|NVSHMEM_|HOME=)`)

// jobEnvRead answers devcmd.JobEnvRead: the variables its pattern
// matches, each NUL-terminated as grep -z prints them. The error wording
// is GNU grep's ("grep: FILE: MESSAGE", strerror's text).
func (d *device) jobEnvRead(pid int, sudo bool) result {
	path := "/proc/" + strconv.Itoa(pid) + "/environ"
	for _, p := range d.procs() {
		if p.PID != pid {
			continue
		}
		if p.RootOnly && !sudo {
			return stderr("grep: "+path+": Permission denied\n", exitTrouble)
		}
		var out strings.Builder
		for _, v := range p.Environ {
			if jobEnvGrepRe.MatchString(v) {
				out.WriteString(v + "\x00")
			}
		}
		if out.Len() == 0 {
			return result{code: exitFail}
		}
		return stdout(out.String(), exitOK)
	}
	return stderr("grep: "+path+": No such file or directory\n", exitTrouble)
}
