package k8s

import (
	"gopkg.in/yaml.v3"

	"github.com/qoslint/qoslint/internal/source"
)

// NicTemplateCRDName is the CustomResourceDefinition of
// NicConfigurationTemplate (config/crd/bases/configuration.net.nvidia.com_nicconfigurationtemplates.yaml
// of Mellanox/nic-configuration-operator, also in its Helm chart's crds/).
const NicTemplateCRDName = "nicconfigurationtemplates.configuration.net.nvidia.com"

// NicTemplateCRD is what that CRD says of the installed API. The
// operator kept apiVersion configuration.net.nvidia.com/v1alpha1 while
// it added and removed fields (tos, rawNvConfig, spectrumXOptimized,
// roceMode), so its schema, not the manifests' apiVersion, tells which
// fields the cluster takes.
type NicTemplateCRD struct {
	Object
	// Fields are the schema's properties below spec, as dotted paths
	// ("template.roceOptimized.qos.tos"), with where each is declared;
	// nil when the CRD carries no v1alpha1 openAPIV3Schema.
	Fields map[string]source.Pos
	// ProfileEnum is the enum of template.spectrumXOptimized.version
	// (RA1.3, RA2.0, ... up to Network Operator 26.4); nil when the field
	// takes any name (26.7 on: the name of a profile ConfigMap).
	ProfileEnum []string
}

// nicTemplateCRD reads spec.versions[name=v1alpha1].schema.openAPIV3Schema
// (apiextensions.k8s.io/v1).
func nicTemplateCRD(file string, root *yaml.Node, o Object) (*NicTemplateCRD, error) {
	c := &NicTemplateCRD{Object: o}
	vs := get(get(root, "spec"), "versions")
	if vs != nil && vs.Kind != yaml.SequenceNode {
		return nil, source.Errorf(file, vs.Line, "spec.versions: want a list, not a %s", kindName(vs))
	}
	for _, v := range seq(vs) {
		name, err := str(file, v, "name")
		if err != nil {
			return nil, err
		}
		if name.V != "v1alpha1" {
			continue
		}
		props := get(get(get(get(get(v, "schema"), "openAPIV3Schema"), "properties"), "spec"), "properties")
		if props == nil {
			continue
		}
		c.Fields = map[string]source.Pos{}
		if err := schemaFields(file, props, "", c.Fields); err != nil {
			return nil, err
		}
		ver := get(get(get(get(get(props, "template"), "properties"), "spectrumXOptimized"), "properties"), "version")
		if en := get(ver, "enum"); en != nil {
			if en.Kind != yaml.SequenceNode {
				return nil, source.Errorf(file, en.Line, "enum: want a list, not a %s", kindName(en))
			}
			c.ProfileEnum = []string{}
			for _, e := range seq(en) {
				c.ProfileEnum = append(c.ProfileEnum, e.Value)
			}
		}
	}
	return c, nil
}

// schemaFields collects the property paths of an OpenAPI properties
// mapping, into objects (properties) and list items (items.properties).
func schemaFields(file string, props *yaml.Node, prefix string, out map[string]source.Pos) error {
	if props.Kind != yaml.MappingNode {
		return source.Errorf(file, props.Line, "properties: want a mapping, not a %s", kindName(props))
	}
	keys, vals := pairs(props)
	for i, k := range keys {
		path := prefix + k.Value
		out[path] = pos(file, k)
		if sub := get(vals[i], "properties"); sub != nil {
			if err := schemaFields(file, sub, path+".", out); err != nil {
				return err
			}
		}
		if sub := get(get(vals[i], "items"), "properties"); sub != nil {
			if err := schemaFields(file, sub, path+".", out); err != nil {
				return err
			}
		}
	}
	return nil
}
