package nvue

import (
	"errors"
	"strings"

	"github.com/qoslint/qoslint/collectors/source"
)

// ParseCommands parses `nv config show -o commands` output: one
// `nv set <path...> [value]` or `nv unset <path...>` per line, values
// shell-quoted (`hashed-password '*'`), ranges kept compressed
// (`interface swp1-2,32`) — nvue.md §3.3. It builds the same tree ParseYAML
// builds for the same configuration. It is Apply on an empty Config, so
// there is one interpreter of commands.
func ParseCommands(file string, data []byte) (*Config, error) {
	// The root stands for the whole file; line 1 keeps every Line ≥ 1.
	cfg := &Config{File: file, Format: "commands", Root: &Node{Line: 1}}
	n, err := cfg.apply(file, data)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, source.Errorf(file, 1, "empty configuration")
	}
	return cfg, nil
}

// Apply applies the `nv set`/`nv unset` lines of text, in order, to c (of
// either format), as NVUE would to its pending revision. Blank lines and `#`
// comments are skipped, and so are `nv config apply` lines, so that a script
// written for a switch can be previewed as is. Any other line is an error
// naming file and line, and then c is left unchanged: every line is checked
// before the first is applied. The nodes a command sets take its line in
// text, while c.File and c.Format keep naming the configuration's own
// source: evidence for such a node points into file, not c.File.
func (c *Config) Apply(file string, text []byte) error {
	if c == nil {
		return errors.New("nvue: Apply on a nil *Config")
	}
	_, err := c.apply(file, text)
	return err
}

// apply is Apply returning how many set/unset commands text held.
func (c *Config) apply(file string, text []byte) (int, error) {
	cmds, err := readCommands(file, text)
	if err != nil {
		return 0, err
	}
	if c.Root == nil {
		c.Root = &Node{Line: 1}
	}
	for _, cmd := range cmds {
		cmd.applyTo(c.Root)
	}
	return len(cmds), nil
}

// command is one checked `nv set` or `nv unset` line.
type command struct {
	unset bool
	// words is the path after `nv set`/`nv unset`, value included.
	words []string
	line  int
}

// readCommands checks every line of data and returns its commands.
func readCommands(file string, data []byte) ([]command, error) {
	var cmds []command
	for i, raw := range strings.Split(string(data), "\n") {
		ln := i + 1
		text := strings.TrimSpace(raw) // also drops the \r of CRLF captures
		if text == "" || text[0] == '#' {
			continue
		}
		toks, err := splitShell(text)
		if err != nil {
			return nil, source.Errorf(file, ln, "%v", err)
		}
		if len(toks) >= 3 && toks[0] == "nv" && toks[1] == "config" && toks[2] == "apply" {
			// The last line of a change script (nvue.md §1.1); what it
			// applies is what the set/unset lines before it built.
			continue
		}
		if len(toks) < 2 || toks[0] != "nv" || (toks[1] != "set" && toks[1] != "unset") {
			// The collector saves the command output alone; anything else
			// (a prompt, an error message) means a bad capture.
			return nil, source.Errorf(file, ln, "not an `nv set`/`nv unset` command: %q", clip(text))
		}
		cmd := command{unset: toks[1] == "unset", words: toks[2:], line: ln}
		if len(cmd.words) == 0 {
			return nil, source.Errorf(file, ln, "`nv %s` without a path", toks[1])
		}
		if !cmd.unset {
			keys, _, _ := cmd.setPath()
			for _, k := range keys {
				if k == "" {
					// YAML has no empty keys either; only a value may be ''.
					return nil, source.Errorf(file, ln, "empty key in `nv set` path")
				}
			}
		}
		cmds = append(cmds, cmd)
	}
	return cmds, nil
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

func (c command) applyTo(root *Node) {
	if c.unset {
		applyUnset(root, c.words)
		return
	}
	keys, value, leaf := c.setPath()
	applySet(root, keys, value, leaf, c.line)
}

// applySet applies one `nv set`: keys down to a leaf set to value, or down
// to an object. The last word of a command is either a leaf's value, the ID
// of a collection member, or the end of a bare object path; the syntax
// cannot tell them apart, so lastIsValue decides from NVUE's schema.
func applySet(root *Node, keys []string, value string, leaf bool, ln int) {
	n := root
	for i, k := range keys {
		if leaf && i == len(keys)-1 {
			n.setLeaf(k, value, ln)
			return
		}
		n = n.ensureObject(k, ln)
	}
	n.Line = ln // the command that last set this object
}

// applyUnset removes the node the path names. `nv unset a b v` may also name
// a leaf by its value (`nv unset qos roce mode lossy`).
func applyUnset(root *Node, path []string) {
	last := len(path) - 1
	parent := root.Get(path[:last]...)
	if parent == nil {
		return
	}
	if !parent.IsLeaf {
		parent.removeChild(path[last])
		return
	}
	if parent.Value == path[last] && last >= 1 {
		if gp := root.Get(path[:last-1]...); gp != nil {
			gp.removeChild(path[last-1])
		}
	}
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
