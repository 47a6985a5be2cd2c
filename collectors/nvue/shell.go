package nvue

import (
	"errors"
	"fmt"
	"strings"
)

// The shell grammar of an `nv config show -o commands` capture.
//
// NVUE quotes each word with Python's shlex.quote (see shellQuote): a word
// that needs quoting is single-quoted whole, an embedded single quote
// becoming '"'"', and a value with line breaks stays ONE single-quoted word
// across several lines. Real output shows it, e.g. a CL 5.1 leaf's
// `nv config show -o commands` in the public EVPN demo README of
// gitlab.com/cumulus-consulting/goldenturtle/cumulus_ansible_modules
// (branch evpn_demo_nvue):
//
//	nv set system config snippet tacacs-config content 'secret=tacacskey
//	server=192.168.200.1
//	vrf=mgmt'
//	nv set system message pre-login '####...
//	#  for experiencing, testing and prototyping NVIDIA Cumulus'"'"' latest technology.     #
//	####...'
//
// Lines inside such a value may start with `#` and are not comments. The
// lexer therefore reads the file as a POSIX shell reads a script: single
// quotes, double quotes (with \" \\ \$ \` and backslash-newline escapes),
// backslash outside quotes (backslash-newline continues the command on the
// next line), `#` starting a comment at the start of a word, and an
// unquoted newline ending the command. NVUE itself prints neither double
// quotes nor backslashes (shlex.quote does not); they are read because a
// hand-written script for `nv config patch` may hold them and the shell
// would. Whether NVUE's own patch reader accepts a line continuation is not
// documented (CumulusNetworks/docs content/cumulus-linux-514/System-
// Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md says only that the
// file holds "comments, blank lines, nv set or nv unset commands").
//
// One departure from the shell, for recovery: a word that spans a line
// break must be the last word of its command, as every multi-line value
// NVUE prints is. A quote left open on one line would otherwise pair with
// the next quote anywhere below and swallow the lines between; when the
// pairing leaves a multi-line word in mid-command, or no quote closes at
// all, the command's first line is reported alone and reading resumes on
// the line after it.

// shellCommand is one command of a commands file.
type shellCommand struct {
	words []string
	// line is where the command starts: the line reported for it and
	// recorded on the nodes it sets, however many lines its values span.
	line int
	// text is the command's first line, for messages.
	text string
}

// shellError is a command that cannot be read, at the line it starts on.
type shellError struct {
	line int
	msg  string
}

// lexer splits a commands file into commands.
type lexer struct {
	data string
	pos  int
	line int
}

func newLexer(data []byte) *lexer {
	s := string(data)
	if crlfOnly(s) {
		// A capture saved through a terminal ends every line with CRLF;
		// the CR is transport, not part of a multi-line value.
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return &lexer{data: s, line: 1}
}

// crlfOnly reports whether every line break of s is CRLF. A file that mixes
// them (FormatCommands output with a value holding "\r\n") keeps its CRs.
func crlfOnly(s string) bool {
	n := strings.Count(s, "\n")
	return n > 0 && strings.Count(s, "\r\n") == n
}

// physicalLine returns the text of the line starting at pos, without its
// line break.
func (l *lexer) physicalLine(pos int) string {
	end := strings.IndexByte(l.data[pos:], '\n')
	if end < 0 {
		return l.data[pos:]
	}
	return l.data[pos : pos+end]
}

// skipLine moves past the line starting at pos and counts it.
func (l *lexer) skipLine(pos int) {
	end := strings.IndexByte(l.data[pos:], '\n')
	if end < 0 {
		l.pos = len(l.data)
	} else {
		l.pos = pos + end + 1
	}
	l.line++
}

// next reads the command starting at the current line. done is true at the
// end of the data. A command that cannot be read is returned as err, and
// reading goes on at the line after its first line.
func (l *lexer) next() (cmd shellCommand, err *shellError, done bool) {
	if l.pos >= len(l.data) {
		return cmd, nil, true
	}
	start, startLine := l.pos, l.line
	cmd.line, cmd.text = startLine, strings.TrimSpace(l.physicalLine(start))
	words, failure := l.scan(startLine)
	if failure != "" {
		l.pos, l.line = start, startLine
		l.skipLine(start)
		return cmd, &shellError{line: startLine, msg: failure}, false
	}
	cmd.words = words
	return cmd, nil, false
}

// scan reads words up to an unquoted line break (consumed) or the end of
// the data. It returns why the command, which starts on line start, cannot
// be read, or "".
func (l *lexer) scan(start int) ([]string, string) {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word
		// spanFrom is the line where the quote that carried a word
		// across a line break opened, 0 while none did; spanKind is
		// that quote's kind.
		spanFrom int
		spanKind string
	)
	end := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		switch {
		case c == '\n':
			l.pos++
			l.line++
			end()
			return words, ""
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
			end()
		case c == '\\' && l.pos+1 < len(l.data) && l.data[l.pos+1] == '\n':
			// A line continuation: both characters go, and the word,
			// if any, goes on.
			l.pos += 2
			l.line++
		case c == '#' && !in:
			// A comment runs to the end of the line; the break ends the
			// command.
			l.pos += len(l.physicalLine(l.pos))
		default:
			if !in && spanFrom > 0 {
				return nil, fmt.Sprintf("unterminated %s quote: the quote opened on line %d pairs with one further down and leaves a multi-line value in mid-command, which NVUE never prints", spanKind, spanFrom)
			}
			in = true
			from := l.line
			if msg := l.wordPart(&cur, start); msg != "" {
				return nil, msg
			}
			if l.line > from && spanFrom == 0 {
				spanFrom, spanKind = from, quoteName(c)
			}
		}
	}
	end()
	return words, ""
}

func quoteName(c byte) string {
	if c == '"' {
		return "double"
	}
	return "single"
}

// wordPart reads one quoted string, one escaped character or one plain
// character at l.pos into cur.
func (l *lexer) wordPart(cur *strings.Builder, start int) string {
	switch c := l.data[l.pos]; c {
	case '\'':
		j := strings.IndexByte(l.data[l.pos+1:], '\'')
		if j < 0 {
			return unterminated("single", l.line, start)
		}
		s := l.data[l.pos+1 : l.pos+1+j]
		cur.WriteString(s)
		l.line += strings.Count(s, "\n")
		l.pos += j + 2
	case '"':
		return l.doubleQuoted(cur, start)
	case '\\':
		if l.pos+1 == len(l.data) {
			return "line ends with a backslash"
		}
		cur.WriteByte(l.data[l.pos+1])
		l.pos += 2
	default:
		cur.WriteByte(c)
		l.pos++
	}
	return ""
}

// doubleQuoted reads "..." at l.pos: a backslash escapes only $ ` " \ and
// a line break (POSIX), and stays before any other character.
func (l *lexer) doubleQuoted(cur *strings.Builder, start int) string {
	open, line := l.line, l.line
	for i := l.pos + 1; i < len(l.data); i++ {
		c := l.data[i]
		switch {
		case c == '"':
			l.pos, l.line = i+1, line
			return ""
		case c == '\\' && i+1 < len(l.data) && strings.IndexByte("$`\"\\\n", l.data[i+1]) >= 0:
			i++
			if l.data[i] == '\n' {
				line++
				continue
			}
			cur.WriteByte(l.data[i])
		default:
			if c == '\n' {
				line++
			}
			cur.WriteByte(c)
		}
	}
	return unterminated("double", open, start)
}

// unterminated names the quote that never closes, and where it opened when
// that is not the command's first line (the line the error is reported at).
func unterminated(kind string, open, start int) string {
	if open != start {
		return fmt.Sprintf("unterminated %s quote (opened on line %d)", kind, open)
	}
	return fmt.Sprintf("unterminated %s quote", kind)
}

// splitShell splits one command into words with the lexer.
func splitShell(s string) ([]string, error) {
	l := &lexer{data: s, line: 1}
	cmd, err, _ := l.next()
	if err != nil {
		return nil, errors.New(err.msg)
	}
	if l.pos < len(l.data) {
		return nil, errors.New("more than one command")
	}
	return cmd.words, nil
}
