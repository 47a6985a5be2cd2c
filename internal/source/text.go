package source

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// bom is U+FEFF in UTF-8. Windows editors (Notepad, PowerShell's
// Out-File -Encoding utf8 before PowerShell 6) write it at the start of a
// file; it carries no content, and Unicode (The Unicode Standard, 23.8
// "Specials", U+FEFF) says a UTF-8 reader may drop it.
var bom = []byte{0xEF, 0xBB, 0xBF}

// StripBOM returns data without a leading UTF-8 byte order mark.
func StripBOM(data []byte) []byte { return bytes.TrimPrefix(data, bom) }

// InvalidUTF8 returns the 1-based line and byte column of the first byte
// of data that is not UTF-8, and that byte; line 0 when data is all UTF-8.
func InvalidUTF8(data []byte) (line, col int, b byte) {
	if utf8.Valid(data) {
		return 0, 0, 0
	}
	line, start := 1, 0
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return line, i - start + 1, data[i]
		}
		if data[i] == '\n' {
			line, start = line+1, i+1
		}
		i += size
	}
	return 0, 0, 0
}

// CheckUTF8 is an *Error at the first byte of data that is not UTF-8, for
// formats whose specification requires UTF-8 (YAML, HCL, JSON); nil when
// data is all UTF-8. what names the format in the message.
func CheckUTF8(file string, data []byte, what string) *Error {
	line, col, b := InvalidUTF8(data)
	if line == 0 {
		return nil
	}
	return Errorf(file, line, "byte 0x%02X at column %d is not UTF-8: %s must be UTF-8 (was the file saved as Latin-1?)", b, col, what)
}

// Lines splits a captured text file into lines without their "\n" or a
// trailing "\r" (captures copied through Windows tools keep CRLF). Index i
// is line i+1; an empty file has no lines.
func Lines(data []byte) []string {
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
