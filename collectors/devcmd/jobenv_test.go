package devcmd

import (
	"reflect"
	"strings"
	"testing"
)

func TestJobEnvAllowlist(t *testing.T) {
	read := func(pid int) string {
		c, err := JobEnvRead(pid)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ok := []string{
		JobEnvScan, SudoPrefix + JobEnvScan,
		"grep -lsz '^NCCL_' /proc/[0-9]*/environ",
		"grep -az -E '^(NCCL_|UCX_|NVSHMEM_|HOME=)' /proc/4242/environ",
		"sudo -n grep -az -E '^(NCCL_|UCX_|NVSHMEM_|HOME=)' /proc/1/environ",
		read(1), read(4194304), SudoPrefix + read(31337),
	}
	for _, c := range ok {
		if err := Check(c); err != nil {
			t.Errorf("Check(%q) = %v, want allowed", c, err)
		}
	}
	const pre, suf = "grep -az -E '^(NCCL_|UCX_|NVSHMEM_|HOME=)' /proc/", "/environ"
	bad := []string{
		// Another pid than a plain number: self, leading zeros, out of range.
		pre + "self" + suf, pre + "0" + suf, pre + "01" + suf, pre + "4194305" + suf, pre + "99999999" + suf, pre + "-1" + suf, pre + suf,
		pre + "*" + suf, pre + "[0-9]*" + suf, pre + "1 2" + suf,
		// Injection: a second command, a second file, a substitution.
		pre + "1;reboot" + suf, pre + "1" + suf + "; cat /etc/shadow", pre + "1" + suf + " /etc/shadow", pre + "1/../../etc/shadow" + suf,
		pre + "$(reboot)" + suf, pre + "`id`" + suf, pre + "1" + suf + "\nreboot", pre + "1" + suf + " && reboot", pre + "1" + suf + " | nc 127.0.0.1 1",
		pre + "1/cmdline", pre + "1/mem", pre + "1" + suf + "x",
		// Another filter: every variable, or the whole environment.
		"grep -az -E '' /proc/1/environ", "grep -az -E '.' /proc/1/environ", "grep -az -E '^(NCCL_|UCX_|NVSHMEM_|HOME=|AWS_)' /proc/1/environ",
		"cat /proc/1/environ", "sudo -n cat /proc/1/environ", "strings /proc/1/environ", "tr '\\0' '\\n' < /proc/1/environ",
		"grep -az  -E '^(NCCL_|UCX_|NVSHMEM_|HOME=)' /proc/1/environ", "sudo " + pre + "1" + suf,
		// The scan in any other form.
		"grep -lsz '^NCCL_' /proc/*/environ", "grep -lsz '' /proc/[0-9]*/environ", "grep -sz '^NCCL_' /proc/[0-9]*/environ",
		JobEnvScan + "; reboot", JobEnvScan + " /etc/shadow", "pgrep -a python", "pgrep -f nccl", "ps auxe",
	}
	for _, c := range bad {
		if err := Check(c); err == nil {
			t.Errorf("Check(%q) allowed, want refused", c)
		}
	}
	for _, pid := range []int{0, -5, 4194305} {
		if _, err := JobEnvRead(pid); err == nil {
			t.Errorf("JobEnvRead(%d) accepted", pid)
		}
	}
}

func TestParseJobEnvScan(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want []int
		err  string
	}{
		{out: "", want: nil},
		// The shell sorts the glob as text: 10234 before 9876.
		{out: "/proc/10234/environ\n/proc/9876/environ\n", want: []int{9876, 10234}},
		{out: "/proc/7/environ\r\n/proc/7/environ\r\n", want: []int{7}},
		{out: "grep: /proc/1/environ: Permission denied\n", err: "line 1"},
		{out: "/proc/self/environ\n", err: "not a /proc/<pid>/environ path"},
		{out: "/proc/1/environ\n/proc/99999999/environ\n", err: "line 2"},
	} {
		got, err := ParseJobEnvScan(tc.out)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.out, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.out, got, err, tc.want)
		}
	}
}

func TestFilterEnviron(t *testing.T) {
	// proc(5): "The entries are separated by null bytes ('\0'), and there
	// may be a null byte at the end."
	in := "HOME=/home/ml\x00AWS_SECRET_ACCESS_KEY=s3cr3t-Zq9\x00NCCL_IB_TC=106\x00NCCL_=x\x00UCX_IB_SL=3\x00" +
		"MY_NCCL_IB_TC=1\x00NVSHMEM_IB_SL=3\x00HOMEDIR=/x\x00garbage\x00NCCL_TOKEN_PASSWORD"
	want := "HOME=/home/ml\x00NCCL_IB_TC=106\x00UCX_IB_SL=3\x00NVSHMEM_IB_SL=3\x00"
	if got := string(FilterEnviron([]byte(in))); got != want {
		t.Errorf("FilterEnviron = %q, want %q", got, want)
	}
	if got := FilterEnviron(nil); len(got) != 0 {
		t.Errorf("FilterEnviron(nil) = %q", got)
	}
}
