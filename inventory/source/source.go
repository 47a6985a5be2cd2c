// Package source names where a fact came from: a file and a line. Every parser
// records it so that a finding can point at the exact evidence, and every
// parse failure is an *Error that names the file and line.
package source

import "fmt"

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
