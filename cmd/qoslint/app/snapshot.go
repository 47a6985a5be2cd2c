package app

import (
	"bytes"
	"fmt"
	"github.com/qoslint/qoslint/collectors/fabric"
	"io"
	"os"
	"strings"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model/snapshot"
	"github.com/qoslint/qoslint/render/driftfmt"
)

// Exit codes of drift (`qoslint help snapshots`); ExitInput (2) is
// shared with lint.
const (
	ExitNoDrift = 0 // both sides are the same in QoS terms
	ExitDrift   = 1 // something changed, appeared or vanished
)

// TakeSnapshot builds the effective model of the fabric directory dir and
// freezes it, with every input error (the collector's and the model's). The
// error is returned only when the inventory cannot be read.
func TakeSnapshot(dir string) (*snapshot.Snapshot, error) {
	dir = FabricDir(dir)
	inv, err := inventory.Load(dir)
	if err != nil {
		return nil, err
	}
	capture := offline.Collect(dir, inv)
	s := snapshot.Take(fabric.Build(inv, capture))
	s.AddInputErrors(capture.Errors)
	return s, nil
}

// Snapshot writes the snapshot of dir to outFile ("" or "-": to out). It
// returns 0, or ExitInput when the inventory could not be read or the file
// written, and also when some device files were malformed: the snapshot is
// still written, recording the errors, and the errors are printed.
func Snapshot(out, errOut io.Writer, dir, outFile string) int {
	s, err := TakeSnapshot(dir)
	if err != nil {
		printLoadError(errOut, err)
		return ExitInput
	}
	var b bytes.Buffer
	if err := snapshot.Write(&b, s); err != nil {
		fmt.Fprintf(errOut, "qoslint: writing the snapshot: %v\n", err)
		return ExitInput
	}
	if outFile == "" || outFile == "-" {
		if _, err := out.Write(b.Bytes()); err != nil {
			fmt.Fprintf(errOut, "qoslint: writing the snapshot: %v\n", err)
			return ExitInput
		}
	} else {
		if err := WriteFileAtomic(outFile, b.Bytes()); err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return ExitInput
		}
		fmt.Fprintf(errOut, "qoslint: wrote %s: fabric %s, %d switches, %d hosts (%s)\n", outFile, s.Fabric, len(s.Switches), len(s.Hosts), snapshot.Version)
	}
	for _, e := range s.InputErrors {
		fmt.Fprintf(errOut, "qoslint: %s\n", inputErrorText(e))
	}
	if len(s.InputErrors) > 0 {
		return ExitInput
	}
	return ExitOK
}

func inputErrorText(e snapshot.InputError) string {
	where := e.File
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	var parts []string
	for _, p := range []string{e.Device, where} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(append(parts, e.Message), ": ")
}

// loadSide reads one side of a drift: a snapshot file when path ends in
// .json, else a fabric directory, snapshotted on the fly.
func loadSide(errOut io.Writer, path string) (*snapshot.Snapshot, bool) {
	if strings.HasSuffix(strings.ToLower(path), ".json") {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return nil, false
		}
		s, err := snapshot.Read(path, data)
		if err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return nil, false
		}
		return s, true
	}
	s, err := TakeSnapshot(path)
	if err != nil {
		printLoadError(errOut, err)
		return nil, false
	}
	return s, true
}

// Drift compares oldPath with newPath (each a snapshot file or a fabric
// directory) against the new side's policy and writes the drift in format.
// It returns ExitNoDrift, ExitDrift, or ExitInput when a side could not be
// read or recorded input errors (the report is then still printed first:
// values behind an input error are unknown, so the drift may be
// incomplete).
func Drift(out, errOut io.Writer, oldPath, newPath, format string) int {
	write, ok := driftfmt.Formatters()[format]
	if !ok {
		fmt.Fprintf(errOut, "qoslint: unknown format %q (one of %v)\n", format, driftfmt.FormatNames())
		return ExitInput
	}
	old, okOld := loadSide(errOut, oldPath)
	cur, okNew := loadSide(errOut, newPath)
	if !okOld || !okNew {
		return ExitInput
	}
	d := drift.Diff(old, cur, cur.Policy.Inventory())
	d.Old.Source, d.New.Source = oldPath, newPath
	if err := write(out, d); err != nil {
		fmt.Fprintf(errOut, "qoslint: writing the drift: %v\n", err)
		return ExitInput
	}
	switch {
	case len(d.InputErrors) > 0:
		return ExitInput
	case d.HasDrift():
		return ExitDrift
	}
	return ExitNoDrift
}
