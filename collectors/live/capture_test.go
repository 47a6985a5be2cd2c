package live

import (
	"bytes"
	"strings"
	"testing"
)

const (
	hostPrompt   = "root@gpu01:~#"
	switchPrompt = "cumulus@leaf01:mgmt:~$"
	// mlnx_qos pretty_print writes "enabled" rows with a trailing blank per
	// priority (Mellanox/mlnx-tools python/mlnx_qos).
	mlnxPFC = "PFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0   \n"
)

func onlcr(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// TestExtractOutput feeds raw pty streams, as a real bash or the simulator
// sends them, and wants back exactly what the program printed.
func TestExtractOutput(t *testing.T) {
	cmd := "mlnx_qos -i ens1f0np0"
	for _, tc := range []struct {
		name, raw, prompt, want string
	}{
		{"trailing blanks kept", cmd + "\r\n" + onlcr(mlnxPFC) + hostPrompt + " ", hostPrompt, mlnxPFC},
		// bash prints the prompt right after output that has no final newline.
		{"no final newline", cmd + "\r\n" + onlcr("a\nb") + hostPrompt + " ", hostPrompt, "a\nb"},
		{"CRLF content", cmd + "\r\n" + onlcr("a\r\nb\r\n") + hostPrompt + " ", hostPrompt, "a\r\nb\r\n"},
		{"lone CR and tab", cmd + "\r\n" + onlcr("50%\rdone\t\n") + hostPrompt + " ", hostPrompt, "50%\rdone\t\n"},
		{"empty output", cmd + "\r\n" + hostPrompt + " ", hostPrompt, ""},
		{"blank lines", cmd + "\r\n" + onlcr("\n\nx\n\n") + hostPrompt + " ", hostPrompt, "\n\nx\n\n"},
		{"prompt-like line inside", cmd + "\r\n" + onlcr("# root@gpu01:~# \nx\n") + hostPrompt + " ", hostPrompt, "# root@gpu01:~# \nx\n"},
		{"prompt text at end of output", cmd + "\r\n" + onlcr("see root@gpu01:~#\n") + hostPrompt + " ", hostPrompt, "see root@gpu01:~#\n"},
		{"stale prompt before the echo", "\r\n" + hostPrompt + " " + cmd + "\r\n" + onlcr("x\n") + hostPrompt + " ", hostPrompt, "x\n"},
		{"switch prompt", cmd + "\r\n" + onlcr("roce\n") + switchPrompt + " ", switchPrompt, "roce\n"},
		// bash 5.1+ with bracketed paste (xterm): off after Enter, on before
		// the prompt.
		{"bracketed paste", cmd + "\r\n\x1b[?2004l\r" + onlcr("x\n") + "\x1b[?2004h" + hostPrompt + " ", hostPrompt, "x\n"},
		// Debian .bashrc: xterm title, then a coloured PS1.
		{"title and colours", cmd + "\r\n" + onlcr("x\n") + "\x1b]0;root@gpu01: ~\x07\x1b[01;32mroot@gpu01\x1b[00m:\x1b[01;34m~\x1b[00m# ", hostPrompt, "x\n"},
		{"escapes in output kept", cmd + "\r\n" + onlcr("\x1b[1mbold\x1b[0m\n") + hostPrompt + " ", hostPrompt, "\x1b[1mbold\x1b[0m\n"},
	} {
		got, err := extractOutput([]byte(tc.raw), cmd, tc.prompt)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ name, raw, err string }{
		{"no echo", "mlnx_qos -i ens1f1np1\r\nx\r\n" + hostPrompt + " ", "did not echo"},
		{"echo not ended", cmd, "no line end"},
		{"no prompt", cmd + "\r\nx\r\n", "does not end with the device's prompt"},
		{"other prompt", cmd + "\r\nx\r\nroot@gpu02:~# ", "does not end with the device's prompt"},
		{"output after the prompt", cmd + "\r\nx\r\n" + hostPrompt + " y", "does not end with the device's prompt"},
	} {
		_, err := extractOutput([]byte(tc.raw), cmd, hostPrompt)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.err)
		}
	}
}

// TestLoginPrompt: the first prompt as scrapligo sees it (no '\r', ANSI
// escapes filtered by its own pattern).
func TestLoginPrompt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Welcome to Ubuntu 22.04 LTS\nroot@gpu01:~# ", "root@gpu01:~# "},
		{"ops@gpu02:~$ \nops@gpu02:~$ ", "ops@gpu02:~$ "},
		{"cumulus@leaf01:mgmt:~$ ", "cumulus@leaf01:mgmt:~$ "},
		{"cumulus@leaf01:~$ ", "cumulus@leaf01:~$ "},
		{"cumulus@sw-1.lab:mgmt:/home/cumulus$ ", "cumulus@sw-1.lab:mgmt:/home/cumulus$ "},
		// What scrapligo's filter leaves of "\x1b]0;u@leaf01: ~\x07" (Debian's xterm title).
		{";u@leaf01: ~\au@leaf01:mgmt:~$ ", "u@leaf01:mgmt:~$ "},
		{"Last login: Mon from 10.0.0.1\nmail: a@b: see $HOME\n", ""},
		{"You have $5 credit\n", ""},
	} {
		if got := loginPrompt.FindString(tc.in); got != tc.want {
			t.Errorf("%q: prompt %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFailureLine(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"-bash: ibdev2netdev: command not found\n", "-bash: ibdev2netdev: command not found"},
		{"cat: /etc/nccl.conf: No such file or directory\n", "cat: /etc/nccl.conf: No such file or directory"},
		{"Error: qos roce is not available\n", "Error: qos roce is not available"},
		{"sudo: a password is required\n", "sudo: a password is required"},
		{"x\nopen /dev/mst: Permission denied\n", "open /dev/mst: Permission denied"},
		{mlnxPFC, ""},
		{"Traceback (most recent call last):\n  File \"/usr/bin/mlnx_qos\", line 10\nPermissionError: [Errno 13] Permission denied\n", "PermissionError: [Errno 13] Permission denied"},
		{"interface:\n  swp1:\n    description: 'Error: do not use'\n  swp2: {}\n", ""},
		{"NCCL_IB_TC=106\n", ""},
		{"Error response from daemon: No such container: lldp\n", "Error response from daemon: No such container: lldp"},
		{"permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get \"http://%2Fvar%2Frun%2Fdocker.sock/v1.41/containers/lldp/json\": dial unix /var/run/docker.sock: connect: permission denied\n",
			"permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get \"http://%2Fvar%2Frun%2Fdocker.sock/v1.41/containers/lldp/json\": dial unix /var/run/docker.sock: connect: permission denied"},
	} {
		if got := failureLine([]byte(tc.out)); got != tc.want {
			t.Errorf("failureLine(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

// FuzzExtractOutput: never panics; and whatever a program prints comes
// back unchanged when the stream is echo + ONLCR(output) + prompt, as long
// as the output itself holds no escape sequence and does not end with a
// CR (both are indistinguishable from prompt decoration).
func FuzzExtractOutput(f *testing.F) {
	f.Add([]byte(mlnxPFC), []byte("ibdev2netdev\r\nmlx5_0 port 1 ==> ens1f0np0 (Up)\r\nroot@gpu01:~# "))
	f.Add([]byte("a\r\nb"), []byte("\x1b[?2004l\r"))
	f.Add([]byte("root@gpu01:~# \n"), []byte("ibdev2netdev\r\n\x1b]0;t\x07root@gpu01:~#"))
	f.Add([]byte(""), []byte(""))
	f.Fuzz(func(t *testing.T, out, raw []byte) {
		const cmd = "ibdev2netdev"
		_, _ = extractOutput(raw, cmd, hostPrompt) // must not panic
		if bytes.IndexByte(out, 0x1b) >= 0 || bytes.Contains(out, []byte("\u009b")) || bytes.HasSuffix(out, []byte("\r")) {
			return
		}
		stream := append([]byte(cmd+"\r\n"), bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))...)
		stream = append(stream, hostPrompt+" "...)
		got, err := extractOutput(stream, cmd, hostPrompt)
		if err != nil || !bytes.Equal(got, out) {
			t.Fatalf("output %q came back as %q, %v", out, got, err)
		}
	})
}

// FuzzFailureLine: the verdict is "" or one trimmed line of the output
// that holds a failure marker.
func FuzzFailureLine(f *testing.F) {
	f.Add([]byte("-bash: ibdev2netdev: command not found\n"))
	f.Add([]byte(mlnxPFC))
	f.Add([]byte("a\n\n  Error: x  \n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		got := failureLine(out)
		if got == "" {
			return
		}
		if strings.TrimSpace(got) != got || strings.Contains(got, "\n") || !bytes.Contains(out, []byte(got)) {
			t.Fatalf("%q is not a trimmed line of %q", got, out)
		}
		marked := false
		for _, m := range failureMarkers {
			marked = marked || strings.Contains(got, m)
		}
		if !marked {
			t.Fatalf("%q holds no failure marker", got)
		}
	})
}
