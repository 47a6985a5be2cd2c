package sim

import (
	"io"
	"strings"
)

// maxLine bounds one input line; bash has no limit, but a client that
// never sends a newline must not grow the simulator without end. Bytes
// beyond it are echoed and dropped.
const maxLine = 64 << 10

// event is what an input byte did to the line discipline.
type event int

const (
	evNone      event = iota
	evLine            // a line ended (CR or LF)
	evInterrupt       // ^C: the line is discarded
	evEOF             // ^D on an empty line
)

// term is a pty's line discipline in canonical mode with ECHO, ICRNL and
// ONLCR (termios(3)): every input byte is echoed, CR or LF ends a line and
// echoes as CRLF, and the LF of a CRLF pair is swallowed so that a client
// ending lines with "\r\n" runs each command once (OpenSSH sends CR on
// Enter, scrapligo LF).
type term struct {
	line   []byte
	lastCR bool
}

// feed processes one byte; it returns the bytes to echo and, for evLine,
// the finished line.
func (t *term) feed(b byte) (echo string, ev event, line string) {
	wasCR := t.lastCR
	t.lastCR = false
	switch b {
	case '\n':
		if wasCR {
			return "", evNone, ""
		}
		fallthrough
	case '\r':
		t.lastCR = b == '\r'
		line = string(t.line)
		t.line = t.line[:0]
		return "\r\n", evLine, line
	case 0x7f, 0x08: // VERASE: erase one character on screen too
		if len(t.line) == 0 {
			return "", evNone, ""
		}
		t.line = t.line[:len(t.line)-1]
		return "\b \b", evNone, ""
	case 0x03: // VINTR with ECHOCTL
		t.line = t.line[:0]
		return "^C\r\n", evInterrupt, ""
	case 0x04: // VEOF: end of input only on an empty line
		if len(t.line) == 0 {
			return "", evEOF, ""
		}
		return "", evNone, ""
	}
	if len(t.line) < maxLine {
		t.line = append(t.line, b)
	}
	return string([]byte{b}), evNone, "" // string(b) would encode the rune U+00XX
}

// shell is an interactive login shell: banner, prompt, then one command per
// line, each answered with its output (LF → CRLF) and a new prompt. As with
// bash, output without a final newline leaves the prompt on its last line,
// so a prompt pattern must not insist on starting a line.
func (s *session) shell() {
	d := s.d
	if d.f.opt.Banner != "" {
		if _, err := s.ch.Write(onlcr([]byte(d.f.opt.Banner))); err != nil {
			return
		}
	}
	if _, err := io.WriteString(s.ch, d.prompt); err != nil {
		return
	}
	var t term
	var last uint32
	buf := make([]byte, 512)
	var echo []byte
	for {
		n, err := s.ch.Read(buf)
		if err != nil {
			return
		}
		echo = echo[:0]
		for _, b := range buf[:n] {
			e, ev, line := t.feed(b)
			echo = append(echo, e...)
			if ev == evNone {
				continue
			}
			// Echo reaches the screen before the command runs.
			if _, err := s.ch.Write(echo); err != nil {
				return
			}
			echo = echo[:0]
			if d.isHung() {
				// The stuck foreground process reads nothing, but the
				// client did send the line.
				if cmd := strings.TrimSpace(line); ev == evLine && cmd != "" && cmd != "exit" && cmd != "logout" {
					d.record(cmd)
				}
				continue
			}
			switch ev {
			case evEOF:
				_, _ = io.WriteString(s.ch, "logout\r\n")
				s.exit(last)
				return
			case evInterrupt:
				last = 130 // 128 + SIGINT, as bash sets $?
			case evLine:
				cmd := strings.TrimSpace(line)
				if cmd == "exit" || cmd == "logout" {
					s.exit(last)
					return
				}
				if cmd != "" {
					r, ok := d.answer(cmd, false)
					if !ok {
						continue // hung: echo on, nothing else
					}
					last = r.code
					if !s.emit(r.out, true) {
						return
					}
				}
			}
			if _, err := io.WriteString(s.ch, d.prompt); err != nil {
				return
			}
		}
		if len(echo) > 0 {
			if _, err := s.ch.Write(echo); err != nil {
				return
			}
		}
	}
}
