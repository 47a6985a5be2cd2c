package hostfiles

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/internal/nvnum"
	"github.com/qoslint/qoslint/internal/source"
)

// NCCLEnv is the environment of an NCCL job as the operator captured it:
// the layer NCCL reads before any nccl.conf (NVIDIA/nccl src/misc/param.cc
// setEnvFile calls setenv(name, value, 0), which never overwrites a
// variable the process already has).
type NCCLEnv struct {
	File string
	// NUL is true for a /proc/<pid>/environ dump (entries end in NUL),
	// false for `env` output (entries end in a newline). Line numbers are
	// entry numbers in the NUL form.
	NUL bool
	// Vars is what getenv(3) returns: name → the first entry that sets it,
	// value verbatim.
	Vars map[string]NCCLVar
	// Notes are entries NCCL's getenv reads differently from how they may
	// look; Key is the NCCL_* variable concerned, "" for none.
	Notes []NCCLNote
}

// ParseNCCLEnv reads a job's environment in either of the two forms Linux
// prints it in, told apart by the NUL byte that only the first can hold:
//
//   - /proc/<pid>/environ: "The entries are separated by null bytes ('\0'),
//     and there may be a null byte at the end" (proc_pid_environ(5),
//     https://man7.org/linux/man-pages/man5/proc_pid_environ.5.html);
//   - `env` or `printenv` output: coreutils src/env.c prints each environ
//     entry verbatim, `printf ("%s%c", *e++, opt_nul_terminate_output ?
//     '\0' : '\n')`, so `env -0` is the NUL form too.
//
// Both are environ(7) entries, "name=value" with the value exactly as the
// process sees it. No shell unquoting is done: neither tool quotes, so
// NCCL_IB_TC="106" in such a capture means NCCL really sees the quotes
// (and strtoll reads 0). A hand-written file in shell syntax is a different
// format; `export `/`declare -x ` lines (bash `export -p`) are refused with
// their line so that nobody mistakes one for the other, and a quoted NCCL_*
// value gets a note.
//
// In `env` output a value holding a newline continues on the next line; a
// line without '=' is read as such a continuation (and noted when it
// continues an NCCL_* variable). getenv(3) returns the first entry with a
// name (glibc stdlib/getenv.c walks __environ in order), so a later
// duplicate is noted and ignored.
func ParseNCCLEnv(file string, data []byte) (*NCCLEnv, error) {
	e := &NCCLEnv{File: file, Vars: map[string]NCCLVar{}}
	entries, err := envEntries(file, data, e)
	if err != nil {
		return nil, err
	}
	last, named := "", 0
	for i, ent := range entries {
		n := i + 1
		name, value, ok := strings.Cut(ent, "=")
		if !e.NUL && (!ok || name == "") && last != "" {
			// A continuation line of the previous multi-line value.
			if v := e.Vars[last]; v.continued(n - 1) {
				v.Value += "\n" + ent
				e.Vars[last] = v
				if strings.HasPrefix(last, "NCCL_") {
					e.note(n, last, fmt.Sprintf("read as the continuation of %s's value (a value with a newline): %s is %q", last, last, clip(v.Value)))
				}
				continue
			}
		}
		if err := envEntryErr(file, n, ent, e.NUL); err != nil {
			return nil, err
		}
		if !ok || name == "" {
			// getenv never matches an entry without a name.
			// Its text is not quoted: it may be a line of another
			// variable's secret (a key's body).
			e.note(n, "", fmt.Sprintf("entry %d is no name=value entry: getenv(3) never returns it", n))
			last = ""
			continue
		}
		if first, dup := e.Vars[name]; dup {
			if strings.HasPrefix(name, "NCCL_") {
				e.note(n, name, fmt.Sprintf("%s is already set at %d; getenv(3) returns the first, %q", name, first.Line, clip(first.Value)))
			}
			last = ""
			continue
		}
		e.Vars[name] = NCCLVar{Value: value, Line: n}
		named++
		last = name
		if strings.HasPrefix(name, "NCCL_") && quoted(value) {
			e.note(n, name, fmt.Sprintf("%s=%s keeps its quotes: env and /proc/<pid>/environ print values verbatim, so NCCL sees them (an integer parameter reads %d); if this file was typed by hand in shell syntax, write the value without quotes", name, clip(value), nvnum.NCCLParamInt(value, -1)))
		}
	}
	if len(entries) > 0 && named == 0 {
		return nil, source.Errorf(file, 1, "no name=value entry: not `env` output or a /proc/<pid>/environ dump")
	}
	return e, nil
}

// continued reports whether line is a continuation of v: lines are
// consecutive, so v.Line plus the newlines already in v.Value.
func (v NCCLVar) continued(line int) bool {
	return v.Line+strings.Count(v.Value, "\n") == line
}

func (e *NCCLEnv) note(n int, key, msg string) {
	e.Notes = append(e.Notes, NCCLNote{Line: n, Key: key, Msg: msg})
}

// envEntries splits data into entries and decides the form.
func envEntries(file string, data []byte, e *NCCLEnv) ([]string, error) {
	if len(data) == 0 {
		return nil, nil
	}
	if bytes.IndexByte(data, 0) >= 0 {
		e.NUL = true
		entries := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
		for i, ent := range entries {
			if ent == "" {
				// execve(2) allows an empty string, but no shell or
				// job launcher passes one: a run of NULs is a padded
				// or damaged dump.
				return nil, source.Errorf(file, i+1, "empty entry %d in a NUL-separated environment: not a /proc/<pid>/environ dump", i+1)
			}
		}
		return entries, nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"), nil
}

// envEntryErr refuses what is not an environment capture.
func envEntryErr(file string, n int, ent string, nul bool) error {
	if len(ent) > maxNCCLLine {
		return source.Errorf(file, n, "entry is %d bytes long: not an environment capture", len(ent))
	}
	if nul {
		return nil
	}
	for _, p := range []string{"export ", "declare -"} {
		if strings.HasPrefix(ent, p) {
			// Only an NCCL variable's value is quoted back: the others may
			// be the job's tokens, which stay out of the report.
			shown := ent
			if name, _, _ := strings.Cut(strings.TrimPrefix(ent, p), "="); !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(name, "-x ")), "NCCL_") {
				shown = strings.SplitN(ent, "=", 2)[0] + "=…"
			}
			return source.Errorf(file, n, "%q is shell syntax (export -p), not `env` output: capture `env` or /proc/<pid>/environ, whose values are verbatim", clip(shown))
		}
	}
	return nil
}

func quoted(v string) bool {
	return len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0]
}
