package snapshot

import (
	"bytes"
	"encoding/json"

	"github.com/qoslint/qoslint/model"
)

// factJSON is a Fact on the wire: "value" is absent when the fact is not
// known, which a consumer cannot mistake for a zero value.
type factJSON[T any] struct {
	Value  *T     `json:"value,omitempty"`
	Origin string `json:"origin,omitempty"`
}

// MarshalJSON writes {"value": V, "origin": O}, without "value" when the
// fact is not known and without "origin" when there is no evidence.
func (f Fact[T]) MarshalJSON() ([]byte, error) {
	out := factJSON[T]{Origin: f.Origin}
	if f.Known {
		v := f.Value
		out.Value = &v
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Fact[T]) UnmarshalJSON(data []byte) error {
	var in struct {
		Value  json.RawMessage `json:"value"`
		Origin string          `json:"origin"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	*f = Fact[T]{Origin: in.Origin}
	if len(in.Value) == 0 || bytes.Equal(in.Value, []byte("null")) {
		return nil
	}
	f.Known = true
	return json.Unmarshal(in.Value, &f.Value)
}

// fact freezes a model value.
func fact[T any](v model.Value[T]) Fact[T] {
	f := Fact[T]{Origin: v.Origin.String(), Known: v.Known}
	if v.Known {
		f.Value = v.V
	}
	return f
}

// known builds a known fact.
func known[T any](v T, origin string) Fact[T] { return Fact[T]{Value: v, Known: true, Origin: origin} }

// Entries reads every DSCP of a map with its origin.
func (m DSCPMap) Entries() [64]Fact[int] {
	var out [64]Fact[int]
	for d := range out {
		if d < len(m.Map) && m.Map[d] != nil {
			out[d] = known(*m.Map[d], "")
		}
	}
	for _, o := range m.Origins {
		ds, err := model.ExpandInts(o.DSCP, 0, 63)
		if err != nil {
			continue
		}
		for _, d := range ds {
			out[d].Origin = o.Origin
		}
	}
	return out
}
