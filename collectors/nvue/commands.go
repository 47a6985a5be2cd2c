package nvue

import (
	"strings"

	"github.com/qoslint/qoslint/collectors/source"
)

// ParseCommands parses `nv config show -o commands` output: one
// `nv set <path...> [value]` or `nv unset <path...>` per line, values
// shell-quoted (`hashed-password '*'`), ranges kept compressed
// (`interface swp1-2,32`) — nvue.md §3.3. It builds the same tree ParseYAML
// builds for the same configuration.
func ParseCommands(file string, data []byte) (*Config, error) {
	// The root stands for the whole file; line 1 keeps every Line ≥ 1.
	cfg := &Config{File: file, Format: "commands", Root: &Node{Line: 1}}
	cmds := 0
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
		if len(toks) < 2 || toks[0] != "nv" || (toks[1] != "set" && toks[1] != "unset") {
			// The collector saves the command output alone; anything else
			// (a prompt, an error message) means a bad capture.
			return nil, source.Errorf(file, ln, "not an `nv set`/`nv unset` command: %q", clip(text))
		}
		path := toks[2:]
		if len(path) == 0 {
			return nil, source.Errorf(file, ln, "`nv %s` without a path", toks[1])
		}
		if toks[1] == "unset" {
			applyUnset(cfg.Root, path)
			cmds++
			continue
		}
		keys, value := path, ""
		leaf := lastIsValue(path)
		if leaf {
			keys, value = path[:len(path)-1], path[len(path)-1]
		}
		for _, k := range keys {
			if k == "" {
				// YAML has no empty keys either; only a value may be ''.
				return nil, source.Errorf(file, ln, "empty key in `nv set` path")
			}
		}
		applySet(cfg.Root, keys, value, leaf, ln)
		cmds++
	}
	if cmds == 0 {
		return nil, source.Errorf(file, 1, "empty configuration")
	}
	return cfg, nil
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
