package judge

import (
	"fmt"
	"strings"
)

// Severity orders findings: Info < Warning < Error. The zero value is no
// severity at all, so a check or finding that forgets to set one is caught
// (TestCatalog) instead of passing as info.
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

// Valid reports whether s is one of Info, Warning, Error.
func (s Severity) Valid() bool { return s >= Info && s <= Error }

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return fmt.Sprintf("invalid severity %d", int(s))
}

// MarshalText makes severities readable in JSON; a severity that is none
// of the three is a bug, never printed as one of them.
func (s Severity) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("%s", s)
	}
	return []byte(s.String()), nil
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q (error, warning or info)", s)
}
