package inventory

import (
	"github.com/qoslint/qoslint/internal/source"
)

// Errors is every problem found in an inventory file, sorted by file and
// line. Load, LoadFile and Parse return it for any problem with the file's
// content, so a user fixes them all in one round.
type Errors = source.Errors

// problems collects the errors of one file. Decode errors (syntax, unknown
// keys, wrong types) come first; a semantic check on a line that already has
// one is dropped, because the decoder left a zero or partial value there and
// a second message about it would only mislead.
type problems struct {
	file     string
	list     Errors
	decoding map[int]bool // lines where the decoder may have left a zero value
	invalid  bool         // some value was dropped as unreadable
	secrets  []string     // values no message may show (secrets.go)
}

func newProblems(file string) *problems {
	return &problems{file: file, decoding: map[int]bool{}}
}

// decode records a decoder's error.
func (p *problems) decode(line int, format string, a ...any) {
	line = max(line, 1)
	p.decoding[line] = true
	p.unreadable(line, format, a...)
}

// unreadable records a value we could not read and left out (so, unlike
// decode, it casts no doubt on the other values of its line).
func (p *problems) unreadable(line int, format string, a ...any) {
	p.invalid = true
	p.list = append(p.list, source.Errorf(p.file, max(line, 1), format, a...))
}

// semantic records a validation error unless the decoder already complained
// about that line.
func (p *problems) semantic(line int, format string, a ...any) {
	line = max(line, 1)
	if p.decoding[line] {
		return
	}
	p.list = append(p.list, source.Errorf(p.file, line, format, a...))
}

// missing records that something required is absent, unless the decoder
// reported anything at all: a decode error (a duplicate key, a value of the
// wrong kind) can leave a field unset that the user did write.
func (p *problems) missing(line int, format string, a ...any) {
	if !p.invalid {
		p.semantic(line, format, a...)
	}
}

func (p *problems) empty() bool { return len(p.list) == 0 }

// sorted returns the problems ordered by file then line, identical lines
// dropped. The sort is stable: problems on one line keep the order in which
// they were found, which is itself deterministic.
func (p *problems) sorted() Errors {
	for _, e := range p.list {
		// One line per problem before redaction, so that a secret split
		// over lines is still found whole.
		e.Msg = p.redact(source.OneLine(e.Msg))
	}
	return source.Sorted(p.list)
}
