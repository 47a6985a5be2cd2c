package nvue

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// ParseCommands parses `nv config show -o commands` output: `nv set <path...>
// [value]` and `nv unset <path...>` commands, values shell-quoted as NVUE
// quotes them (`hashed-password '*'`, a multi-line login banner or config
// snippet as one single-quoted word over several lines; see shell.go),
// ranges kept compressed (`interface swp1-2,32`), with `#` comments and
// blank lines as NVIDIA's own command files have them. It builds the same
// tree ParseYAML builds for the same configuration, with Apply's
// interpreter, so there is one interpreter of commands.
//
// A line that cannot be read does not stop the reading: it is one of errs
// (a *source.Error at the line its command starts on) and every other line
// is still read, so that the checks run on what the file does say. Lines
// that are NVUE or shell but not configuration (`nv config apply`, `nv
// config save`, `nv show ...`, a copied prompt line
// `cumulus@leaf01:mgmt:~$ nv config show -o commands`) are notes, one per
// line. cfg is nil when no `nv set`/`nv unset` command could be read; when
// nothing could be read and nothing was wrong either, errs says the file
// holds no configuration.
func ParseCommands(file string, data []byte) (cfg *Config, errs, notes []*source.Error) {
	r := readCommands(file, data)
	r.withNonUTF8(file, data)
	for _, o := range r.other {
		notes = append(notes, source.Errorf(file, o.line, "%s", o.note()))
	}
	if len(r.cmds) == 0 {
		if len(r.errs) == 0 {
			r.errs = append(r.errs, source.Errorf(file, 1, "empty configuration"))
		}
		return nil, r.errs, notes
	}
	// The root stands for the whole file; line 1 keeps every Line ≥ 1.
	cfg = &Config{File: file, Format: "commands", Root: &Node{Line: 1}}
	cfg.applyAll(r.cmds)
	return cfg, r.errs, notes
}

// Apply applies the `nv set`/`nv unset` lines of text, in order, to c (of
// either format), as NVUE would to its pending revision. Blank lines and `#`
// comments are skipped, and so are `nv config apply` lines, so that a script
// written for a switch can be previewed as is. Unlike ParseCommands, Apply
// is strict: any other line, and any line that cannot be read, is an error
// naming file and line, and then c is left unchanged: every line is checked
// before the first is applied. The nodes a command sets take its line in
// text, while c.File and c.Format keep naming the configuration's own
// source: evidence for such a node points into file, not c.File.
func (c *Config) Apply(file string, text []byte) error {
	if c == nil {
		return errors.New("nvue: Apply on a nil *Config")
	}
	r := readCommands(file, text)
	r.withNonUTF8(file, text)
	if err := r.strict(file); err != nil {
		return err
	}
	c.applyAll(r.cmds)
	return nil
}

func (c *Config) applyAll(cmds []command) {
	if c.Root == nil {
		c.Root = &Node{Line: 1}
	}
	b := newBuilder()
	for _, cmd := range cmds {
		cmd.applyTo(b, c.Root)
	}
	b.finish()
}

// command is one checked `nv set` or `nv unset` command.
type command struct {
	unset bool
	// words is the path after `nv set`/`nv unset`, value included.
	words []string
	// line is the line the command starts on.
	line int
}

// reading is what readCommands found in a commands file, in line order.
type reading struct {
	cmds  []command
	errs  []*source.Error
	other []otherLine
}

// otherLine is a line that is NVUE or shell but not configuration.
type otherLine struct {
	line int
	text string
	// apply is true for `nv config apply`, which ends every change
	// script and which Apply therefore accepts.
	apply  bool
	prompt bool
}

func (o otherLine) note() string {
	if o.prompt {
		return "a shell prompt line, not configuration; skipped: " + quoteClip(o.text)
	}
	return "not configuration; skipped: " + quoteClip(o.text)
}

// strict is Apply's verdict: the first line, in file order, that is not a
// readable set/unset command, blank, a comment or `nv config apply`.
func (r *reading) strict(file string) error {
	var first *source.Error
	if len(r.errs) > 0 {
		first = r.errs[0]
	}
	for _, o := range r.other {
		if o.apply {
			continue
		}
		if first == nil || o.line < first.Line {
			first = source.Errorf(file, o.line, "not an `nv set`/`nv unset` command: %s", quoteClip(o.text))
		}
		break
	}
	if first == nil {
		return nil
	}
	return first
}

// nvCommands are the NVUE commands that are not configuration
// (CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/
// NVIDIA-User-Experience-NVUE/NVUE-CLI.md, "Command Categories": monitoring
// `nv show`, configuration management `nv config`, `nv action`, and
// `nv list-commands`). A capture or a change script may hold them (`nv config
// apply` ends every script); they set nothing, so they are noted and
// skipped. Any other `nv` word is not an NVUE command at all, and is an
// error like any unreadable line.
var nvCommands = map[string]bool{"show": true, "config": true, "action": true, "list-commands": true}

// shellPromptRe matches a shell prompt at the start of a line, as NVIDIA's docs
// print them before each command (`cumulus@leaf01:mgmt:~$ `,
// `cumulus@switch:~$ `; root's ends in `#`). Such a line is what someone
// typed, copied along with the output; it is never configuration output,
// even when the command typed is an `nv set`.
var shellPromptRe = regexp.MustCompile(`^\s*[A-Za-z0-9._-]+@[A-Za-z0-9._-]+(:[^\s]*)?[$#](\s|$)`)

// readCommands reads every command of data. It never stops at a bad line:
// the lexer resumes after it (see shell.go).
func readCommands(file string, data []byte) *reading {
	r := &reading{}
	l := newLexer(data)
	for l.pos < len(l.data) {
		// A prompt is matched on the raw line, before quotes are read:
		// a quote in the typed command must not swallow the lines below.
		if raw := l.physicalLine(l.pos); shellPromptRe.MatchString(raw) {
			r.other = append(r.other, otherLine{line: l.line, text: strings.TrimSpace(raw), prompt: true})
			l.skipLine(l.pos)
			continue
		}
		sc, serr, done := l.next()
		if done {
			break
		}
		if serr != nil {
			r.errs = append(r.errs, source.Errorf(file, serr.line, "%s", serr.msg))
			continue
		}
		if len(sc.words) > 0 {
			r.classify(file, sc)
		}
	}
	return r
}

// classify files one command as configuration, another line or an error.
func (r *reading) classify(file string, sc shellCommand) {
	w := sc.words
	switch {
	case w[0] != "nv":
		// Text NVUE does not print: an error message, a line cut off,
		// something pasted. It is not what `nv config show -o commands`
		// printed, so what the switch holds there is unknown.
		r.errs = append(r.errs, source.Errorf(file, sc.line, "not an `nv set`/`nv unset` command: %s", quoteClip(sc.text)))
	case len(w) == 1:
		r.errs = append(r.errs, source.Errorf(file, sc.line, "`nv` without a command"))
	case w[1] == "set" || w[1] == "unset":
		cmd := command{unset: w[1] == "unset", words: w[2:], line: sc.line}
		if err := cmd.check(file, w[1]); err != nil {
			r.errs = append(r.errs, err)
			return
		}
		r.cmds = append(r.cmds, cmd)
	case nvCommands[w[1]]:
		apply := w[1] == "config" && len(w) >= 3 && w[2] == "apply"
		r.other = append(r.other, otherLine{line: sc.line, text: sc.text, apply: apply})
	default:
		r.errs = append(r.errs, source.Errorf(file, sc.line, "not an `nv set`/`nv unset` command: %s", quoteClip(sc.text)))
	}
}

// check refuses a command NVUE could not have printed.
func (c command) check(file, verb string) *source.Error {
	if len(c.words) == 0 {
		return source.Errorf(file, c.line, "`nv %s` without a path", verb)
	}
	if !c.unset {
		keys, _, _ := c.setPath()
		for _, k := range keys {
			if k == "" {
				// YAML has no empty keys either; only a value may be ''.
				return source.Errorf(file, c.line, "empty key in `nv set` path")
			}
		}
	}
	return nil
}

// setPath splits an `nv set` path into keys and, when the last word is a
// leaf's value, that value.
func (c command) setPath() (keys []string, value string, leaf bool) {
	if lastIsValue(c.words) {
		n := len(c.words) - 1
		return c.words[:n], c.words[n], true
	}
	return c.words, "", false
}

func (c command) applyTo(b *builder, root *Node) {
	if c.unset {
		applyUnset(b, root, c.words)
		return
	}
	keys, value, leaf := c.setPath()
	applySet(b, root, keys, value, leaf, c.line)
}

// applySet applies one `nv set`: keys down to a leaf set to value, or down
// to an object. The last word of a command is either a leaf's value, the ID
// of a collection member, or the end of a bare object path; the syntax
// cannot tell them apart, so lastIsValue decides from NVUE's schema.
func applySet(b *builder, root *Node, keys []string, value string, leaf bool, ln int) {
	n := root
	for i, k := range keys {
		if leaf && i == len(keys)-1 {
			b.setLeaf(n, k, value, ln)
			return
		}
		n = b.ensureObject(n, k, ln)
	}
	n.Line = ln // the command that last set this object
}

// applyUnset removes the node the path names. `nv unset a b v` may also name
// a leaf by its value (`nv unset qos roce mode lossy`).
func applyUnset(b *builder, root *Node, path []string) {
	last := len(path) - 1
	parent := b.get(root, path[:last]...)
	if parent == nil {
		return
	}
	if !parent.IsLeaf {
		b.removeChild(parent, path[last])
		return
	}
	if parent.Value == path[last] && last >= 1 {
		if gp := b.get(root, path[:last-1]...); gp != nil {
			b.removeChild(gp, path[last-1])
		}
	}
}

// quoteClip quotes a line for a message, cut to 60 bytes.
func quoteClip(s string) string {
	if len(s) > 60 {
		return strconv.Quote(s[:60]) + "..."
	}
	return strconv.Quote(s)
}
