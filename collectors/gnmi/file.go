package gnmi

import (
	"bytes"
	"encoding/json"
	"sort"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/qoslint/qoslint/collectors/gnmifile"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// MarshalFile renders notifications as a gnmi-counters.json file (see the
// package comment). It does not modify ns.
func MarshalFile(ns []*gpb.Notification) ([]byte, error) {
	type item struct {
		key string
		js  []byte
	}
	items := make([]item, 0, len(ns))
	for _, n := range ns {
		n = proto.Clone(n).(*gpb.Notification)
		sort.SliceStable(n.Update, func(i, j int) bool {
			return PathString(nil, n.Update[i].GetPath()) < PathString(nil, n.Update[j].GetPath())
		})
		raw, err := protojson.MarshalOptions{UseProtoNames: false}.Marshal(n)
		if err != nil {
			return nil, err
		}
		// protojson randomises its whitespace per build; compact it away.
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil {
			return nil, err
		}
		var first *gpb.Path
		if len(n.Update) > 0 {
			first = n.Update[0].GetPath()
		}
		items = append(items, item{key: PathString(n.GetPrefix(), first), js: c.Bytes()})
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].key != items[j].key {
			return items[i].key < items[j].key
		}
		return bytes.Compare(items[i].js, items[j].js) < 0
	})
	// One notification per line: a line number names a notification, and
	// a diff of two collections shows which counters moved.
	var out bytes.Buffer
	out.WriteString("[")
	for i, it := range items {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString("\n  ")
		out.Write(it.js)
	}
	out.WriteString("\n]\n")
	return out.Bytes(), nil
}

// ReadFile decodes a gnmi-counters.json file into its notifications and
// the 1-based line each one starts on. Errors are *source.Error.
func ReadFile(file string, data []byte) ([]*gpb.Notification, []int, error) {
	raws, lines, err := gnmifile.SplitFile(file, data)
	if err != nil {
		return nil, nil, err
	}
	ns := make([]*gpb.Notification, len(raws))
	for i, raw := range raws {
		ns[i] = &gpb.Notification{}
		if err := protojson.Unmarshal(raw, ns[i]); err != nil {
			return nil, nil, gnmifile.NotificationError(file, lines[i], i, err)
		}
	}
	return ns, lines, nil
}
