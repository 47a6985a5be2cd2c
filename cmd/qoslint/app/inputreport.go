package app

import (
	"errors"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

// inputErrorReport is the report of a run that stopped before the model:
// the inventory (or the waiver file, the check selection, the shipped
// example) could not be read. It has no devices and the errors at their
// file and line, so that every format a CI step asked for is still
// written and says why (issue 22: a malformed inventory must not leave
// the upload step without a file). Its exit code is ExitInput.
func inputErrorReport(err error, failOn judge.Severity) *render.Report {
	r := &render.Report{Errors: loadErrors(err), FailOn: failOn, NotJudged: true}
	r.Normalize()
	return r
}

// loadErrors are the input errors of a load error: each of a list of
// errors (inventory.Errors, waivers.Errors, errors.Join) at its own
// position, else the error's text at no position.
func loadErrors(err error) []*source.Error {
	var list source.Errors
	if errors.As(err, &list) {
		return list
	}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*source.Error
		for _, e := range joined.Unwrap() {
			out = append(out, loadErrors(e)...)
		}
		if len(out) > 0 {
			return out
		}
	}
	var one *source.Error
	if errors.As(err, &one) {
		return []*source.Error{one}
	}
	return []*source.Error{{Msg: err.Error()}}
}
