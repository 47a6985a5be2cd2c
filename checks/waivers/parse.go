package waivers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/internal/source"
)

// The schema. Every field of a waiver is a yaml.Node so that the strict
// decode (KnownFields) keeps each value's line; Node.Decode itself would
// not be strict (gopkg.in/yaml.v3 v3.0.1 yaml.go: Node.Decode's
// decoder has no knownFields), so values are read from the nodes
// by hand.
type yamlFile struct {
	Waivers []yamlWaiver `yaml:"waivers"`
}

type yamlWaiver struct {
	Check     yaml.Node `yaml:"check"`
	Device    yaml.Node `yaml:"device"`
	Interface yaml.Node `yaml:"interface"`
	Reason    yaml.Node `yaml:"reason"`
	Expires   yaml.Node `yaml:"expires"`
}

const waiverKeys = "check, device, interface, reason, expires"

var (
	lineRe    = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	unknownRe = regexp.MustCompile(`^field (.*) not found in type waivers\.(\w+)$`)
	typeRe    = regexp.MustCompile("^cannot unmarshal (!!\\w+)(?: `.*`)? into (\\S+)$")
)

// Parse reads a waiver file; name is used as File.Name and in errors.
// Every problem is returned at once, as Errors.
func Parse(name string, data []byte) (f *File, err error) {
	// A panic on a user's file must still be an error naming the file.
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, Errors{source.Errorf(name, 1, "internal error reading waivers: %v", r)}
		}
	}()
	// As the inventory: no byte order mark, and a byte that is not UTF-8
	// (YAML 1.2 §5.2) reported at its own line, which yaml.v3 does not.
	data = source.StripBOM(data)
	if e := source.CheckUTF8(name, data, "YAML"); e != nil {
		return nil, Errors{e}
	}
	p := &problems{file: name, lines: map[int]bool{}}
	var raw yamlFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	derr := dec.Decode(&raw)
	var te *yaml.TypeError
	switch {
	case derr == nil, errors.Is(derr, io.EOF): // io.EOF: an empty file
	case errors.As(derr, &te):
		for _, msg := range te.Errors {
			line, msg := splitLine(msg)
			p.decode(line, "%s", explain(msg))
		}
	default:
		line, msg := splitLine(derr.Error())
		p.decode(line, "%s", msg)
		return nil, p.sorted()
	}
	if derr == nil || te != nil {
		var extra yaml.Node
		switch err := dec.Decode(&extra); {
		case errors.Is(err, io.EOF):
		case err != nil:
			line, msg := splitLine(err.Error())
			p.decode(line, "%s", msg)
		default:
			p.decode(extra.Line, "only one YAML document allowed (found another)")
		}
	}
	items := itemLines(data)
	out := &File{Name: name}
	for i, rw := range raw.Waivers {
		line := 1
		if i < len(items) {
			line = items[i]
		}
		if w, ok := p.waiver(rw, line); ok {
			out.Waivers = append(out.Waivers, w)
		}
	}
	p.duplicates(out.Waivers)
	if len(p.list) > 0 {
		return nil, p.sorted()
	}
	return out, nil
}

// itemLines is the line of each entry of the waivers list, read from a
// second, position-only parse.
func itemLines(data []byte) []int {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "waivers" || root.Content[i+1].Kind != yaml.SequenceNode {
			continue
		}
		var lines []int
		for _, item := range root.Content[i+1].Content {
			lines = append(lines, item.Line)
		}
		return lines
	}
	return nil
}

// waiver validates one entry; ok is false when it has a problem.
func (p *problems) waiver(rw yamlWaiver, line int) (Waiver, bool) {
	n := len(p.list)
	w := Waiver{Pos: source.Pos{File: p.file, Line: line}}
	var set bool
	if w.Check, set = p.str(&rw.Check, "check"); !set {
		p.missing(line, "a waiver needs a check (the check ID of the finding, as `qoslint explain` lists them)")
	} else if checks.Lookup(w.Check) == nil {
		if w.Check == Check.ID {
			p.semantic(rw.Check.Line, "check: a waiver cannot waive waiver findings; fix or remove the waiver instead")
		} else {
			p.semantic(rw.Check.Line, "check: unknown check %q (`qoslint explain` lists them)", w.Check)
		}
	}
	if w.Device, set = p.str(&rw.Device, "device"); !set {
		p.missing(line, "a waiver needs a device (a device name or a glob such as \"gpu0*\")")
	} else {
		p.glob(rw.Device.Line, "device", w.Device)
	}
	if w.Interface, set = p.str(&rw.Interface, "interface"); set {
		p.glob(rw.Interface.Line, "interface", w.Interface)
	}
	reason, set := p.str(&rw.Reason, "reason")
	w.Reason = strings.Join(strings.Fields(reason), " ")
	if w.Reason == "" {
		if set {
			p.semantic(rw.Reason.Line, "reason: must say why the finding is accepted (a ticket, an owner)")
		} else {
			p.missing(line, "a waiver needs a reason (why the finding is accepted: a ticket, an owner)")
		}
	}
	if s, set := p.str(&rw.Expires, "expires"); set {
		t, err := time.Parse(DateLayout, s)
		if err != nil {
			p.semantic(rw.Expires.Line, "expires: want a date YYYY-MM-DD, got %q", s)
		}
		w.Expires = t
	}
	return w, len(p.list) == n
}

// str reads a scalar. set is false when the key is absent or null; a
// list or mapping is an error.
func (p *problems) str(n *yaml.Node, key string) (v string, set bool) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch {
	case n.Kind == 0:
		return "", false
	case n.Kind != yaml.ScalarNode:
		// Like a decode error: the value is unreadable, so "missing"
		// messages would only mislead.
		p.decode(n.Line, "%s: want a string, got %s", key, kindName(n))
		return "", false
	case n.ShortTag() == "!!null":
		return "", false
	}
	return n.Value, true
}

// glob rejects a pattern path.Match cannot use, so a typo fails the load,
// not every match silently.
func (p *problems) glob(line int, key, pattern string) {
	if strings.TrimSpace(pattern) == "" {
		p.semantic(line, "%s: must not be empty", key)
		return
	}
	if _, err := path.Match(pattern, ""); err != nil {
		p.semantic(line, "%s: bad glob %q: %v", key, pattern, err)
	}
}

// duplicates rejects two waivers of the same check, device and interface:
// which reason and expiry applies would be a guess.
func (p *problems) duplicates(ws []Waiver) {
	first := map[[3]string]int{}
	for _, w := range ws {
		k := [3]string{w.Check, w.Device, w.Interface}
		if l, ok := first[k]; ok {
			p.semantic(w.Pos.Line, "duplicate of the waiver at line %d (same check, device and interface)", l)
			continue
		}
		first[k] = w.Pos.Line
	}
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	return "a " + strings.TrimPrefix(n.ShortTag(), "!!")
}

// explain words a yaml.v3 TypeError message in the file's terms.
func explain(msg string) string {
	if m := unknownRe.FindStringSubmatch(msg); m != nil {
		if m[2] == "yamlWaiver" {
			return fmt.Sprintf("unknown key %q in a waiver (want %s)", m[1], waiverKeys)
		}
		return fmt.Sprintf("unknown top-level key %q (want waivers)", m[1])
	}
	if m := typeRe.FindStringSubmatch(msg); m != nil {
		got := "a " + strings.TrimPrefix(m[1], "!!")
		switch m[2] {
		case "[]waivers.yamlWaiver":
			return "waivers: want a list of waivers, got " + got
		case "waivers.yamlWaiver":
			return fmt.Sprintf("want a waiver (a mapping of %s), got %s", waiverKeys, got)
		case "waivers.yamlFile":
			return "want a mapping with the key waivers, got " + got
		}
	}
	return msg
}

// splitLine takes "line N: msg" apart; a message without a line goes to
// line 1.
func splitLine(s string) (int, string) {
	if m := lineRe.FindStringSubmatch(s); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n, m[2]
		}
	}
	return 1, strings.TrimPrefix(s, "yaml: ")
}

// problems collects a file's errors. As in inventory/, a validation
// message on a line the decoder already complained about is dropped (the
// decoder may have left a zero value there), and so is a "missing" one
// after any decode error.
type problems struct {
	file  string
	list  Errors
	lines map[int]bool
}

func (p *problems) decode(line int, format string, a ...any) {
	line = max(line, 1)
	p.lines[line] = true
	p.list = append(p.list, source.Errorf(p.file, line, format, a...))
}

func (p *problems) semantic(line int, format string, a ...any) {
	line = max(line, 1)
	if !p.lines[line] {
		p.list = append(p.list, source.Errorf(p.file, line, format, a...))
	}
}

func (p *problems) missing(line int, format string, a ...any) {
	if len(p.lines) == 0 {
		p.semantic(line, format, a...)
	}
}

func (p *problems) sorted() Errors { return source.Sorted(p.list) }
