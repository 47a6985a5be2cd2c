package nvue

import (
	"bytes"
	"strconv"
	"strings"
)

// FormatCommands writes c the way `nv config show -o commands` does
// (CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md): one `nv set <path> <value>` per leaf and one bare
// `nv set <path>` per empty object, which is also how a collection member
// is written (`nv set qos pfc default-global switch-priority 3`), in the
// tree's order, words quoted as NVUE quotes them (`'*'`; a value with line
// breaks as one single-quoted word over several lines, as NVUE prints a
// login banner or a config snippet, see shell.go).
//
// ParseCommands reads the result back to the same tree except where the
// command syntax itself is ambiguous and its schema table (lastIsValue)
// does not know the path: an empty object three or more keys deep that is
// neither a listed object nor a member of one (`nv set system config
// auto-save` reads as the leaf `config: auto-save`), a leaf one key deep,
// at a listed object path or whose value completes one (`nv set qos roce
// lossy` reads as a member), a key with a line break (written as a
// comment, see writeCommand), and an empty tree (no command at all).
func FormatCommands(c *Config) []byte {
	var b bytes.Buffer
	if c != nil && c.Root != nil {
		writeCommands(&b, c.Root, nil)
	}
	return b.Bytes()
}

func writeCommands(b *bytes.Buffer, n *Node, path []string) {
	for _, c := range n.Children {
		p := append(path[:len(path):len(path)], c.Key)
		switch {
		case c.IsLeaf:
			writeCommand(b, append(p, c.Value))
		case len(c.Children) == 0:
			writeCommand(b, p)
		default:
			writeCommands(b, c, p)
		}
	}
}

// writeCommand writes `nv set` and the words. The last word may span lines
// (a value, or a bare object's key): NVUE prints multi-line values that
// way and ParseCommands reads them. A key with a line break before the last
// word is a multi-line word in mid-command, which the reader takes for an
// unterminated quote (shell.go); NVUE has no such keys, so rather than
// write what would not read back, the command is written as a comment with
// the words Go-quoted, which a reader sees and Apply skips.
func writeCommand(b *bytes.Buffer, words []string) {
	for _, w := range words[:len(words)-1] {
		if strings.ContainsRune(w, '\n') {
			b.WriteString("# not writable: a key with a line break: nv set")
			for _, w := range words {
				b.WriteString(" " + strconv.Quote(w))
			}
			b.WriteString("\n")
			return
		}
	}
	b.WriteString("nv set")
	for _, w := range words {
		b.WriteString(" " + shellQuote(w))
	}
	b.WriteString("\n")
}

// shellQuote quotes w the way Python's shlex.quote does (NVUE is written in
// Python; the one quoted word a public `nv config show -o commands` capture
// shows, `hashed-password '*'` (unattributed, not verified),
// agrees): words of letters, digits and @%+=:,./-_ stay bare, anything else
// is single-quoted, a single quote inside becoming '"'"'.
func shellQuote(w string) string {
	if w == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("@%+=:,./-_", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'"'"'`) + "'"
}
