package render

import (
	"github.com/qoslint/qoslint/checks/judge"
)

// ANSI SGR codes (ECMA-48 §8.3.117). Every colour code has the same
// length, so columns padded around coloured cells stay aligned.
const (
	sgrReset  = "\x1b[0m"
	sgrRed    = "\x1b[31m"
	sgrGreen  = "\x1b[32m"
	sgrYellow = "\x1b[33m"
	sgrCyan   = "\x1b[36m"
	sgrBold   = "\x1b[1m"
)

// Paint wraps s in the SGR code when on; off, it is s unchanged, so
// files, pipes and golden files never hold an escape.
func Paint(on bool, code, s string) string {
	if !on || s == "" {
		return s
	}
	return code + s + sgrReset
}

// SeverityColor is the colour of a severity: red error, yellow warning,
// cyan info.
func SeverityColor(s judge.Severity) string {
	switch s {
	case judge.Error:
		return sgrRed
	case judge.Warning:
		return sgrYellow
	}
	return sgrCyan
}

// PaintSeverity is label (a severity, maybe "(waived)") in the colour of
// s; a waived finding is not coloured, since it does not count.
func PaintSeverity(on bool, s judge.Severity, waived bool, label string) string {
	if waived {
		return label
	}
	return Paint(on, SeverityColor(s), label)
}
