package live

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
)

// maxJobEnvProcs bounds the processes whose environment is read: the
// lowest pid decides, the others are only compared with it.
const maxJobEnvProcs = 8

// captureJobEnv saves the job environment of a running NCCL process as
// nccl-env.txt, NUL-separated as /proc/<pid>/environ is, holding only the
// variables devcmd.JobEnvVar keeps. Several processes: the lowest pid's is
// kept, deterministically, and a note names the others. Each NCCL process
// reads its own environment first (NVIDIA/nccl src/misc/param.cc: getenv
// after setenv(name, value, 0) of the files), so processes whose
// variables differ are judged by the kept one only, which a note says.
func (r *devRun) captureJobEnv() error {
	scan := r.sudo(devcmd.JobEnvScan)
	out, ok, err := r.exec(scan)
	if !ok {
		return err
	}
	if line := failureLine(out); line != "" {
		// sudo -n refused, or no grep: grep -s itself prints no error.
		r.note("%s not collected: `%s` said %q", layout.NCCLEnvFile, scan, clip(line))
		return nil
	}
	pids, perr := devcmd.ParseJobEnvScan(string(out))
	if perr != nil {
		r.note("%s not collected: the output of `%s` is not a list of /proc/<pid>/environ files: %v", layout.NCCLEnvFile, scan, perr)
		return nil
	}
	if len(pids) == 0 {
		who := "readable by the login user"
		if r.dev.creds.Sudo {
			who = "on the host"
		}
		r.note("%s not collected: no process %s has an NCCL_ variable in its environment (`%s`)", layout.NCCLEnvFile, who, scan)
		return nil
	}
	if len(pids) > maxJobEnvProcs {
		r.note("%d processes have NCCL_ variables; the job environments of the lowest %d pids were read", len(pids), maxJobEnvProcs)
		pids = pids[:maxJobEnvProcs]
	}
	envs := map[int][]byte{}
	var read []int
	for _, pid := range pids {
		env, cmd, err := r.readJobEnv(pid)
		if err != nil {
			return err
		}
		if env == nil {
			continue
		}
		if len(read) == 0 {
			r.save(r.file(layout.NCCLEnvFile), cmd, env)
		}
		envs[pid] = env
		read = append(read, pid)
	}
	r.noteJobEnvs(read, envs)
	return nil
}

// readJobEnv reads one process's filtered environment; nil when the
// process is gone or unreadable (a note says which).
func (r *devRun) readJobEnv(pid int) ([]byte, string, error) {
	cmd, err := devcmd.JobEnvRead(pid)
	if err != nil {
		r.note("pid %d skipped: %v", pid, err)
		return nil, "", nil
	}
	cmd = r.sudo(cmd)
	out, ok, err := r.exec(cmd)
	if !ok {
		return nil, "", err
	}
	// grep's own complaint ("grep: /proc/<pid>/environ: Permission
	// denied", or No such process for one that exited) has no NUL.
	if !bytes.Contains(out, []byte{0}) {
		if line := strings.TrimSpace(string(out)); line != "" {
			r.note("the environment of pid %d not read: `%s` said %q", pid, cmd, clip(line))
		}
		return nil, "", nil
	}
	return devcmd.FilterEnviron(out), cmd, nil
}

// noteJobEnvs says which process nccl-env.txt comes from and where the
// others' variables differ from it (names only).
func (r *devRun) noteJobEnvs(read []int, envs map[int][]byte) {
	if len(read) < 2 {
		return
	}
	kept := envVars(envs[read[0]])
	diff := map[string]bool{}
	for _, pid := range read[1:] {
		other := envVars(envs[pid])
		for k, v := range kept {
			if ov, ok := other[k]; !ok || ov != v {
				diff[k] = true
			}
		}
		for k := range other {
			if _, ok := kept[k]; !ok {
				diff[k] = true
			}
		}
	}
	others := make([]string, len(read)-1)
	for i, pid := range read[1:] {
		others[i] = fmt.Sprint(pid)
	}
	r.note("%s is the job environment of pid %d, the lowest of the NCCL processes read (others: %s)", layout.NCCLEnvFile, read[0], strings.Join(others, ", "))
	if len(diff) > 0 {
		names := make([]string, 0, len(diff))
		for k := range diff {
			names = append(names, k)
		}
		sort.Strings(names)
		r.note("the NCCL processes' environments differ from pid %d's in %s: each process reads its own environment first, so the findings hold for pid %d only",
			read[0], strings.Join(names, ", "), read[0])
	}
}

// envVars maps a NUL-separated environment's names to values.
func envVars(env []byte) map[string]string {
	m := map[string]string{}
	for _, rec := range bytes.Split(env, []byte{0}) {
		if k, v, ok := bytes.Cut(rec, []byte("=")); ok {
			m[string(k)] = string(v)
		}
	}
	return m
}
