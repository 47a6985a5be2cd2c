package hostfiles

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// UCXConf is one ucx.conf as UCX reads it.
type UCXConf struct {
	File string
	// Vars are the settings UCX applies on any machine: name → the last
	// line that sets it (a later line overrides an earlier one).
	Vars map[string]NCCLVar
	// Conditional are the settings of sections whose filter lines ("CPU
	// model=Grace") qoslint cannot evaluate: they apply only on matching
	// machines, so they decide nothing here.
	Conditional map[string]UCXConditional
	// Plain holds the names whose deciding line is the bare "NAME=value"
	// form a `sed 's/^NAME=.*/.../'` rewrites.
	Plain map[string]bool
	Notes []NCCLNote
}

// UCXConditional is a setting that applies only where its section's
// filter matches.
type UCXConditional struct {
	NCCLVar
	Section, Filter string
}

// ucxMaxLine is the line buffer of UCX's ini reader: INI_MAX_LINE 200
// with INI_USE_STACK, read with fgets, so 199 characters and the rest of
// a longer line is read as a new line (openucx/ucx src/ucs/config/ini.h,
// ini.c ini_parse_stream).
const ucxMaxLine = 199

// ucxFilters are the labels that make a section conditional
// (openucx/ucx src/ucs/config/parser.c ucs_config_parse_check_filter:
// UCS_CPU_VENDOR_LABEL, UCS_CPU_MODEL_LABEL in src/ucs/arch/cpu.h,
// UCS_SYS_DMI_PRODUCT_NAME_LABEL in src/ucs/sys/sys.h).
var ucxFilters = []string{"CPU vendor", "CPU model", "Product name"}

// ParseUCXConf reads a ucx.conf with UCX's own rules: UCX parses it with
// the inih reader it ships (openucx/ucx src/ucs/config/ini.c,
// ini_parse_stream, configured in ini.h) and stores each name=value in
// one map, a later line replacing an earlier one (parser.c
// ucs_config_parse_config_file_line with override=1). So:
//
//   - blank lines and lines starting with ';' or '#' are comments;
//     an inline comment starts at a ';' after whitespace;
//   - "name=value" or "name:value", both sides trimmed;
//   - "[section]" starts a section; a section whose first lines are
//     filters ("CPU model=Grace", fnmatch patterns, as the shipped
//     config/ucx.conf has) applies only to matching machines;
//   - a line with leading whitespace after a setting continues it, and
//     UCX's handler then replaces that setting's value with the line.
//
// A line inih cannot parse makes UCX warn "failed to parse config file"
// and go on, so it is a note here too. Binary content is an error.
func ParseUCXConf(file string, data []byte) (*UCXConf, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, source.Errorf(file, bytes.Count(data[:i], []byte("\n"))+1, "NUL byte: not a ucx.conf")
	}
	c := &UCXConf{File: file, Vars: map[string]NCCLVar{}, Conditional: map[string]UCXConditional{}, Plain: map[string]bool{}}
	s := ucxSection{}
	prev := ""
	for i, raw := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		n := i + 1
		raw = strings.TrimSuffix(raw, "\r")
		if n == 1 {
			raw = strings.TrimPrefix(raw, "\ufeff")
		}
		if len(raw) > ucxMaxLine {
			c.note(n, "", fmt.Sprintf("line is %d characters long: UCX reads %d and takes the rest as another line; not read", len(raw), ucxMaxLine))
			prev = ""
			continue
		}
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || line[0] == ';' || line[0] == '#':
		case prev != "" && line != raw && raw[0] <= ' ':
			c.set(n, &s, prev, line, false)
			c.note(n, prev, fmt.Sprintf("an indented line continues %s: UCX replaces its value with %q", prev, clip(line)))
		case line[0] == '[':
			end := commentOr(line[1:], "]")
			if end < 0 || line[1+end] != ']' {
				c.note(n, "", "a section line without ']': UCX warns \"failed to parse config file\" and skips it")
				continue
			}
			s = ucxSection{name: line[1 : 1+end]}
			prev = ""
		default:
			prev = c.pair(n, &s, line, raw)
		}
	}
	return c, nil
}

// ucxSection is the section being read and whether its filters exclude
// it (for us: make it conditional).
type ucxSection struct {
	name, filter string
}

// pair reads a name=value line and returns the name ("" when none).
func (c *UCXConf) pair(n int, s *ucxSection, line, raw string) string {
	end := commentOr(line, "=:")
	if end < 0 || (line[end] != '=' && line[end] != ':') {
		c.note(n, "", fmt.Sprintf("%q is no name=value line: UCX warns \"failed to parse config file\" and skips it", clip(line)))
		return ""
	}
	name := strings.TrimSpace(line[:end])
	value := line[end+1:]
	if k := commentOr(value, ""); k >= 0 {
		value = value[:k]
	}
	value = strings.TrimSpace(value)
	plain := strings.HasPrefix(raw, name+"=")
	c.set(n, s, name, value, plain)
	return name
}

// set stores name=value as UCX's handler does, honouring the filters: a
// filter line conditions the lines after it up to the next section, the
// unnamed first one included (parser.c ucs_config_parse_set_section_info
// keeps a skipped section skipped).
func (c *UCXConf) set(n int, s *ucxSection, name, value string, plain bool) {
	for _, f := range ucxFilters {
		if name == f {
			if s.filter != "" {
				s.filter += ", "
			}
			s.filter += name + "=" + value
			return
		}
	}
	if s.filter != "" {
		c.Conditional[name] = UCXConditional{NCCLVar: NCCLVar{Value: value, Line: n}, Section: s.name, Filter: s.filter}
		return
	}
	if old, ok := c.Vars[name]; ok && strings.HasPrefix(name, "UCX_") && old.Line != n-1 {
		c.note(n, name, fmt.Sprintf("%s is also set at line %d: UCX keeps the later line", name, old.Line))
	}
	c.Vars[name] = NCCLVar{Value: value, Line: n}
	c.Plain[name] = plain
}

func (c *UCXConf) note(n int, key, msg string) {
	c.Notes = append(c.Notes, NCCLNote{Line: n, Key: key, Msg: msg})
}

// commentOr is inih's find_chars_or_comment: the index of the first byte
// of s in chars, or of an inline ';' that follows whitespace; -1 when
// neither occurs.
func commentOr(s, chars string) int {
	space := false
	for i := 0; i < len(s); i++ {
		b := s[i]
		if strings.IndexByte(chars, b) >= 0 || (space && b == ';') {
			return i
		}
		space = b == ' ' || b == '\t' || b == '\v' || b == '\f' || b == '\r' || b == '\n'
	}
	return -1
}

// UCXULUnits reads a UCS_CONFIG_TYPE_ULUNITS value as UCX does
// (openucx/ucx src/ucs/config/parser.c ucs_config_sscanf_ulunits):
// "auto" or "inf" in any case, else sscanf("%lu"), which skips leading
// blanks, takes the leading digits and ignores the rest. ok is false when
// UCX refuses the value (no digits).
func UCXULUnits(v string) (n uint64, auto, ok bool) {
	switch strings.ToLower(v) {
	case "auto":
		return 0, true, true
	case "inf":
		return ^uint64(0), false, true
	}
	s := strings.TrimLeft(v, " \t\n\v\f\r")
	s = strings.TrimPrefix(s, "+")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n > (^uint64(0)-9)/10 {
			return ^uint64(0), false, true // strtoul saturates at ULONG_MAX
		}
		n = n*10 + uint64(s[i]-'0')
		i++
	}
	return n, false, i > 0
}
