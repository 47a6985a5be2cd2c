package k8s

import (
	"gopkg.in/yaml.v3"
)

// nicTemplate reads a NicConfigurationTemplate's spec (fields and JSON
// names of Mellanox/nic-configuration-operator
// api/v1alpha1/nicconfigurationtemplate_types.go).
func nicTemplate(file string, spec *yaml.Node, o Object) (*NicTemplate, error) {
	t := &NicTemplate{Object: o}
	sel, err := strMap(file, get(spec, "nodeSelector"), "spec.nodeSelector")
	if err != nil {
		return nil, err
	}
	t.NodeSelector = plain(sel)
	if t.NicType, err = str(file, get(spec, "nicSelector"), "nicType"); err != nil {
		return nil, err
	}
	reset, err := boolean(file, spec, "resetToDefault")
	if err != nil {
		return nil, err
	}
	t.ResetToDefault = reset != nil && *reset
	tmpl := get(spec, "template")
	if t.LinkType, err = str(file, tmpl, "linkType"); err != nil {
		return nil, err
	}
	if t.NumVfs, err = integer(file, tmpl, "numVfs"); err != nil {
		return nil, err
	}
	if k, sx := entry(tmpl, "spectrumXOptimized"); sx != nil {
		if t.SpectrumX, err = spectrumX(file, k, sx); err != nil {
			return nil, err
		}
	}
	rk, _ := entry(tmpl, "rawNvConfig")
	t.RawSet = rk != nil
	for _, it := range seq(get(tmpl, "rawNvConfig")) {
		n, err := str(file, it, "name")
		if err != nil {
			return nil, err
		}
		v, err := str(file, it, "value")
		if err != nil {
			return nil, err
		}
		t.RawNvConfig = append(t.RawNvConfig, NvParam{Name: n.V, Value: v.V, Pos: pos(file, it)})
	}
	k, ro := entry(tmpl, "roceOptimized")
	if ro == nil {
		return t, nil
	}
	r := &RoceOptimized{Pos: pos(file, k)}
	en, err := boolean(file, ro, "enabled")
	if err != nil {
		return nil, err
	}
	r.Enabled = en != nil && *en
	if r.RoceMode, err = integer(file, ro, "roceMode"); err != nil {
		return nil, err
	}
	if qk, q := entry(ro, "qos"); q != nil {
		if r.QoS, err = qos(file, q); err != nil {
			return nil, err
		}
		r.QoS.Pos = pos(file, qk)
	}
	t.RoCE = r
	return t, nil
}

func qos(file string, q *yaml.Node) (*QoS, error) {
	out := &QoS{}
	var err error
	if out.Trust, err = str(file, q, "trust"); err != nil {
		return nil, err
	}
	if out.PFC, err = str(file, q, "pfc"); err != nil {
		return nil, err
	}
	if out.ToS, err = integer(file, q, "tos"); err != nil {
		return nil, err
	}
	ecn := get(q, "ecn")
	if out.ECNEnabled, err = boolean(file, ecn, "enabled"); err != nil {
		return nil, err
	}
	if out.ECNPriority, err = integer(file, ecn, "priority"); err != nil {
		return nil, err
	}
	return out, nil
}

func configMap(file string, root *yaml.Node, o Object) (*ConfigMap, error) {
	data, err := strMap(file, get(root, "data"), "data")
	if err != nil {
		return nil, err
	}
	labels, err := strMap(file, get(get(root, "metadata"), "labels"), "metadata.labels")
	if err != nil {
		return nil, err
	}
	c := &ConfigMap{Object: o, Data: data, Labels: plain(labels)}
	if _, ok := c.Labels[ProfileLabel]; ok {
		if k, v := entry(get(root, "data"), ProfileKey); v != nil {
			c.Profile, c.ProfileErr = profile(file, k, v)
		}
	}
	return c, nil
}
