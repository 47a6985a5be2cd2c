// Package source names where a fact came from: a file and a line. Every parser
// records it so that a finding can point at the exact evidence, and every
// parse failure is an *Error that names the file and line.
package source

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Pos is a position in an input file. Line 0 means the whole file.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	// Column is 1-based where the format has columns (a YAML key); 0 when
	// the whole line is meant. Only machine formats (SARIF) print it.
	Column int `json:"column,omitempty"`
}

func (p Pos) String() string {
	switch {
	case p.File == "":
		return ""
	case p.Line > 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	default:
		return p.File
	}
}

// IsZero reports whether the position names nothing.
func (p Pos) IsZero() bool { return p.File == "" }

// Error is a problem with an input file. Parsers return it, never panic.
type Error struct {
	Pos
	Device string // the device the file belongs to, "" for fabric-wide files
	Msg    string
}

func (e *Error) Error() string {
	where := e.Pos.String()
	if e.Device != "" {
		if where == "" {
			return fmt.Sprintf("%s: %s", e.Device, e.Msg)
		}
		return fmt.Sprintf("%s: %s: %s", e.Device, where, e.Msg)
	}
	if where == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s: %s", where, e.Msg)
}

// Errorf builds an *Error at file:line.
func Errorf(file string, line int, format string, a ...any) *Error {
	return &Error{Pos: Pos{File: file, Line: line}, Msg: fmt.Sprintf(format, a...)}
}

// Errors is every problem of one input, one "file:line: message" per line
// when printed, so a user fixes them all in one round.
type Errors []*Error

func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, err := range e {
		lines[i] = err.Error()
	}
	return strings.Join(lines, "\n")
}

// ComparePos orders errors by device, file and line: the order reports
// print them in.
func ComparePos(a, b *Error) int {
	return cmp.Or(cmp.Compare(a.Device, b.Device), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
}

// Compare is ComparePos, then the message, for a total order.
func Compare(a, b *Error) int { return cmp.Or(ComparePos(a, b), cmp.Compare(a.Msg, b.Msg)) }

// Sorted is errs ordered by ComparePos, each message on one line and
// identical errors once. The sort is stable: problems on one line keep the
// order in which a parser found them. errs itself is not reordered.
func Sorted(errs []*Error) Errors {
	out := slices.Clone(errs)
	for _, e := range out {
		// Library messages (YAML, HCL decoders) may carry newlines.
		e.Msg = OneLine(e.Msg)
	}
	slices.SortStableFunc(out, ComparePos)
	return slices.CompactFunc(out, func(a, b *Error) bool { return a.Pos == b.Pos && a.Device == b.Device && a.Msg == b.Msg })
}

var newlines = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// OneLine is s with every line break a blank.
func OneLine(s string) string { return newlines.Replace(s) }
