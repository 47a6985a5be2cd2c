package app

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/render"
)

// Output is one report a run writes: -f FORMAT goes to the command's
// writer (standard output, or -o FILE), -f FORMAT=PATH to the file PATH.
// A run builds the model and runs the checks once, whatever the number of
// outputs (issue 22: CI ran lint twice to get SARIF and JUnit).
type Output struct {
	Format string
	// Path is the file to write, replaced whole and atomically
	// (WriteFileAtomic); "" is the command's writer.
	Path string
}

func (o Output) String() string {
	if o.Path == "" {
		return o.Format
	}
	return o.Format + "=" + o.Path
}

// CheckOutputs refuses outputs that cannot all be written: two formats
// for one writer, or one file named twice (outputFile, -o FILE, is the
// file the command's writer goes to, "" for standard output). A format
// name is checked by the run, with the list of formats.
func CheckOutputs(outs []Output, outputFile string) error {
	var toWriter []string
	seen := map[string]string{}
	file := func(path, what string) error {
		key := path
		if abs, err := filepath.Abs(path); err == nil {
			key = abs
		}
		if prev, dup := seen[key]; dup {
			return fmt.Errorf("%s and %s write the same file %s: one file holds one report", prev, what, path)
		}
		seen[key] = what
		return nil
	}
	for _, o := range outs {
		if o.Path == "" {
			toWriter = append(toWriter, o.Format)
			continue
		}
		if err := file(o.Path, "-f "+o.String()); err != nil {
			return err
		}
	}
	where := "standard output"
	if outputFile != "" {
		where = "-o " + outputFile
		if len(toWriter) == 0 {
			return fmt.Errorf("-o %s: every -f names its own file (FORMAT=PATH); give one -f FORMAT without =PATH for -o, or drop -o", outputFile)
		}
		if err := file(outputFile, where); err != nil {
			return err
		}
	}
	if len(toWriter) > 1 {
		return fmt.Errorf("-f %s and -f %s would both go to %s: give all but one a file, -f FORMAT=PATH", toWriter[0], toWriter[1], where)
	}
	return nil
}

// sink is an output with its formatter.
type sink struct {
	Output
	format render.Formatter
}

// sinks resolves a run's outputs (format alone when outs is empty) before
// anything is read, so that an unknown format costs no collection.
func sinks(errOut io.Writer, format string, outs []Output) ([]sink, bool) {
	if len(outs) == 0 {
		outs = []Output{{Format: format}}
	}
	ss := make([]sink, 0, len(outs))
	for _, o := range outs {
		f, ok := render.Formatters()[o.Format]
		if !ok {
			fmt.Fprintf(errOut, "qoslint: unknown format %q (one of %v)\n", o.Format, render.FormatNames())
			return nil, false
		}
		ss = append(ss, sink{o, f})
	}
	return ss, true
}

// write prints the report in every output. A file that cannot be written
// is named on errOut and the others are still written; the result is
// false when any output failed.
func write(out, errOut io.Writer, r *render.Report, ss []sink) bool {
	ok := true
	color := r.Color
	defer func() { r.Color = color }()
	for _, s := range ss {
		if s.Path == "" {
			r.Color = color
			if err := s.format(out, r); err != nil {
				fmt.Fprintf(errOut, "qoslint: writing the %s report: %v\n", s.Format, err)
				ok = false
			}
			continue
		}
		// Colour is for a terminal, never for a file.
		r.Color = false
		var b bytes.Buffer
		if err := s.format(&b, r); err != nil {
			fmt.Fprintf(errOut, "qoslint: -f %s: writing the report: %v\n", s, err)
			ok = false
			continue
		}
		if err := WriteFileAtomic(s.Path, b.Bytes()); err != nil {
			fmt.Fprintf(errOut, "qoslint: -f %s: %v\n", s, err)
			ok = false
		}
	}
	return ok
}

// failedRun prints the report of a run that stopped before the model
// (inputErrorReport) in every output, and the error on errOut as before:
// exit code ExitInput.
func failedRun(out, errOut io.Writer, err error, ss []sink, failOn judge.Severity, st Style, start time.Time, prefix string) int {
	printLoadError(errOut, err)
	r := inputErrorReport(err, failOn)
	r.PathPrefix = prefix
	r.Run = runSince(start)
	r.Host = hostname()
	st.apply(r)
	write(out, errOut, r, ss)
	return ExitInput
}
