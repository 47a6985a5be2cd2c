package nvue

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// FormatYAML writes c the way NVUE writes /etc/nvue.d/startup.yaml: a list
// of `- header:` (when c has one or c.Version is known) and `- set:`,
// two-space indentation, members in the tree's order, empty objects as `{}`,
// keys that YAML would read as numbers quoted (`'26':`) and values left
// plain where YAML keeps them as written (`enable: on`, `mtu: 9216`) — the
// shape of the real CL 5.9.2 file (ytti/oxidized
// spec/model/data/cumulus#MSN2010_5.9.2_nvue#custom_simulation.yaml).
// ParseYAML reads the result back to the same Version, Header and tree.
func FormatYAML(c *Config) []byte {
	var b bytes.Buffer
	var root *Node
	if c != nil {
		root = c.Root
		writeHeader(&b, c)
	}
	if root == nil || len(root.Children) == 0 {
		b.WriteString("- set: {}\n")
		return b.Bytes()
	}
	b.WriteString("- set:\n")
	writeYAMLMembers(&b, root, 4)
	return b.Bytes()
}

// writeHeader writes every header field c was read with, in order
// (`model:`, `nvue-api-version:`, `rev-id:`, `version:` in the real 5.9.2
// file, ytti/oxidized spec/model/data/cumulus#MSN2010_5.9.2_nvue#
// custom_simulation.yaml), with c.Version as the version. A configuration
// built without a header but with a version (a commands capture has none)
// gets the constant fields of every NVUE header, without the model, which
// is not known.
func writeHeader(b *bytes.Buffer, c *Config) {
	fields := c.Header
	if len(fields) == 0 {
		if c.Version == "" {
			return
		}
		fields = []HeaderField{{Key: "nvue-api-version", YAML: "nvue_v1"}, {Key: "rev-id", YAML: "1.0"}}
	}
	b.WriteString("- header:\n")
	hasVersion := false
	for _, f := range fields {
		if f.Key == "version" {
			hasVersion = true
			if c.Version != "" && c.Version != f.Value {
				f.YAML = yamlValue(c.Version)
			}
		}
		writeHeaderField(b, f)
	}
	if !hasVersion && c.Version != "" {
		writeHeaderField(b, HeaderField{Key: "version", YAML: yamlValue(c.Version)})
	}
}

// writeHeaderField writes one field under `- header:` (at indent 4): a
// one-line value beside its key; a block mapping or list on the lines
// below, indented deeper; a block scalar's indicator beside the key and its
// lines below.
func writeHeaderField(b *bytes.Buffer, f HeaderField) {
	key := "    " + yamlKey(f.Key) + ":"
	first, rest, multi := strings.Cut(f.YAML, "\n")
	block := multi && !strings.HasPrefix(first, "|") && !strings.HasPrefix(first, ">")
	switch {
	case f.YAML == "":
		b.WriteString(key + "\n")
		return
	case block:
		b.WriteString(key + "\n")
		rest = f.YAML
	default:
		b.WriteString(key + " " + first + "\n")
	}
	if rest == "" {
		return
	}
	// The encoder indents a block scalar's lines by 2 and a block
	// collection's not at all; either way they land below the key's 4.
	pad := "    "
	if block {
		pad = "      "
	}
	for _, l := range strings.Split(rest, "\n") {
		b.WriteString(pad + l + "\n")
	}
}

func writeYAMLMembers(b *bytes.Buffer, n *Node, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, c := range n.Children {
		key := yamlKey(c.Key)
		if utf8.RuneCountInString(key) > maxSimpleKey {
			// A longer implicit key is a syntax error in YAML (yaml.v3
			// gives up on a simple key after 1024 characters), so write
			// it as an explicit `? key` / `: value` pair.
			fmt.Fprintf(b, "%s? %s\n", pad, key)
			key = ""
		}
		b.WriteString(pad + key + ":")
		switch {
		case c.IsLeaf:
			b.WriteString(" " + yamlValue(c.Value) + "\n")
		case len(c.Children) == 0:
			b.WriteString(" {}\n")
		default:
			b.WriteString("\n")
			writeYAMLMembers(b, c, indent+2)
		}
	}
}

// maxSimpleKey leaves room below YAML's 1024-character limit for a key.
const maxSimpleKey = 1000

// yamlKey writes a key. NVUE quotes keys that YAML would read as something
// other than a string: `'26':` under dscp (an unattributed public CL 5.5.1
// applied dump, not verified).
func yamlKey(s string) string {
	if plainSafe(s) && plainTag(s) == "!!str" {
		return s
	}
	return yamlQuote(s)
}

// yamlValue writes a leaf value. Numbers and on/off stay plain as NVUE
// writes them (`mtu: 9216`, `enable: on`; yaml.v3 reads `on` as a string);
// anything YAML would read as null, a boolean or a date, or could not read
// as a plain scalar at all (`'*'`), is quoted.
func yamlValue(s string) string {
	if plainSafe(s) {
		switch plainTag(s) {
		case "!!str", "!!int", "!!float":
			return s
		}
	}
	return yamlQuote(s)
}

// plainTag is the tag YAML resolves s to when s is written plain.
func plainTag(s string) string {
	return (&yaml.Node{Kind: yaml.ScalarNode, Value: s}).ShortTag()
}

// plainSafe reports whether s can be written as a plain scalar in block
// context and read back unchanged. It is stricter than YAML needs: ASCII
// only, no indicator at the start, no `: ` or ` #`, no edge or double
// spaces, no brackets. Everything NVUE writes plain passes (`swp1-2,32`,
// `10.10.10.1/32`, `UNUSED 25G PORTS`, `Cumulus Linux 5.9.2`).
func plainSafe(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	if s == "<<" {
		// A merge key to YAML 1.1 readers, though yaml.v3 resolves it
		// as a string.
		return false
	}
	switch s[0] {
	case '-':
		// `-1` and `-foo` are plain; `-` and `- x` start a list item.
		if len(s) == 1 || s[1] == ' ' {
			return false
		}
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if s[i+1] == ' ' || s[i+1] == '#' || s[i-1] == ':' {
				return false
			}
		case c < 0x20 || c > 0x7e || strings.IndexByte("[]{}", c) >= 0:
			return false
		}
	}
	return true
}

// yamlQuote writes s single-quoted as NVUE does (`'*'`), or double-quoted
// with escapes when s has characters a single-quoted scalar cannot hold on
// one line (line breaks, control characters).
func yamlQuote(s string) string {
	if singleQuotable(s) {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// YAML text is Unicode: a byte that is not UTF-8 cannot be
			// kept. It becomes the code point of the same number.
			fmt.Fprintf(&b, `\x%02X`, s[i])
			i++
			continue
		}
		i += size
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case yamlPrintable(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02X`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			fmt.Fprintf(&b, `\U%08X`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// singleQuotable reports whether every character of s may stand inside a
// one-line single-quoted scalar. A tab may, but is easier to see escaped.
func singleQuotable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == '\t' || !yamlPrintable(r) {
			return false
		}
	}
	return true
}

// yamlPrintable is YAML's c-printable set without the line breaks (NEL,
// LS and PS count as breaks for yaml.v3) and the byte-order mark.
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t' || (r >= 0x20 && r <= 0x7e):
		return true
	case r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff:
		return false
	case r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return false
}
