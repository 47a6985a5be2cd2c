package snapshot

import (
	"bytes"
	"encoding/json"
	"io"
)

// EncodeJSON writes v as JSON deterministically (encoding/json sorts map
// keys), the form of both snapshots and drift reports: it encodes v (encoding/json sorts map keys) and
// indents it with indentFlat.
func EncodeJSON(w io.Writer, v any) error {
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	// Origins and messages are text for people: keep "→" and "<" readable.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var out bytes.Buffer
	indentFlat(&out, bytes.TrimSpace(compact.Bytes()))
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

// indentFlat indents compact JSON by two spaces per level but keeps small
// containers (flatContainers) on one line: a fact is `{"value": 3,
// "origin": "..."}`, a DSCP map one line of 64 numbers.
// encoding/json's own indenter puts each of those on its own lines, which
// makes a snapshot thousands of lines long and no easier to diff.
func indentFlat(dst *bytes.Buffer, src []byte) {
	flat := flatContainers(src)
	depth := 0
	newline := func() {
		dst.WriteByte('\n')
		for i := 0; i < depth; i++ {
			dst.WriteString("  ")
		}
	}
	inline := 0 // > 0 while inside a flat container
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"':
			j := stringEnd(src, i)
			dst.Write(src[i:j])
			i = j - 1
		case c == '{' || c == '[':
			dst.WriteByte(c)
			if inline > 0 || flat[i] {
				inline++
				continue
			}
			depth++
			newline()
		case c == '}' || c == ']':
			if inline > 0 {
				inline--
				dst.WriteByte(c)
				continue
			}
			depth--
			newline()
			dst.WriteByte(c)
		case c == ',':
			dst.WriteByte(',')
			if inline > 0 {
				dst.WriteByte(' ')
			} else {
				newline()
			}
		case c == ':':
			dst.WriteString(": ")
		default:
			dst.WriteByte(c)
		}
	}
}

// flatContainers marks the offsets of the '{' and '[' that stay on one
// line: a container that holds no other container, or an object whose only
// containers are such arrays ({"value": [3], "origin": "..."}), as long as
// an object fits in maxInline.
func flatContainers(src []byte) map[int]bool {
	flat := map[int]bool{}
	leafOnly := map[int]bool{}
	var stack []int
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			i = stringEnd(src, i) - 1
		case '{', '[':
			stack = append(stack, i)
			flat[i], leafOnly[i] = true, true
		case '}', ']':
			n := len(stack)
			if n == 0 {
				continue
			}
			c := stack[n-1]
			stack = stack[:n-1]
			if src[c] == '{' && inlineWidth(src[c:i+1]) > maxInline {
				flat[c] = false
			}
			if n < 2 {
				continue
			}
			parent := stack[n-2]
			leafOnly[parent] = false
			if src[parent] == '[' || src[c] == '{' || !leafOnly[c] {
				flat[parent] = false
			}
		}
	}
	return flat
}

// maxInline is the widest object kept on one line; arrays of scalars (a
// DSCP map) stay on one line whatever their width.
const maxInline = 160

// inlineWidth is the width of compact JSON once ", " and ": " are spaced.
func inlineWidth(b []byte) int {
	w := len(b)
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i) - 1
		case ',', ':':
			w++
		}
	}
	return w
}

// stringEnd returns the offset just past the JSON string starting at i.
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}
