package k8s

import (
	"fmt"

	"github.com/qoslint/qoslint/internal/source"
)

// Value is the effective value of a container's variable and where it was
// written: the env entry, or the ConfigMap key it came from.
type Value struct {
	V   string
	Pos source.Pos
	// Via names the source: "env", or "ConfigMap <name>".
	Via string
	// ConfigMap and Key name the ConfigMap entry the value came from;
	// Index is the env entry's index when it came from env (else -1).
	ConfigMap *ConfigMap
	Key       string
	Index     int
}

// ConfigMap finds a ConfigMap by namespace and name; nil when the
// manifests have none.
func (m *Manifests) ConfigMap(ns, name string) *ConfigMap {
	for _, c := range m.ConfigMaps {
		if c.Namespace == ns && c.Name == name {
			return c
		}
	}
	return nil
}

// Env is a container's environment as the kubelet builds it from the
// manifests: envFrom sources in order, a later one winning, then env
// entries, which beat every envFrom source, a later duplicate winning
// (k8s.io/api core/v1 types.go, Container.EnvFrom: "When a key exists in
// multiple sources, the value associated with the last source will take
// precedence. Values defined by an Env with a duplicate key will take
// precedence."). ConfigMaps are looked up in the workload's namespace.
// missing lists what could not be resolved (a ConfigMap or key the
// manifests lack, a secret or field reference); such a variable is absent
// from the result unless something else sets it.
func (m *Manifests) Env(ns string, c *Container) (env map[string]Value, missing []string) {
	env = map[string]Value{}
	for _, ef := range c.EnvFrom {
		cm := m.ConfigMap(ns, ef.ConfigMap)
		if cm == nil {
			missing = append(missing, fmt.Sprintf("envFrom ConfigMap %s/%s (%s) is not among the manifests", ns, ef.ConfigMap, ef.Pos))
			continue
		}
		for k, v := range cm.Data {
			env[ef.Prefix+k] = Value{V: v.V, Pos: v.Pos, Via: "ConfigMap " + cm.Name, ConfigMap: cm, Key: k, Index: -1}
		}
	}
	for i, e := range c.Env {
		switch {
		case e.Other:
			missing = append(missing, fmt.Sprintf("%s (%s) comes from a secret or field reference, which is not read", e.Name, e.Pos))
			delete(env, e.Name)
		case e.ConfigMap != "":
			cm := m.ConfigMap(ns, e.ConfigMap)
			v, ok := Str{}, false
			if cm != nil {
				v, ok = cm.Data[e.Key]
			}
			if !ok {
				missing = append(missing, fmt.Sprintf("%s (%s): key %q of ConfigMap %s/%s is not among the manifests", e.Name, e.Pos, e.Key, ns, e.ConfigMap))
				delete(env, e.Name)
				continue
			}
			env[e.Name] = Value{V: v.V, Pos: v.Pos, Via: "ConfigMap " + cm.Name, ConfigMap: cm, Key: e.Key, Index: -1}
		default:
			env[e.Name] = Value{V: e.Value, Pos: e.Pos, Via: "env", Index: i}
		}
	}
	return env, missing
}
