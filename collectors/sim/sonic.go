package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// switchOS is the operating system a simulated switch runs: the
// inventory's os when it names one, else SONiC for a folder that holds
// config_db.json and no NVUE configuration, the rule the offline reader
// applies (inventory.Switch.OS), else Cumulus Linux.
func switchOS(s inventory.Switch, dir string) string {
	if s.OS != "" {
		return s.OS
	}
	has := func(name string) bool {
		st, err := os.Stat(filepath.Join(dir, name))
		return err == nil && st.Mode().IsRegular()
	}
	if has(layout.ConfigDBFile) && !has(layout.NVUEYAMLFile) && !has(layout.NVUECommandsFile) {
		return inventory.OSSONiC
	}
	return inventory.OSCumulus
}

// runSONiC answers a SONiC switch: the SONiC reads from its folder's
// files, and anything else as bash does for a command it does not have
// (`nv` among them: SONiC has no NVUE, so `-bash: nv: command not found`,
// exit 127).
func (d *device) runSONiC(cmd string, exec, sudo bool) result {
	switch cmd {
	case devcmd.SONiCConfigDB:
		return d.file(layout.ConfigDBFile, d.sonicError("no "+layout.ConfigDBFile))
	case devcmd.SONiCRunningConfig:
		return d.runningConfig()
	case devcmd.SONiCPlatformSummary:
		return d.file(layout.PlatformSummaryFile, d.sonicError("no "+layout.PlatformSummaryFile))
	case devcmd.SONiCLLDPNeighbors, devcmd.LLDPNeighbors:
		// The host's lldpcli is docker exec into the lldp container
		// (sonic-buildimage dockers/docker-lldp/base_image_files/lldpcli);
		// a folder without lldp.json has no such container, and docker
		// says so in its words (docker/cli issue 3518).
		return d.file(layout.LLDPFile, stderr("Error response from daemon: No such container: lldp\n", exitFail))
	}
	return notFound(cmd, exec, sudo)
}

// sonicError is the simulator's own wording for a SONiC read whose file
// the folder lacks: click-based CLIs print "Error: ..." and exit 1.
func (d *device) sonicError(msg string) result {
	return stderr("Error: "+msg+" in the simulated "+d.name+"\n", exitFail)
}

// runningConfig answers `show runningconfiguration all` as sonic-utilities
// show/main.py `def all` does on a single-ASIC switch: it loads what
// `sonic-cfggen -d --print-data` prints (config_db.json here), adds
// "bgpraw", FRR's running configuration, last, and prints
// json.dumps(output, indent=4) through click.echo. bgpraw is "": the
// simulator runs no FRR, and run_bgp_command gives "" for a vtysh that
// fails when exit_on_fail is false (utilities_common/bgp_util.py). Output
// that does not load gets get_config_json_by_namespace's message and
// click's Abort ("Aborted!", exit 1); the decoder's part of the message is
// Go's, not Python's.
func (d *device) runningConfig() result {
	data, err := os.ReadFile(filepath.Join(d.dir, layout.ConfigDBFile))
	if err != nil {
		return d.sonicError("no " + layout.ConfigDBFile)
	}
	out, err := pyDumpsWith(data, "bgpraw", "")
	if err != nil {
		return result{out: []chunk{
			{text: "Failed to load output '['sonic-cfggen', '-d', '--print-data']':" + err.Error() + "\n"},
			{stderr: true, text: "Aborted!\n"},
		}, code: exitFail}
	}
	return stdout(out+"\n", exitOK)
}

// pyDumpsWith re-prints the JSON object data as Python's json.dumps(obj,
// indent=4) does (keys in their order, separators "," and ": ",
// ensure_ascii escapes, "{}" and "[]" for empty ones), with key: value
// added as the object's last member.
func pyDumpsWith(data []byte, key, value string) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var b strings.Builder
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	if tok != json.Delim('{') {
		return "", fmt.Errorf("not a JSON object")
	}
	n, err := pyObject(dec, &b, 1)
	if err != nil {
		return "", err
	}
	if n > 0 {
		b.WriteString(",")
	}
	b.WriteString("\n    " + pyString(key) + ": " + pyString(value) + "\n}")
	if _, err := dec.Token(); err != io.EOF {
		return "", fmt.Errorf("data after the object")
	}
	return "{" + b.String(), nil
}

// pyObject writes the members of an object whose '{' was read, up to and
// not including its closing line; it returns how many it wrote.
func pyObject(dec *json.Decoder, b *strings.Builder, depth int) (int, error) {
	ind := "\n" + strings.Repeat("    ", depth)
	n := 0
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return 0, err
		}
		k, ok := tok.(string)
		if !ok {
			return 0, fmt.Errorf("object key %v is not a string", tok)
		}
		if n > 0 {
			b.WriteString(",")
		}
		b.WriteString(ind + pyString(k) + ": ")
		if err := pyValue(dec, b, depth); err != nil {
			return 0, err
		}
		n++
	}
	_, err := dec.Token() // '}'
	return n, err
}

func pyValue(dec *json.Decoder, b *strings.Builder, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	closing := "\n" + strings.Repeat("    ", depth)
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			b.WriteString("{")
			n, err := pyObject(dec, b, depth+1)
			if err != nil {
				return err
			}
			if n == 0 {
				b.WriteString("}")
			} else {
				b.WriteString(closing + "}")
			}
			return nil
		}
		b.WriteString("[")
		n := 0
		for dec.More() {
			if n > 0 {
				b.WriteString(",")
			}
			b.WriteString(closing + "    ")
			if err := pyValue(dec, b, depth+1); err != nil {
				return err
			}
			n++
		}
		if _, err := dec.Token(); err != nil { // ']'
			return err
		}
		if n > 0 {
			b.WriteString(closing)
		}
		b.WriteString("]")
	case string:
		b.WriteString(pyString(v))
	case json.Number:
		b.WriteString(pyNumber(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	}
	return nil
}

// pyString is a JSON string as Python's json.dumps writes it with
// ensure_ascii: \" \\ \n \r \t \b \f, and \uXXXX (a surrogate pair
// above U+FFFF) for anything else outside ' '..'~' (CPython
// Lib/json/encoder.py ESCAPE_ASCII).
func pyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || (r > 0x7e && r < 0x10000):
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x10000:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// pyNumber is a number as Python prints what json.loads made of it: an
// integer as written, a float as repr does (shortest round trip, ".0" on a
// whole number, exponent form below 1e-4 and from 1e16 on).
func pyNumber(n json.Number) string {
	s := n.String()
	if !strings.ContainsAny(s, ".eE") {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return e
	}
	out := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(out, ".") {
		out += ".0"
	}
	return out
}
