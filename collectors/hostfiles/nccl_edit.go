package hostfiles

import (
	"bytes"
	"strings"
)

// SetNCCLVar edits nccl.conf text so that NCCL reads key=value from it.
// NCCL keeps the first line that sets a name (setEnvFile + setenv(…, 0),
// see ParseNCCLConf), so that line is replaced in place by "key=value" (its
// CR too, if it had one, since NCCL would keep a CR in the value); later
// lines for key are left as they are, still ignored. When no line sets key
// as NCCL reads it (an `export key=…` line sets "export key"), "key=value\n"
// is appended, after a "\n" if the file does not end with one. Every other
// byte is kept.
//
// key must be a name NCCL can set from a line: non-empty, at most 1023
// bytes, without '=', '\n' or NUL, not starting with '#'; value at most
// 1023 bytes, without '\n' or NUL (NCCL cuts both at 1023 bytes). Otherwise
// the data is returned unchanged (a copy), as no line could say it.
func SetNCCLVar(data []byte, key, value string) []byte {
	if !ncclKeyOK(key) || !ncclValueOK(value) {
		return bytes.Clone(data)
	}
	line := key + "=" + value
	for _, l := range ncclLineSpans(data) {
		nv := ncclRead(string(data[l.start:l.end]))
		if nv.sets && nv.name == key {
			out := make([]byte, 0, len(data)+len(line))
			out = append(out, data[:l.start]...)
			out = append(out, line...)
			return append(out, data[l.end:]...)
		}
	}
	out := bytes.Clone(data)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(append(out, line...), '\n')
}

// DelNCCLVar removes every line that sets key as NCCL reads it, each with
// its "\n"; every other byte is kept. An invalid key (see SetNCCLVar)
// matches no line.
func DelNCCLVar(data []byte, key string) []byte {
	out := make([]byte, 0, len(data))
	for _, l := range ncclLineSpans(data) {
		nv := ncclRead(string(data[l.start:l.end]))
		if ncclKeyOK(key) && nv.sets && nv.name == key {
			continue
		}
		out = append(out, data[l.start:l.next]...)
	}
	return out
}

// ncclSpan is one line of an nccl.conf as getline splits it: data[start:end]
// without its '\n'; the next line starts at next.
type ncclSpan struct{ start, end, next int }

func ncclLineSpans(data []byte) []ncclSpan {
	var spans []ncclSpan
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			spans = append(spans, ncclSpan{start, len(data), len(data)})
			break
		}
		spans = append(spans, ncclSpan{start, start + end, start + end + 1})
		start += end + 1
	}
	return spans
}

func ncclKeyOK(key string) bool {
	return key != "" && len(key) < ncclBuf && key[0] != '#' &&
		!strings.ContainsAny(key, "=\n\x00")
}

func ncclValueOK(value string) bool {
	return len(value) < ncclBuf && !strings.ContainsAny(value, "\n\x00")
}
