package lldp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/qoslint/qoslint/internal/source"
)

// refParseTree is the tree reader as it was on encoding/json (a validating
// json.Unmarshal, then Decoder.Token): FuzzTreeAsEncodingJSON holds the
// jsontext reader to the same trees and the same errors.
// refReader turns validated JSON into nodes, counting lines as the
// decoder's offset grows.
type refReader struct {
	file    string
	data    []byte
	dec     *json.Decoder
	lineOff int
	line    int
}

func refParseTree(file string, data []byte) (*node, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, source.Errorf(file, 1, "empty lldpcli output")
	}
	if !utf8.Valid(data) {
		// lldpcli escapes every invalid byte as \uFFFD (src/client/json_writer.c
		// json_string_dump), so raw invalid UTF-8 is not its output.
		if e := source.CheckUTF8(file, data, "lldpcli JSON"); e != nil {
			return nil, e
		}
	}
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, source.Errorf(file, refLineAt(data, int(se.Offset)-1), "invalid JSON: %v", se)
		}
		return nil, source.Errorf(file, 1, "invalid JSON: %v", err)
	}
	r := &refReader{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data)), line: 1}
	r.dec.UseNumber()
	tok, line, err := r.next()
	if err != nil {
		return nil, err
	}
	return r.value(tok, line, 0)
}

func refLineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// next returns the next token and the line it starts on.
func (r *refReader) next() (json.Token, int, error) {
	off := int(r.dec.InputOffset())
	for off < len(r.data) {
		c := r.data[off]
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != ':' {
			break
		}
		off++
	}
	for ; r.lineOff < off && r.lineOff < len(r.data); r.lineOff++ {
		if r.data[r.lineOff] == '\n' {
			r.line++
		}
	}
	tok, err := r.dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, r.line, source.Errorf(r.file, r.line, "invalid JSON: %v", err)
	}
	return tok, r.line, nil
}

func (r *refReader) value(tok json.Token, line, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, source.Errorf(r.file, line, "JSON nested deeper than %d levels: not lldpcli output", maxDepth)
	}
	n := &node{line: line}
	switch v := tok.(type) {
	case json.Delim:
		return r.container(n, v, depth)
	case string:
		n.kind, n.str = 's', v
	case bool:
		n.kind, n.truth = 'b', v
	case json.Number:
		n.kind, n.str = 'n', string(v)
	case nil:
		n.kind = '0'
	default:
		return nil, source.Errorf(r.file, line, "unexpected JSON token %v", tok)
	}
	return n, nil
}

func (r *refReader) container(n *node, d json.Delim, depth int) (*node, error) {
	n.kind = 'a'
	end := json.Delim(']')
	if d == '{' {
		n.kind, end = 'o', '}'
	}
	for {
		tok, line, err := r.next()
		if err != nil {
			return nil, err
		}
		if tok == end {
			return n, nil
		}
		if n.kind == 'o' {
			key, _ := tok.(string)
			n.keys = append(n.keys, key)
			if tok, line, err = r.next(); err != nil {
				return nil, err
			}
		}
		v, err := r.value(tok, line, depth+1)
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
}
