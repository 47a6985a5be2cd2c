// Package capture is the manifest `qoslint collect` writes inside a capture
// (DIR/.qoslint/capture.json, schema qoslint.capture/v1) and its
// verification: live writes it, offline checks a fabric directory against
// it, so that a lint that passes on a capture means every device was read
// completely and nothing was changed, removed or added since.
package capture

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/qoslint/qoslint/internal/layout"
)

// Schema is the manifest's schema name, the value of its "schema" field.
const Schema = "qoslint.capture/v1"

// Device statuses.
const (
	StatusComplete = "complete"
	StatusPartial  = "partial"
	StatusFailed   = "failed"
)

// ComputedPrefix starts the command of a file qoslint wrote itself rather
// than copied from a device's answer.
const ComputedPrefix = "qoslint: "

// SchemaFile is the embedded JSON Schema of the manifest.
const SchemaFile = "schema/capture.schema.json"

//go:embed schema/capture.schema.json
var schemaFS embed.FS

// SchemaJSON is the manifest's JSON Schema.
func SchemaJSON() []byte {
	data, err := schemaFS.ReadFile(SchemaFile)
	if err != nil {
		panic(err) // embedded at build time: cannot happen
	}
	return data
}

// Manifest is the content of capture.json. Field order is the JSON key
// order, so the file is the same for the same collection.
type Manifest struct {
	Schema  string `json:"schema"`
	Version string `json:"qoslint_version"`
	// Started and Finished are RFC 3339 in UTC.
	Started  string `json:"started"`
	Finished string `json:"finished"`
	// Interrupted is true when the collection was cut short (Ctrl-C,
	// SIGTERM, a deadline); the devices it cut short say so.
	Interrupted bool     `json:"interrupted"`
	Devices     []Device `json:"devices"` // sorted by name
}

// Device is one inventory device's collection.
type Device struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
	// Cause is why the device is partial or failed, "" when complete.
	Cause string   `json:"cause,omitempty"`
	Notes []string `json:"notes,omitempty"`
	Files []Entry  `json:"files"` // sorted by path
}

// Entry is one collected file.
type Entry struct {
	Path    string `json:"path"` // relative to DIR, slash-separated
	Command string `json:"command"`
	Size    int64  `json:"size"`
	SHA256  string `json:"sha256"`
}

// NewEntry describes a file by its content.
func NewEntry(path, command string, data []byte) Entry {
	sum := sha256.Sum256(data)
	return Entry{Path: path, Command: command, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
}

// Status is a device's status from how its collection ended: complete
// without an error, else partial when it saved files and failed when not.
func Status(errText string, files int) string {
	switch {
	case errText == "":
		return StatusComplete
	case files > 0:
		return StatusPartial
	}
	return StatusFailed
}

// Timestamp is a manifest time: RFC 3339 in UTC, to the second.
func Timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Marshal is the manifest as written: lists sorted, two-space indent, a
// final newline.
func (m *Manifest) Marshal() ([]byte, error) {
	cp := *m
	cp.Devices = append([]Device{}, m.Devices...)
	sort.Slice(cp.Devices, func(a, b int) bool { return cp.Devices[a].Name < cp.Devices[b].Name })
	for i := range cp.Devices {
		d := &cp.Devices[i]
		d.Files = append([]Entry{}, d.Files...)
		sort.Slice(d.Files, func(a, b int) bool { return d.Files[a].Path < d.Files[b].Path })
		d.Notes = append([]string(nil), d.Notes...)
		sort.Strings(d.Notes)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	// Device output may hold < > &: keep it readable, it is never HTML.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&cp); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// devicePrefix is devices/<name>/.
func devicePrefix(name string) string { return layout.DeviceDir(name) + "/" }

// below reports whether path is a file below devices/<name>/.
func below(path, name string) bool {
	return strings.HasPrefix(path, devicePrefix(name)) && len(path) > len(devicePrefix(name))
}
