package hostfiles

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// ipLinkFile is the name SetLinkMTU's errors give the document: the file
// `ip -j link show` is captured to in a fabric directory. A caller that
// knows the real path can overwrite the error's File.
const ipLinkFile = layout.IPLinkFile

// SetLinkMTU sets the "mtu" of interface ifname in an `ip -j link show`
// (or `ip -j -p link show`) document, as `ip link set dev ifname mtu N`
// would make it print. The number is replaced in place and every other
// byte is kept, so the rest of the capture, pretty-printing included,
// stays as the host printed it. Every object named ifname is changed (ip
// prints one), and every top-level "mtu" key of it (the last one is what a
// JSON reader keeps). Nested "mtu" keys and min_mtu/max_mtu are not touched.
//
// The error is a *source.Error at ipLinkFile:line: a document ParseIPLink
// rejects, an mtu below 0, outside the object's min_mtu..max_mtu when the
// capture has them (`ip -d`; the kernel's dev_validate_mtu refuses such a
// value), or an interface the document does not list. min_mtu and max_mtu
// are printed by iproute2's ip/ipaddress.c (`"min_mtu", "minmtu %u "`).
func SetLinkMTU(data []byte, ifname string, mtu int) ([]byte, error) {
	if _, err := ParseIPLink(ipLinkFile, data); err != nil {
		return nil, err
	}
	if mtu < 0 || mtu > 1<<31-1 {
		return nil, source.Errorf(ipLinkFile, 1, "mtu %d for %s: want 0..2147483647", mtu, ifname)
	}
	objs, err := linkObjects(data)
	if err != nil {
		return nil, err
	}
	var spans [][2]int
	var names []string
	for _, o := range objs {
		names = append(names, o.name)
		if o.name != ifname {
			continue
		}
		// dev_validate_mtu (linux net/core/dev.c): "mtu less than device
		// minimum", and "mtu greater than device maximum" when max_mtu > 0.
		if o.minMTU >= 0 && mtu < o.minMTU {
			return nil, source.Errorf(ipLinkFile, o.line, "mtu %d for %s: below the device's min_mtu %d", mtu, ifname, o.minMTU)
		}
		if o.maxMTU > 0 && mtu > o.maxMTU {
			return nil, source.Errorf(ipLinkFile, o.line, "mtu %d for %s: above the device's max_mtu %d", mtu, ifname, o.maxMTU)
		}
		spans = append(spans, o.mtu...)
	}
	if len(spans) == 0 {
		sort.Strings(names)
		return nil, source.Errorf(ipLinkFile, 1, "interface %q is not in the ip -j link output (interfaces: %s)", clip(ifname), clip(strings.Join(names, ", ")))
	}
	num := strconv.Itoa(mtu)
	out := make([]byte, 0, len(data)+len(spans)*len(num))
	prev := 0
	for _, s := range spans {
		out = append(out, data[prev:s[0]]...)
		out = append(out, num...)
		prev = s[1]
	}
	return append(out, data[prev:]...), nil
}

// linkObject is where an interface object keeps its mtu: byte spans of the
// "mtu" numbers, in file order.
type linkObject struct {
	name           string
	line           int
	mtu            [][2]int
	minMTU, maxMTU int // -1 when absent
}

// linkObjects walks a document ParseIPLink accepted, so only the shape
// matters here, not the errors.
func linkObjects(data []byte) ([]linkObject, error) {
	w := &jsonWalker{file: ipLinkFile, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	w.dec.UseNumber()
	if _, _, err := w.next(); err != nil { // '['
		return nil, err
	}
	var objs []linkObject
	for {
		tok, line, err := w.next()
		if err != nil {
			return nil, err
		}
		if tok != json.Delim('{') {
			return objs, nil // ']'
		}
		o := linkObject{line: line, minMTU: -1, maxMTU: -1}
		for {
			key, _, err := w.next()
			if err != nil {
				return nil, err
			}
			if key == json.Delim('}') {
				break
			}
			start := w.tokenStart()
			val, _, err := w.next()
			if err != nil {
				return nil, err
			}
			end := int(w.dec.InputOffset())
			switch key {
			case "ifname":
				o.name, _ = val.(string)
			case "mtu":
				o.mtu = append(o.mtu, [2]int{start, end})
			case "min_mtu", "max_mtu":
				n, _ := val.(json.Number)
				v, ok := atoiRange(string(n), 0, 1<<31-1)
				if !ok {
					v = -1
				}
				if key == "min_mtu" {
					o.minMTU = v
				} else {
					o.maxMTU = v
				}
			}
			if err := w.skip(val); err != nil {
				return nil, err
			}
		}
		objs = append(objs, o)
	}
}

// tokenStart is the offset where the next token begins: past the white
// space and the ',' and ':' separators the Decoder has not consumed yet.
func (w *jsonWalker) tokenStart() int {
	off := int(w.dec.InputOffset())
	for off < len(w.data) && strings.IndexByte(" \t\n\r,:", w.data[off]) >= 0 {
		off++
	}
	return off
}
