package capture

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// maxManifestBytes bounds the manifest read: a 10,000-device capture with
// fifty files each is about 15 MB.
const maxManifestBytes = 64 << 20

const schemaID = "https://github.com/qoslint/qoslint/collectors/capture/schema/capture.schema.json"

var (
	compileOnce sync.Once
	compiled    *jsonschema.Schema
	compileErr  error
)

func schema() (*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON()))
		if err != nil {
			compileErr = err
			return
		}
		c := jsonschema.NewCompiler()
		// "date-time" is otherwise only an annotation.
		c.AssertFormat()
		if err := c.AddResource(schemaID, doc); err != nil {
			compileErr = err
			return
		}
		compiled, compileErr = c.Compile(schemaID)
	})
	return compiled, compileErr
}

// Parsed is a manifest read from a fabric directory, with the line of
// every value so that problems point into it.
type Parsed struct {
	*Manifest
	lines map[string]int // JSON pointer → 1-based line
}

// line is the line of the value at the JSON pointer ptr, or of the nearest
// enclosing value that has one.
func (p *Parsed) line(ptr string) int {
	for {
		if l, ok := p.lines[ptr]; ok {
			return l
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return 1
		}
		ptr = ptr[:i]
	}
}

// Read reads the manifest of the fabric directory fsys. It returns nil,
// nil when there is none (a config repo, not a capture), and a
// *source.Error at its line when it is malformed.
func Read(fsys fs.FS) (*Parsed, error) {
	st, err := fs.Stat(fsys, layout.CaptureFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err == nil && !st.Mode().IsRegular() {
		return nil, source.Errorf(layout.CaptureFile, 0, "not a regular file")
	}
	if err == nil && st.Size() > maxManifestBytes {
		return nil, source.Errorf(layout.CaptureFile, 0, "%d bytes, larger than any capture manifest (%d)", st.Size(), maxManifestBytes)
	}
	var data []byte
	if err == nil {
		data, err = fs.ReadFile(fsys, layout.CaptureFile)
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, source.Errorf(layout.CaptureFile, 0, "cannot read: %v", err)
	}
	return Parse(data)
}

// Parse reads a manifest: JSON, valid against the schema, and consistent
// (each device once, each file once and below its own device's folder).
// Every error is a *source.Error at its line of layout.CaptureFile.
func Parse(data []byte) (*Parsed, error) {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, source.Errorf(layout.CaptureFile, lineAt(data, jsonErrorOffset(err)), "not JSON: %v", err)
	}
	lines := valueLines(data)
	p := &Parsed{lines: lines}
	sch, err := schema()
	if err != nil {
		return nil, source.Errorf(layout.CaptureFile, 0, "the capture schema does not compile: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, source.Errorf(layout.CaptureFile, 1, "not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return nil, source.Errorf(layout.CaptureFile, 0, "%v", err)
		}
		loc, msg := firstLeaf(ve)
		return nil, source.Errorf(layout.CaptureFile, p.line(pointer(loc)), "not a %s manifest: %s", Schema, msg)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, source.Errorf(layout.CaptureFile, lineAt(data, jsonErrorOffset(err)), "%v", err)
	}
	p.Manifest = &m
	if err := p.consistent(); err != nil {
		return nil, err
	}
	return p, nil
}

// consistent checks what the schema cannot say: names and paths unique,
// each file below its device's folder.
func (p *Parsed) consistent() error {
	devs := map[string]bool{}
	for i, d := range p.Devices {
		ptr := "/devices/" + strconv.Itoa(i)
		if devs[d.Name] {
			return source.Errorf(layout.CaptureFile, p.line(ptr+"/name"), "device %s is listed twice", d.Name)
		}
		devs[d.Name] = true
		paths := map[string]bool{}
		for j, f := range d.Files {
			fp := ptr + "/files/" + strconv.Itoa(j) + "/path"
			switch {
			case !fs.ValidPath(f.Path) || !below(f.Path, d.Name):
				return source.Errorf(layout.CaptureFile, p.line(fp), "%q is not a file below %s", f.Path, devicePrefix(d.Name))
			case paths[f.Path]:
				return source.Errorf(layout.CaptureFile, p.line(fp), "%s is listed twice", f.Path)
			}
			paths[f.Path] = true
		}
	}
	return nil
}

// firstLeaf is the first innermost schema violation, in a fixed order so
// the same bad file always gives the same message.
func firstLeaf(ve *jsonschema.ValidationError) ([]string, string) {
	type leaf struct {
		loc []string
		msg string
	}
	var leaves []leaf
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			one := &jsonschema.ValidationError{InstanceLocation: e.InstanceLocation, ErrorKind: e.ErrorKind}
			leaves = append(leaves, leaf{e.InstanceLocation, one.Error()})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.SliceStable(leaves, func(i, j int) bool { return leaves[i].msg < leaves[j].msg })
	msg := leaves[0].msg
	if n := len(leaves) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return leaves[0].loc, msg
}

func pointer(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	return "/" + strings.Join(loc, "/")
}

func jsonErrorOffset(err error) int64 {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return se.Offset
	case errors.As(err, &te):
		return te.Offset
	}
	return 0
}

// lineAt is the 1-based line of a byte offset.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// valueLines maps the JSON pointer of every value of a valid JSON document
// to the line it starts on, in one pass.
func valueLines(data []byte) map[string]int {
	dec := json.NewDecoder(bytes.NewReader(data))
	lines := map[string]int{}
	// Offsets only grow, so the newline count is carried forward.
	lastOff, lastLine := 0, 1
	lineOf := func(off int) int {
		off = min(off, len(data))
		if off > lastOff {
			lastLine += bytes.Count(data[lastOff:off], []byte("\n"))
			lastOff = off
		}
		return lastLine
	}
	var walk func(ptr string) bool
	walk = func(ptr string) bool {
		start := skipSpace(data, int(dec.InputOffset()))
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		lines[ptr] = lineOf(start)
		d, ok := tok.(json.Delim)
		if !ok {
			return true
		}
		for i := 0; dec.More(); i++ {
			key := strconv.Itoa(i)
			if d == '{' {
				k, err := dec.Token()
				if err != nil {
					return false
				}
				key, _ = k.(string)
			}
			if !walk(ptr + "/" + key) {
				return false
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err == nil
	}
	walk("")
	return lines
}

// skipSpace moves past whitespace and the separators the decoder does not
// report as tokens.
func skipSpace(data []byte, i int) int {
	for i < len(data) && strings.IndexByte(" \t\r\n,:", data[i]) >= 0 {
		i++
	}
	return i
}
