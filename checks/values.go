package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// at picks the origin's position, else the fallback (the file whose
// defaults applied).
func at(o model.Origin, fallback string) source.Pos {
	if !o.Pos().IsZero() {
		return o.Pos()
	}
	return source.Pos{File: fallback}
}

// old returns the explicit value a change replaces, if any.
func old[T any](v model.Value[T]) (string, bool) {
	if !v.Known || v.Origin.IsDefault() {
		return "", false
	}
	return fmt.Sprint(v.V), true
}

// why describes a value with its origin: "0 (devices/leaf01/nv-config.yaml:12)"
// or "0 (qos roce lossless default)".
func why[T any](v model.Value[T]) string {
	if o := v.Origin.String(); o != "" {
		return fmt.Sprintf("%v (%s)", v.V, o)
	}
	return fmt.Sprint(v.V)
}

// pfcList is the mlnx_qos --pfc form of a set of priorities.
func pfcList(on map[int]bool) string {
	var b strings.Builder
	for p := 0; p < 8; p++ {
		if p > 0 {
			b.WriteByte(',')
		}
		if on[p] {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// valueGroup is ports that share one value from one origin, so a finding
// can name them together and its fix can change them together.
type valueGroup[T any] struct {
	v     model.Value[T]
	ports []string
}

// groupByValue groups ports by value and origin, in port order; keep
// drops the ports that need no finding.
func groupByValue[T any](ports []string, value func(p string) model.Value[T], keep func(model.Value[T]) bool) []*valueGroup[T] {
	var groups []*valueGroup[T]
	idx := map[string]*valueGroup[T]{}
	for _, p := range ports {
		v := value(p)
		if !keep(v) {
			continue
		}
		key := fmt.Sprint(v.V, v.Origin.Pos(), v.Origin.Default())
		g, ok := idx[key]
		if !ok {
			g = &valueGroup[T]{v: v}
			idx[key] = g
			groups = append(groups, g)
		}
		g.ports = append(g.ports, p)
	}
	return groups
}
