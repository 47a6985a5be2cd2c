// Package waivers reads qoslint-waivers.yaml, the CI gate's list of accepted
// deviations, and marks the findings it covers. A waiver names a check, a
// device glob and optionally an interface glob, always with a reason and
// optionally an expiry date. Waived findings stay in every report, marked,
// and no longer fail the gate; a waiver that has expired or that matches
// nothing is itself reported, so the list cannot rot silently.
package waivers

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/qoslint/qoslint/internal/source"
)

// FileName is the waiver file lint looks for in a fabric directory, and
// audit beside the inventory.
const FileName = "qoslint-waivers.yaml"

// DateLayout is how an expiry date is written: YYYY-MM-DD.
const DateLayout = "2006-01-02"

// Waiver is one entry of the file.
type Waiver struct {
	Check string
	// Device is a path.Match glob over inventory device names.
	Device string
	// Interface is a path.Match glob; "" matches any interface, and
	// findings that name none.
	Interface string
	// Reason is the justification, whitespace runs collapsed to one space
	// so that it prints on one line in every format.
	Reason string
	// Expires is the last day the waiver applies (midnight UTC of that
	// date); zero means it does not expire.
	Expires time.Time
	// Pos is the line of the entry's "-", where its own findings point.
	Pos source.Pos
}

// HasExpiry reports whether the waiver has an expiry date.
func (w Waiver) HasExpiry() bool { return !w.Expires.IsZero() }

// Expired reports whether the waiver no longer applies on today's
// calendar date (in today's location): it is valid through its expiry day.
func (w Waiver) Expired(today time.Time) bool {
	if !w.HasExpiry() {
		return false
	}
	y, m, d := today.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).After(w.Expires)
}

// File is a parsed waiver file.
type File struct {
	// Name is the file as reports cite it: relative to the fabric
	// directory when Load found it there.
	Name    string
	Waivers []Waiver
}

// Errors is every problem of a waiver file, sorted by line, one
// "file:line: message" per line.
type Errors = source.Errors

// Load reads dir/qoslint-waivers.yaml. No file is no waivers: nil, nil.
// File.Name and error positions use the base name, relative to dir, as
// every other evidence path of a fabric directory is.
func Load(dir string) (*File, error) {
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return Parse(FileName, data)
}
