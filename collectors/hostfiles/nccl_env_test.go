package hostfiles

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The fixtures are written here in the two shapes Linux prints an
// environment in: `env` output (coreutils src/env.c prints each entry and
// '\n'; bash exports a function as BASH_FUNC_<name>%%=() {...}, whose
// value spans lines, as Lmod's `module` does on HPC nodes) and a
// /proc/<pid>/environ dump (entries separated by NUL, proc_pid_environ(5)).
func TestParseNCCLEnvFiles(t *testing.T) {
	tests := []struct {
		file  string
		nul   bool
		vars  map[string]NCCLVar
		notes []wantNote
	}{
		{
			file: "env_slurm_job.txt",
			vars: map[string]NCCLVar{
				"SLURM_JOB_ID": {"41207", 1}, "HOME": {"/home/alice", 2}, "PATH": {"/usr/local/cuda/bin:/usr/bin:/bin", 3},
				"BASH_FUNC_module%%": {"() {  local _mlredir=1;\n eval \"$($LMOD_CMD shell \"$@\")\"\n}", 4},
				"NCCL_IB_HCA":        {"mlx5_0,mlx5_1", 7}, "NCCL_IB_TC": {"106", 8}, "NCCL_SOCKET_IFNAME": {"eno1", 9},
				"OMPI_MCA_btl_tcp_if_include": {"eno1", 10},
			},
		},
		{
			file: "environ_proc.bin",
			nul:  true,
			vars: map[string]NCCLVar{
				"HOME": {"/root", 1}, "PATH": {"/usr/bin:/bin", 2}, "NCCL_CONF_FILE": {"/opt/job/nccl.conf", 3},
				"NCCL_IB_TC": {"104", 4}, "NCCL_DEBUG": {"INFO", 5},
			},
		},
		{
			file: "env_quoted.txt",
			vars: map[string]NCCLVar{"HOME": {"/home/bob", 1}, "NCCL_IB_TC": {`"106"`, 2}, "NCCL_IB_GID_INDEX": {"3", 4}},
			notes: []wantNote{
				{2, "NCCL_IB_TC", "keeps its quotes"},
				{3, "NCCL_IB_TC", "getenv(3) returns the first"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "nccl_env", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			e, err := ParseNCCLEnv(tt.file, data)
			if err != nil {
				t.Fatal(err)
			}
			if e.NUL != tt.nul {
				t.Errorf("NUL = %v, want %v", e.NUL, tt.nul)
			}
			if !reflect.DeepEqual(e.Vars, tt.vars) {
				t.Errorf("vars:\n got %v\nwant %v", e.Vars, tt.vars)
			}
			checkNotes(t, e.Notes, tt.notes)
		})
	}
}

func TestParseNCCLEnvSemantics(t *testing.T) {
	tests := []struct {
		name, in string
		tc       string // NCCL_IB_TC as getenv returns it; "-" when unset
		notes    []wantNote
		errLine  int // > 0: an error at this line
	}{
		{name: "empty environment", in: "", tc: "-"},
		{name: "value verbatim, spaces kept", in: "NCCL_IB_TC= 106 \n", tc: " 106 "},
		{name: "empty value is set", in: "NCCL_IB_TC=\n", tc: ""},
		{name: "value with '='", in: "NCCL_SOCKET_IFNAME==eth0\nNCCL_IB_TC=104\n", tc: "104"},
		{name: "first of two wins", in: "NCCL_IB_TC=104\nNCCL_IB_TC=26\n", tc: "104",
			notes: []wantNote{{2, "NCCL_IB_TC", "returns the first, \"104\""}}},
		{name: "NUL form, no trailing NUL", in: "A=1\x00NCCL_IB_TC=96", tc: "96"},
		{name: "NUL form keeps newlines", in: "F=a\nb\x00NCCL_IB_TC=96\x00", tc: "96"},
		{name: "NUL form entry without '='", in: "junk\x00NCCL_IB_TC=96\x00", tc: "96",
			notes: []wantNote{{1, "", "no name=value entry"}}},
		{name: "continuation of an NCCL value", in: "NCCL_IB_TC=104\nx\n", tc: "104\nx",
			notes: []wantNote{{2, "NCCL_IB_TC", "continuation"}}},
		{name: "text before any variable", in: "hello\nNCCL_IB_TC=104\n", tc: "104",
			notes: []wantNote{{1, "", "no name=value entry"}}},
		{name: "export -p is refused", in: "HOME=/root\nexport NCCL_IB_TC=106\n", errLine: 2},
		{name: "declare -x is refused", in: "declare -x NCCL_IB_TC=\"106\"\n", errLine: 1},
		{name: "no variable at all", in: "not an environment\n", errLine: 1},
		{name: "padded NUL dump", in: "A=1\x00\x00\x00", errLine: 2},
		{name: "overlong entry", in: "A=" + strings.Repeat("x", maxNCCLLine) + "\n", errLine: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := ParseNCCLEnv("env.txt", []byte(tt.in))
			if tt.errLine > 0 {
				if err == nil {
					t.Fatalf("no error, want one at line %d", tt.errLine)
				}
				if !strings.HasPrefix(err.Error(), "env.txt:"+strconv.Itoa(tt.errLine)+":") {
					t.Fatalf("error %q, want at line %d", err, tt.errLine)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			v, ok := e.Vars["NCCL_IB_TC"]
			got := v.Value
			if !ok {
				got = "-"
			}
			if got != tt.tc {
				t.Errorf("NCCL_IB_TC = %q, want %q", got, tt.tc)
			}
			checkNotes(t, e.Notes, tt.notes)
		})
	}
}

// TestNCCLEnvKeepsSecretsOut: what the parser says of a job environment
// quotes no value of a variable qoslint does not read.
func TestNCCLEnvKeepsSecretsOut(t *testing.T) {
	const sec = "s3cr3t-Vq7RkP"
	for _, in := range []string{
		"NCCL_IB_TC=106\nexport AWS_SECRET_ACCESS_KEY=" + sec + "\n",
		"NCCL_IB_TC=106\ndeclare -x DB_PASSWORD=\"" + sec + "\"\n",
		// An entry without a name, in a /proc/<pid>/environ dump.
		"NCCL_IB_TC=106\x00" + sec + "\x00",
		"NCCL_IB_TC=106\x00=" + sec + "\x00",
	} {
		e, err := ParseNCCLEnv("nccl-env.txt", []byte(in))
		if err != nil && strings.Contains(err.Error(), sec) {
			t.Errorf("%q: the error quotes the secret: %v", in, err)
		}
		if e != nil {
			for _, n := range e.Notes {
				if strings.Contains(n.Msg, sec) {
					t.Errorf("%q: a note quotes the secret: %s", in, n.Msg)
				}
			}
		}
	}
}
