package hostfiles

import (
	"bytes"
	"strings"
	"testing"
)

func TestSetNCCLVar(t *testing.T) {
	cluster := "# /etc/nccl.conf on gpu01 (managed by the cluster image; NCCL_* env vars override)\n" +
		"NCCL_IB_HCA=mlx5_0,mlx5_1\nNCCL_IB_GID_INDEX=3\nNCCL_SOCKET_IFNAME=eno1\n"
	tests := []struct {
		name, in, key, value, want string
	}{
		{
			// broken-pod gpu04 has no NCCL_IB_TC: appended.
			name: "append", in: cluster, key: "NCCL_IB_TC", value: "106",
			want: cluster + "NCCL_IB_TC=106\n",
		},
		{
			// broken-pod gpu03 sets the DSCP instead of the ToS byte.
			name: "replace in place",
			in:   "NCCL_IB_HCA=mlx5_0,mlx5_1\n# RoCE DSCP\nNCCL_IB_TC=26\nNCCL_SOCKET_IFNAME=eno1\n",
			key:  "NCCL_IB_TC", value: "106",
			want: "NCCL_IB_HCA=mlx5_0,mlx5_1\n# RoCE DSCP\nNCCL_IB_TC=106\nNCCL_SOCKET_IFNAME=eno1\n",
		},
		{
			// Only the first line counts; the later one stays ignored.
			name: "first occurrence", in: "NCCL_IB_TC=0106\nNCCL_IB_TC=106\n", key: "NCCL_IB_TC", value: "104",
			want: "NCCL_IB_TC=104\nNCCL_IB_TC=106\n",
		},
		{
			// NCCL reads "export NCCL_IB_TC" here, not NCCL_IB_TC.
			name: "export line left alone", in: "export NCCL_IB_GID_INDEX=3\nexport NCCL_IB_TC=106", key: "NCCL_IB_TC", value: "106",
			want: "export NCCL_IB_GID_INDEX=3\nexport NCCL_IB_TC=106\nNCCL_IB_TC=106\n",
		},
		{
			// "NCCL_IB_TC =5" sets "NCCL_IB_TC ", a different name.
			name: "spaced name is another variable", in: "NCCL_IB_TC = 5\n", key: "NCCL_IB_TC", value: "106",
			want: "NCCL_IB_TC = 5\nNCCL_IB_TC=106\n",
		},
		{
			// The CR would stay in NCCL's value, so it goes with the line.
			name: "crlf line", in: "A=1\r\nNCCL_IB_TC=106\r\nB=2\r\n", key: "NCCL_IB_TC", value: "96",
			want: "A=1\r\nNCCL_IB_TC=96\nB=2\r\n",
		},
		{
			name: "commented line is not read", in: "#NCCL_IB_TC=106\n", key: "NCCL_IB_TC", value: "106",
			want: "#NCCL_IB_TC=106\nNCCL_IB_TC=106\n",
		},
		{name: "empty file", in: "", key: "NCCL_IB_SL", value: "3", want: "NCCL_IB_SL=3\n"},
		{name: "last line without newline", in: "NCCL_IB_SL=0", key: "NCCL_IB_SL", value: "3", want: "NCCL_IB_SL=3"},
		{name: "empty value", in: "NCCL_IB_SL=0\n", key: "NCCL_IB_SL", value: "", want: "NCCL_IB_SL=\n"},
		{name: "key with '=' is refused", in: "A=1\n", key: "A=B", value: "1", want: "A=1\n"},
		{name: "comment key is refused", in: "A=1\n", key: "#A", value: "1", want: "A=1\n"},
		{name: "newline in value is refused", in: "A=1\n", key: "A", value: "1\nB=2", want: "A=1\n"},
		{name: "long value is refused", in: "A=1\n", key: "A", value: strings.Repeat("x", 1024), want: "A=1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.in)
			got := SetNCCLVar(in, tt.key, tt.value)
			if string(got) != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			if string(in) != tt.in {
				t.Errorf("input modified: %q", in)
			}
			if !ncclKeyOK(tt.key) || !ncclValueOK(tt.value) {
				return
			}
			before, _ := ParseNCCLConf("nccl.conf", in)
			after, err := ParseNCCLConf("nccl.conf", got)
			if err != nil {
				t.Fatal(err)
			}
			if v := after.Vars[tt.key]; v.Value != tt.value {
				t.Errorf("NCCL reads %s=%q, want %q", tt.key, v.Value, tt.value)
			}
			for k, v := range before.Vars {
				if k != tt.key && after.Vars[k] != v {
					t.Errorf("%s changed from %+v to %+v", k, v, after.Vars[k])
				}
			}
		})
	}
}

func TestSetNCCLVarShellStyleFile(t *testing.T) {
	in := readTestdata(t, "nccl/shell_style.conf")
	got := SetNCCLVar(in, "NCCL_IB_TC", "106")
	// Only the first NCCL_IB_TC line (0106, octal 70 to NCCL) changes.
	want := bytes.Replace(in, []byte("NCCL_IB_TC=0106\n"), []byte("NCCL_IB_TC=106\n"), 1)
	if !bytes.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	c, err := ParseNCCLConf("nccl.conf", got)
	if err != nil {
		t.Fatal(err)
	}
	if c.Vars["NCCL_IB_TC"].Value != "106" || c.Vars["export NCCL_IB_TC"].Value != "106" {
		t.Errorf("got %+v", c.Vars)
	}
}

func TestDelNCCLVar(t *testing.T) {
	tests := []struct {
		name, in, key, want string
	}{
		{"every line", "NCCL_IB_TC=0106\nA=1\nNCCL_IB_TC=106\n", "NCCL_IB_TC", "A=1\n"},
		{"export and comment stay", "export NCCL_IB_TC=106\n#NCCL_IB_TC=1\nNCCL_IB_TC=5", "NCCL_IB_TC", "export NCCL_IB_TC=106\n#NCCL_IB_TC=1\n"},
		{"crlf", "NCCL_IB_TC=106\r\nB=2\r\n", "NCCL_IB_TC", "B=2\r\n"},
		{"absent", "A=1\nB", "NCCL_IB_TC", "A=1\nB"},
		{"invalid key matches nothing", "A=1\n", "", "A=1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DelNCCLVar([]byte(tt.in), tt.key)
			if string(got) != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			c, err := ParseNCCLConf("nccl.conf", got)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := c.Vars[tt.key]; ok {
				t.Errorf("%s still set: %+v", tt.key, c.Vars)
			}
		})
	}
}
