package hostfiles

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/nvnum"
)

// An nccl.conf is often written like a shell file: copied from a job script
// (`export NCCL_IB_TC=106`, MegEngine/MegEngine-Benchmark prepare.sh), with
// `KEY = "value"` or `KEY=value   # comment` from tuning guides. NCCL reads
// none of that the way a shell does (see ParseNCCLConf), so every line is
// also read the way its author meant it, and a note says where the two
// readings part.

// adminLine is a line as a shell-minded administrator reads it: spaces
// trimmed, "export " dropped, one pair of quotes and a " #" comment removed.
type adminLine struct {
	kind       int // adminSkip, adminNoEq or adminAssign
	key, value string
}

const (
	adminSkip   = iota // blank or a comment
	adminNoEq          // text without '='
	adminAssign        // KEY=VALUE
)

func adminRead(raw string) adminLine {
	s := strings.TrimSpace(raw)
	if s == "" || s[0] == '#' {
		return adminLine{kind: adminSkip}
	}
	if rest, ok := strings.CutPrefix(s, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		s = strings.TrimLeft(rest, " \t")
	}
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		if f := strings.Fields(s); len(f) > 0 && validEnvName(f[0]) {
			return adminLine{kind: adminNoEq, key: f[0]}
		}
		return adminLine{kind: adminNoEq}
	}
	return adminLine{kind: adminAssign, key: strings.TrimSpace(k), value: adminValue(v)}
}

// adminValue is the text after '=' as a shell would mostly see it.
func adminValue(v string) string {
	t := strings.TrimSpace(v)
	if t != "" && (t[0] == '"' || t[0] == '\'') {
		if end := strings.IndexByte(t[1:], t[0]); end >= 0 {
			return t[1 : end+1]
		}
	}
	// '#' starts a comment only after white space, as in a shell: "a#b"
	// keeps its '#'.
	for i := 1; i < len(v); i++ {
		if v[i] == '#' && (v[i-1] == ' ' || v[i-1] == '\t') {
			v = v[:i]
			break
		}
	}
	return strings.TrimSpace(v)
}

// lineNote is a note before ParseNCCLConf numbers it. keyElsewhere asks it
// to add where key really comes from, once the whole file is read.
type lineNote struct {
	key, msg     string
	keyElsewhere bool
}

// ncclNotes compares line n as NCCL reads it (nv) with the administrator's
// reading. vars holds what NCCL has set so far, this line included.
func ncclNotes(raw string, n int, nv ncclVar, vars map[string]NCCLVar) []lineNote {
	var notes []lineNote
	if strings.Contains(strings.TrimSuffix(raw, "\r"), "\r") {
		notes = append(notes, lineNote{msg: `carriage return inside the line: NCCL ends lines at "\n" only, so all of it is one line`})
	}
	a := adminRead(raw)
	key := ""
	if validEnvName(a.key) {
		key = a.key
	}
	switch {
	case a.kind == adminSkip:
	case a.kind == adminNoEq:
		notes = append(notes, lineNote{key: key, msg: `no "=" on this line: NCCL ignores it`})
	case a.key == "" && !nv.sets:
		notes = append(notes, lineNote{msg: `no variable name before "=": NCCL ignores this line`})
	case a.key == "":
		notes = append(notes, lineNote{msg: fmt.Sprintf(`no variable name before "=": NCCL sets a variable named %q`, clip(nv.name))})
	case nv.name != a.key && nv.nameCut:
		notes = append(notes, lineNote{key: key, keyElsewhere: key != "",
			msg: fmt.Sprintf("the variable name is %d bytes long: NCCL cuts it to %d", len(a.key), ncclBuf-1)})
	case nv.name != a.key:
		notes = append(notes, lineNote{key: key, keyElsewhere: key != "",
			msg: fmt.Sprintf("%q sets a variable named %q, not %s", clip(strings.TrimSuffix(raw, "\r")), clip(nv.name), clip(a.key))})
	case vars[nv.name].Line != n:
		first := vars[nv.name]
		notes = append(notes, lineNote{key: key,
			msg: fmt.Sprintf("%s is already set on line %d; NCCL keeps the first value, %q", clip(nv.name), first.Line, clip(first.Value))})
	case nv.value != a.value:
		notes = append(notes, lineNote{key: key, msg: valueNote(nv, a.value)})
	default:
		if msg := numberNote(nv.value); msg != "" {
			notes = append(notes, lineNote{key: key, msg: msg})
		}
	}
	return notes
}

// valueNote explains why NCCL's value differs from the administrator's,
// and what an integer parameter makes of it when the value is a number.
func valueNote(nv ncclVar, want string) string {
	v := nv.value
	var why []string
	if nv.valueCut {
		why = append(why, fmt.Sprintf("it keeps only the first %d bytes", ncclBuf-1))
	}
	body := strings.TrimSuffix(v, "\r")
	if t := strings.TrimSpace(body); t != "" && (t[0] == '"' || t[0] == '\'') {
		why = append(why, "it keeps quotes")
	}
	if strings.Contains(v, "#") && !strings.Contains(want, "#") {
		why = append(why, "it has no trailing comments")
	}
	if body != strings.Trim(body, " \t") {
		why = append(why, "it keeps spaces")
	}
	if strings.HasSuffix(v, "\r") {
		why = append(why, "it keeps the CR of a DOS line end")
	}
	msg := fmt.Sprintf("NCCL reads the value as %q, not %q", clip(v), clip(want))
	if len(why) > 0 {
		msg += " (" + strings.Join(why, "; ") + ")"
	}
	if a, ok := adminNumber(want); ok {
		n := nvnum.Strtoll(v)
		switch {
		case n.Overflow:
			msg += "; as a number it is out of range, so NCCL keeps the parameter's default"
		case !n.Digits:
			msg += "; an integer parameter reads it as 0"
		case n.V != a:
			msg += fmt.Sprintf("; an integer parameter reads it as %d%s", n.V, baseName(n.Base))
		default:
			msg += fmt.Sprintf("; an integer parameter still reads %d", n.V)
		}
	}
	return msg
}

// baseName names a base other than 10 for a message.
func baseName(base uint64) string {
	switch base {
	case 8:
		return " (octal)"
	case 16:
		return " (hexadecimal)"
	}
	return ""
}

// numberNote flags a value that looks like a number and that
// strtoll(value, nullptr, 0) (ncclLoadParam, src/misc/param.cc) reads in
// another base than decimal, or not at all: "0106" is 70, "08" is 0, "0x68"
// is 104 and more than 63 bits is out of range. "007" is 7 either way.
func numberNote(v string) string {
	digits := strings.TrimLeft(v, "+-")
	hex := len(digits) > 2 && (digits[:2] == "0x" || digits[:2] == "0X") && allDigits(digits[2:], 16)
	if len(v)-len(digits) > 1 || !hex && !allDigits(digits, 10) {
		return ""
	}
	n := nvnum.Strtoll(v)
	want, ok := adminNumber(v)
	switch {
	case n.Overflow:
		return fmt.Sprintf("%q is out of range for NCCL, whose integer parameters then keep their default", clip(v))
	case hex:
		return fmt.Sprintf("%q is hexadecimal for NCCL (%d)", v, n.V)
	case ok && n.V == want:
		return ""
	case allDigits(digits, 8):
		return fmt.Sprintf("%q is octal for NCCL (%d)", clip(v), n.V)
	}
	return fmt.Sprintf("%q starts with 0, so NCCL reads it as octal and stops at the first 8 or 9: %d", clip(v), n.V)
}

// adminNumber is the number a person means by v: decimal even with leading
// zeros, or hexadecimal with 0x.
func adminNumber(v string) (int64, bool) {
	digits := strings.TrimLeft(v, "+-")
	if len(v)-len(digits) > 1 || digits == "" {
		return 0, false
	}
	if len(digits) > 2 && (digits[:2] == "0x" || digits[:2] == "0X") && allDigits(digits[2:], 16) {
		n, err := strconv.ParseInt(v[:len(v)-len(digits)]+digits[2:], 16, 64)
		return n, err == nil
	}
	if !allDigits(digits, 10) {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

func allDigits(s string, base uint64) bool {
	for i := 0; i < len(s); i++ {
		if nvnum.DigitVal(s[i]) >= base {
			return false
		}
	}
	return s != ""
}

// validEnvName accepts POSIX shell variable names.
func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
