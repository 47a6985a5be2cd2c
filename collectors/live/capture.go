package live

import (
	"bytes"
	"errors"
	"regexp"
	"strings"

	"github.com/scrapli/scrapligo/util"
)

// extractOutput recovers what a command printed from the raw pty stream
// received since the command was written: the echoed command line, the
// output, then the next prompt. The pty's line discipline echoes the typed
// line and, with ONLCR, turns each '\n' the program writes into "\r\n"; the
// shell then prints the prompt right after the output, on the same line when
// the output has no final newline.
//
// prompt is the prompt as scrapligo saw it (no '\r', no ANSI escapes, no
// trailing blanks).
func extractOutput(raw []byte, cmd, prompt string) ([]byte, error) {
	i := bytes.Index(raw, []byte(cmd))
	if i < 0 {
		return nil, errors.New("the device did not echo the command")
	}
	nl := bytes.IndexByte(raw[i+len(cmd):], '\n')
	if nl < 0 {
		return nil, errors.New("no line end after the echoed command")
	}
	body := raw[i+len(cmd)+nl+1:]
	// bash ≥ 5.1 with bracketed paste leaves it as soon as the line is
	// accepted, before the program runs (readline rl_deprep_terminal).
	if rest, ok := bytes.CutPrefix(body, []byte("\x1b[?2004l")); ok {
		body, _ = bytes.CutPrefix(rest, []byte("\r"))
	}
	end, ok := promptStart(body, prompt)
	if !ok {
		return nil, errors.New("the output does not end with the device's prompt")
	}
	// ONLCR made every "\n" "\r\n" and left other bytes alone, so removing
	// the '\r' in front of each '\n' is its exact inverse: a CRLF the
	// program printed arrives as "\r\r\n" and goes back to "\r\n".
	return bytes.ReplaceAll(body[:end], []byte("\r\n"), []byte("\n")), nil
}

// promptWindow bounds how far before the end the prompt (with any escape
// sequences decorating it) may start.
const promptWindow = 512

// promptStart finds where the trailing prompt begins: the first offset
// from which the rest, seen as scrapligo sees it, is exactly the prompt
// plus blanks. Taking the first such offset also removes escape sequences
// that decorate the prompt (colours, window title, bracketed paste on).
func promptStart(b []byte, prompt string) (int, bool) {
	if prompt == "" {
		return 0, false
	}
	lo := max(0, len(b)-len(prompt)-promptWindow)
	for k := lo; k <= len(b)-len(prompt); k++ {
		if asSeen(b[k:]) == prompt {
			return peelEscapes(b, k), true
		}
	}
	return 0, false
}

// trailingEscape matches one escape sequence at the end of a text: CSI
// (ECMA-48 §5.4: parameters 0x30-0x3F, intermediates 0x20-0x2F, final
// 0x40-0x7E) or OSC ended by BEL or ST (xterm's window title, which
// Debian's .bashrc puts before the prompt).
var trailingEscape = regexp.MustCompile(`(?:\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\))\z`)

// peelEscapes moves the prompt's start back over the escape sequences
// right before it: they decorate the prompt, the output does not end
// with them. scrapligo's own ANSI pattern does not cover a title with
// spaces, so they are not always part of what promptStart matched.
func peelEscapes(b []byte, k int) int {
	for {
		lo := max(0, k-promptWindow)
		loc := trailingEscape.FindIndex(b[lo:k])
		if loc == nil {
			return k
		}
		k = lo + loc[0]
	}
}

// asSeen is what scrapligo's channel makes of raw bytes (channel/read.go):
// no '\r', no ANSI escapes; trailing blanks are not part of a prompt.
func asSeen(b []byte) string {
	b = bytes.ReplaceAll(b, []byte("\r"), nil)
	if bytes.IndexByte(b, 0x1b) >= 0 || bytes.Contains(b, []byte("\u009b")) {
		b = util.StripANSI(b)
	}
	return string(bytes.TrimRight(b, " \t"))
}

// failureMarkers are what a shell, a tool or sudo print when the command
// did not produce its output (bash "command not found", cat/open(2)
// "No such file or directory", NVUE "Error:", EACCES, sudo -n refusing
// to prompt, and infiniband-diags' "<prog>: iberror: failed: ..." that
// smpquery prints on stdout before exiting, linux-rdma/rdma-core
// infiniband-diags/ibdiag_common.c ibexit), and the docker CLI's answers
// when SONiC's lldp container is missing or stopped ("Error response from
// daemon: No such container: ..." or "... is not running", docker/cli
// issue 3518) or the user may not use docker ("Got permission denied
// while trying to connect to the Docker daemon socket").
var failureMarkers = []string{
	"Error response from daemon:",
	"permission denied while trying to connect to the Docker daemon",
	"iberror: failed:",
	"command not found",
	"No such file or directory",
	"Error:",
	"Permission denied",
	"sudo: a password is required",
}

// failureLine returns the line of out that says the command failed, or "".
// Only the first and the last non-blank lines are looked at: a tool fails
// before printing anything, or ends with its error (a traceback's last
// line), while a configuration may well mention "Error:" in a description.
func failureLine(out []byte) string {
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) > 2 {
		lines = []string{lines[0], lines[len(lines)-1]}
	}
	for _, line := range lines {
		for _, m := range failureMarkers {
			if strings.Contains(line, m) {
				return line
			}
		}
	}
	return ""
}

// clip keeps a device's line short and printable in a note.
func clip(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}
