package hostfiles

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// wantNote matches a note by line, key and a part of its message, so that
// rewording a message does not break every test.
type wantNote struct {
	line int
	key  string
	msg  string
}

func checkNotes(t *testing.T, got []NCCLNote, want []wantNote) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d notes, want %d:\n%s", len(got), len(want), notesText(got))
	}
	for i, w := range want {
		g := got[i]
		if g.Line != w.line || g.Key != w.key || !strings.Contains(g.Msg, w.msg) {
			t.Errorf("note %d = %d %q %q, want %d %q containing %q", i, g.Line, g.Key, g.Msg, w.line, w.key, w.msg)
		}
	}
}

func notesText(notes []NCCLNote) string {
	var b strings.Builder
	for _, n := range notes {
		b.WriteString("  " + n.Key + " @" + strconv.Itoa(n.Line) + ": " + n.Msg + "\n")
	}
	return b.String()
}

func TestParseNCCLConfFiles(t *testing.T) {
	tests := []struct {
		file  string
		vars  map[string]NCCLVar
		notes []wantNote
	}{
		{
			// NCCL env.rst: "NCCL_DEBUG=WARN / NCCL_SOCKET_IFNAME==ens1f0".
			file: "docs_example.conf",
			vars: map[string]NCCLVar{"NCCL_DEBUG": {"WARN", 1}, "NCCL_SOCKET_IFNAME": {"=ens1f0", 2}},
		},
		{
			file: "cluster_image.conf",
			vars: map[string]NCCLVar{
				"NCCL_IB_HCA": {"mlx5_0,mlx5_1", 2}, "NCCL_IB_GID_INDEX": {"3", 3}, "NCCL_SOCKET_IFNAME": {"eno1", 4},
				"NCCL_IB_TC": {"106", 6}, "NCCL_IB_SL": {"3", 7},
			},
		},
		{
			// Shell habits NCCL does not share: every line but the
			// comment is read differently from how it looks.
			file: "shell_style.conf",
			vars: map[string]NCCLVar{
				"export NCCL_IB_GID_INDEX": {"3", 2},
				"export NCCL_IB_TC":        {"106", 3},
				"NCCL_IB_HCA ":             {` "mlx5_0,mlx5_1"`, 4},
				"NCCL_IB_DISABLE":          {"0                    # Enable InfiniBand", 5},
				"NCCL_SOCKET_IFNAME":       {`"eno1"`, 6},
				"NCCL_IB_SL":               {"03", 7},
				"NCCL_IB_FIFO_TC":          {"0x68", 8},
				"NCCL_IB_TC":               {"0106", 9},
			},
			notes: []wantNote{
				{2, "NCCL_IB_GID_INDEX", `"export NCCL_IB_GID_INDEX=3" sets a variable named "export NCCL_IB_GID_INDEX", not NCCL_IB_GID_INDEX; this file does not set NCCL_IB_GID_INDEX`},
				{3, "NCCL_IB_TC", `"export NCCL_IB_TC=106" sets a variable named "export NCCL_IB_TC", not NCCL_IB_TC; NCCL_IB_TC comes from line 9`},
				{4, "NCCL_IB_HCA", `sets a variable named "NCCL_IB_HCA ", not NCCL_IB_HCA; this file does not set NCCL_IB_HCA`},
				{5, "NCCL_IB_DISABLE", `not "0" (it has no trailing comments); an integer parameter still reads 0`},
				{6, "NCCL_SOCKET_IFNAME", `NCCL reads the value as "\"eno1\"", not "eno1" (it keeps quotes)`},
				// "03" is 3 in octal too: no note for line 7.
				{8, "NCCL_IB_FIFO_TC", `"0x68" is hexadecimal for NCCL (104)`},
				{9, "NCCL_IB_TC", `"0106" is octal for NCCL (70)`},
				{10, "NCCL_IB_TC", `NCCL_IB_TC is already set on line 9; NCCL keeps the first value, "0106"`},
			},
		},
		{
			// getline splits at '\n' only, so each value keeps its CR.
			file: "crlf.conf",
			vars: map[string]NCCLVar{"NCCL_IB_TC": {"106\r", 2}, "NCCL_SOCKET_IFNAME": {"eno1\r", 3}},
			notes: []wantNote{
				{2, "NCCL_IB_TC", `NCCL reads the value as "106\r", not "106" (it keeps the CR of a DOS line end); an integer parameter still reads 106`},
				{3, "NCCL_SOCKET_IFNAME", `(it keeps the CR of a DOS line end)`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			name := filepath.Join("testdata", "nccl", tt.file)
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseNCCLConf(name, data)
			if err != nil {
				t.Fatal(err)
			}
			if got.File != name || !reflect.DeepEqual(got.Vars, tt.vars) {
				t.Errorf("vars\ngot  %+v\nwant %+v", got.Vars, tt.vars)
			}
			checkNotes(t, got.Notes, tt.notes)
		})
	}
}

func TestParseNCCLConfLines(t *testing.T) {
	tests := []struct {
		name, in string
		vars     map[string]NCCLVar
		notes    []wantNote
	}{
		{name: "empty", in: "", vars: map[string]NCCLVar{}},
		{name: "blank lines", in: "\n\n  \n\t\n", vars: map[string]NCCLVar{}},
		{name: "no final newline", in: "NCCL_IB_TC=106", vars: map[string]NCCLVar{"NCCL_IB_TC": {"106", 1}}},
		{
			name: "first duplicate wins",
			in:   "NCCL_IB_TC=106\nNCCL_IB_SL=3\nNCCL_IB_TC=96\n",
			vars: map[string]NCCLVar{"NCCL_IB_TC": {"106", 1}, "NCCL_IB_SL": {"3", 2}},
			notes: []wantNote{
				{3, "NCCL_IB_TC", `NCCL_IB_TC is already set on line 1; NCCL keeps the first value, "106"`},
			},
		},
		{
			// Only '#' in column 1 is a comment; an indented one with '='
			// sets a variable whose name starts with spaces and '#', which
			// is no NCCL variable, so it changes nothing and gets no note.
			name: "comments",
			in:   "#NCCL_IB_TC=96\n  # NCCL_IB_TC=97\nNCCL_IB_TC=106\n",
			vars: map[string]NCCLVar{"  # NCCL_IB_TC": {"97", 2}, "NCCL_IB_TC": {"106", 3}},
		},
		{
			name: "a # inside the value is kept",
			in:   "NCCL_TOPO_FILE=/etc/a#b.xml\nNCCL_ALGO=Ring#Tree\n",
			vars: map[string]NCCLVar{"NCCL_TOPO_FILE": {"/etc/a#b.xml", 1}, "NCCL_ALGO": {"Ring#Tree", 2}},
		},
		{
			name: "lines NCCL skips",
			in:   "NCCL_IB_TC 106\nexport NCCL_IB_SL\n=5\nset -e\n",
			vars: map[string]NCCLVar{},
			notes: []wantNote{
				{1, "NCCL_IB_TC", `no "=" on this line: NCCL ignores it`},
				{2, "NCCL_IB_SL", `no "="`},
				{3, "", `no variable name before "=": NCCL ignores this line`},
				{4, "set", `no "="`},
			},
		},
		{
			name:  "only spaces before =",
			in:    " =5\n",
			vars:  map[string]NCCLVar{" ": {"5", 1}},
			notes: []wantNote{{1, "", `no variable name before "=": NCCL sets a variable named " "`}},
		},
		{
			name: "empty values",
			in:   "NCCL_EMPTY=\nNCCL_X= # only a comment\n",
			vars: map[string]NCCLVar{"NCCL_EMPTY": {"", 1}, "NCCL_X": {" # only a comment", 2}},
			notes: []wantNote{
				{2, "NCCL_X", `NCCL reads the value as " # only a comment", not ""`},
			},
		},
		{
			name: "tab and quotes",
			in:   "\tNCCL_IB_TC=106\nNCCL_IB_SL='3'\nNCCL_ALGO=\"Ring\" # fast\n",
			vars: map[string]NCCLVar{"\tNCCL_IB_TC": {"106", 1}, "NCCL_IB_SL": {"'3'", 2}, "NCCL_ALGO": {`"Ring" # fast`, 3}},
			notes: []wantNote{
				{1, "NCCL_IB_TC", `"\tNCCL_IB_TC=106" sets a variable named "\tNCCL_IB_TC", not NCCL_IB_TC; this file does not set NCCL_IB_TC`},
				{2, "NCCL_IB_SL", `(it keeps quotes); an integer parameter reads it as 0`},
				{3, "NCCL_ALGO", `(it keeps quotes; it has no trailing comments)`},
			},
		},
		{
			name: "numbers",
			in:   "NCCL_IB_TC=08\nNCCL_IB_SL=-03\nNCCL_A=007\nNCCL_B=99999999999999999999\nNCCL_C=0X1F\nNCCL_D=+106\nNCCL_E= 0106\n",
			vars: map[string]NCCLVar{
				"NCCL_IB_TC": {"08", 1}, "NCCL_IB_SL": {"-03", 2}, "NCCL_A": {"007", 3},
				"NCCL_B": {"99999999999999999999", 4}, "NCCL_C": {"0X1F", 5}, "NCCL_D": {"+106", 6}, "NCCL_E": {" 0106", 7},
			},
			notes: []wantNote{
				{1, "NCCL_IB_TC", `"08" starts with 0, so NCCL reads it as octal and stops at the first 8 or 9: 0`},
				{4, "NCCL_B", `out of range for NCCL, whose integer parameters then keep their default`},
				{5, "NCCL_C", `"0X1F" is hexadecimal for NCCL (31)`},
				{7, "NCCL_E", `(it keeps spaces); an integer parameter reads it as 70 (octal)`},
			},
		},
		{
			// setEnvFile's buffers are 1024 bytes: strncpy(envValue,
			// line+s, 1023).
			name: "long value",
			in:   "NCCL_IB_HCA=" + strings.Repeat("m", 1500) + "\n",
			vars: map[string]NCCLVar{"NCCL_IB_HCA": {strings.Repeat("m", 1023), 1}},
			notes: []wantNote{
				{1, "NCCL_IB_HCA", `(it keeps only the first 1023 bytes)`},
			},
		},
		{
			name:  "long name",
			in:    strings.Repeat("N", 1030) + "=1\n",
			vars:  map[string]NCCLVar{strings.Repeat("N", 1023): {"1", 1}},
			notes: []wantNote{{1, strings.Repeat("N", 1030), `the variable name is 1030 bytes long: NCCL cuts it to 1023; this file does not set`}},
		},
		{
			name:  "lone CR",
			in:    "NCCL_IB_TC=106\rNCCL_IB_SL=3\n",
			vars:  map[string]NCCLVar{"NCCL_IB_TC": {"106\rNCCL_IB_SL=3", 1}},
			notes: []wantNote{{1, "", `carriage return inside the line`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseNCCLConf("nccl.conf", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Vars, tt.vars) {
				t.Errorf("vars\ngot  %+v\nwant %+v", got.Vars, tt.vars)
			}
			checkNotes(t, got.Notes, tt.notes)
		})
	}
}

func TestParseNCCLConfErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"NUL", "NCCL_DEBUG=WARN\nNCCL_IB_TC=1\x0006\n", 2, "NUL byte"},
		// A UTF-16 file saved by a Windows editor.
		{"UTF-16", "N\x00C\x00C\x00L\x00", 1, "not a text file"},
		{"huge line", "NCCL_DEBUG=WARN\n\nX=" + strings.Repeat("a", maxNCCLLine) + "\n", 3, "bytes long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseNCCLConf("nccl.conf", []byte(tt.in))
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("got %+v, %v; want a *source.Error", got, err)
			}
			if se.File != "nccl.conf" || se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %v, want line %d containing %q", se, tt.line, tt.msg)
			}
		})
	}
}
