package topology

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

type tokKind int

const (
	tEOF tokKind = iota
	tID
	tLBrace
	tRBrace
	tLBracket
	tRBracket
	tSemi
	tComma
	tColon
	tEq
	tEdge // -- or ->
)

type token struct {
	kind   tokKind
	text   string
	quoted bool
	line   int
}

func (t token) is(k tokKind, text string) bool {
	return t.kind == k && !t.quoted && strings.EqualFold(t.text, text)
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tID:
		if t.quoted {
			return fmt.Sprintf("%q", t.text)
		}
		return t.text
	}
	return fmt.Sprintf("%q", t.text)
}

var punct = map[byte]tokKind{'{': tLBrace, '}': tRBrace, '[': tLBracket, ']': tRBracket,
	';': tSemi, ',': tComma, ':': tColon, '=': tEq}

// lex splits DOT text into tokens (Graphviz, "The DOT Language": IDs are
// alphanumeric strings, numerals or double-quoted strings with \" escapes;
// comments are // and /* */, and lines starting with # are ignored).
func lex(file string, data []byte) ([]token, error) {
	l := &lexer{file: file, s: string(data), line: 1, bol: true}
	var out []token
	for {
		t, err := l.token()
		if err != nil {
			return nil, err
		}
		if t.kind == tEOF {
			return out, nil
		}
		out = append(out, t)
	}
}

type lexer struct {
	file string
	s    string
	i    int
	line int
	bol  bool // at the beginning of a line, only blanks before
}

func (l *lexer) skip() error {
	for l.i < len(l.s) {
		c := l.s[l.i]
		switch {
		case c == '\n':
			l.line++
			l.i++
			l.bol = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.i++
		case c == '#' && l.bol, strings.HasPrefix(l.s[l.i:], "//"):
			for l.i < len(l.s) && l.s[l.i] != '\n' {
				l.i++
			}
		case strings.HasPrefix(l.s[l.i:], "/*"):
			start := l.line
			end := strings.Index(l.s[l.i+2:], "*/")
			if end < 0 {
				return source.Errorf(l.file, start, "comment /* not closed")
			}
			l.line += strings.Count(l.s[l.i:l.i+2+end], "\n")
			l.i += end + 4
			l.bol = false
		default:
			return nil
		}
	}
	return nil
}

func (l *lexer) token() (token, error) {
	if err := l.skip(); err != nil {
		return token{}, err
	}
	if l.i >= len(l.s) {
		return token{kind: tEOF, line: l.line}, nil
	}
	l.bol = false
	c := l.s[l.i]
	if k, ok := punct[c]; ok {
		l.i++
		return token{kind: k, text: string(c), line: l.line}, nil
	}
	if strings.HasPrefix(l.s[l.i:], "--") || strings.HasPrefix(l.s[l.i:], "->") {
		l.i += 2
		return token{kind: tEdge, text: l.s[l.i-2 : l.i], line: l.line}, nil
	}
	if c == '"' {
		return l.quoted()
	}
	start := l.i
	for l.i < len(l.s) && isIDByte(l.s[l.i]) {
		l.i++
	}
	if l.i == start {
		return token{}, source.Errorf(l.file, l.line, "unexpected character %q", rune(c))
	}
	return token{kind: tID, text: l.s[start:l.i], line: l.line}, nil
}

// isIDByte: DOT's unquoted IDs are letters, digits, underscores and
// bytes above 0x7f, numerals add '.'; a name with '-' (leaf-01) must be
// quoted, as in DOT itself.
func isIDByte(c byte) bool {
	return c == '_' || c == '.' || c >= 0x80 || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (l *lexer) quoted() (token, error) {
	line := l.line
	var b strings.Builder
	for l.i++; l.i < len(l.s); l.i++ {
		c := l.s[l.i]
		switch {
		case c == '"':
			l.i++
			return token{kind: tID, text: b.String(), quoted: true, line: line}, nil
		case c == '\\' && l.i+1 < len(l.s) && l.s[l.i+1] == '"':
			b.WriteByte('"')
			l.i++
		case c == '\\' && l.i+1 < len(l.s) && l.s[l.i+1] == '\n':
			l.line++ // DOT line continuation
			l.i++
		default:
			if c == '\n' {
				l.line++
			}
			b.WriteByte(c)
		}
	}
	return token{}, source.Errorf(l.file, line, "string not closed: missing \"")
}
