package k8s

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/qoslint/qoslint/internal/source"
)

// SpectrumX is spec.template.spectrumXOptimized (SpectrumXOptimizedSpec,
// Mellanox/nic-configuration-operator api/v1alpha1/nicconfigurationtemplate_types.go).
type SpectrumX struct {
	Pos     source.Pos
	Enabled bool
	// Version names the profile: "Version of the Spectrum-X architecture
	// to optimize for. Should match the name of the config map with
	// Spectrum-X profile" (from Network Operator 26.7; a built-in RA1.3 ...
	// RA2.2 before).
	Version Str
	// PlatformType, Overlay ("none" by default) and MultiplaneMode
	// ("none" by default) are written as the manifest has them.
	PlatformType, Overlay, MultiplaneMode Str
	// NumberOfPlanes defaults to 1.
	NumberOfPlanes Int
}

func spectrumX(file string, k, n *yaml.Node) (*SpectrumX, error) {
	s := &SpectrumX{Pos: pos(file, k)}
	en, err := boolean(file, n, "enabled")
	if err != nil {
		return nil, err
	}
	s.Enabled = en != nil && *en
	for _, f := range []struct {
		key string
		dst *Str
	}{{"version", &s.Version}, {"platformType", &s.PlatformType}, {"overlay", &s.Overlay}, {"multiplaneMode", &s.MultiplaneMode}} {
		if *f.dst, err = str(file, n, f.key); err != nil {
			return nil, err
		}
	}
	if s.NumberOfPlanes, err = integer(file, n, "numberOfPlanes"); err != nil {
		return nil, err
	}
	return s, nil
}

// The operator finds a profile by this label on a ConfigMap of any
// namespace and reads it from this data key; the ConfigMap's name is the
// version (pkg/consts/consts.go SpectrumXProfileLabel,
// SpectrumXProfileConfigMapDataKey: "The ConfigMap name is used as the
// Spectrum-X version key (template.spectrumXOptimized.version)").
const (
	ProfileLabel = "network.nvidia.com/operator.nic-configuration.spectrum-x-profile"
	ProfileKey   = "profile"
)

// Profile is the part of a Spectrum-X profile that marks RoCE: the
// operator's SpectrumXConfig (pkg/types/spectrumx.go), of which qoslint
// reads runtimeConfig.roce and the nvconfig of mlxConfig. Adaptive
// routing, congestion control and the inter-packet gap are not read.
type Profile struct {
	Pos source.Pos
	// Roce is runtimeConfig.roce, in order.
	Roce []ProfileParam
	// MlxConfig is mlxConfig: multiplane mode, then device ID ("1023").
	MlxConfig map[string]map[string]*ProfileDevice
}

// ProfileParam is one runtime parameter (ConfigurationParameter): the
// operator writes Value to DMSPath on the PFs that DeviceID, Breakout
// and Multiplane select (pkg/spectrumx/spectrumx.go filterParameters).
type ProfileParam struct {
	Name, Value, DMSPath, DeviceID, Multiplane string
	Breakout                                   int
	// MlxReg is true for a parameter set with mlxreg instead of DMS.
	MlxReg bool
	Pos    source.Pos
}

// ProfileDevice is one device's nvconfig: per number of planes
// (breakout), and after the breakout.
type ProfileDevice struct {
	Breakout     map[int]map[string]Str
	PostBreakout map[string]Str
}

// profile reads data.profile of a profile ConfigMap. The profile is YAML
// inside a YAML string: in a literal block (profile: |) its lines are the
// file's lines below the key, so every value keeps its own line; in any
// other style the values are placed on the key's line. It is read as the
// operator's yaml.Unmarshal into SpectrumXConfig would: a section of the
// wrong shape is an error, which the operator also refuses ("failed to
// parse spectrum-x profile").
func profile(file string, k, v *yaml.Node) (*Profile, error) {
	keyLine := k.Line
	line := func(inner int) int { return keyLine }
	if v.Style&yaml.LiteralStyle != 0 {
		line = func(inner int) int { return v.Line + inner }
	}
	var doc yaml.Node
	err := yaml.NewDecoder(strings.NewReader(v.Value)).Decode(&doc)
	if errors.Is(err, io.EOF) {
		return nil, source.Errorf(file, keyLine, "data.profile is empty: the operator loads no profile from it")
	}
	if err != nil {
		msg := err.Error()
		if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			return nil, source.Errorf(file, line(n), "data.profile: not YAML: %s", m[2])
		}
		return nil, source.Errorf(file, keyLine, "data.profile: not YAML: %s", strings.TrimPrefix(msg, "yaml: "))
	}
	relocate(&doc, line, map[*yaml.Node]bool{})
	root := resolve(&doc)
	if root != nil && root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = resolve(root.Content[0])
	}
	p := &Profile{Pos: pos(file, k)}
	if root == nil || isNull(root) {
		return p, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, source.Errorf(file, root.Line, "data.profile: a Spectrum-X profile must be a mapping (mlxConfig, runtimeConfig), not a %s", kindName(root))
	}
	rt := get(root, "runtimeConfig")
	if rt != nil && rt.Kind != yaml.MappingNode {
		return nil, source.Errorf(file, rt.Line, "runtimeConfig: want a mapping, not a %s", kindName(rt))
	}
	roce := get(rt, "roce")
	if roce != nil && roce.Kind != yaml.SequenceNode {
		return nil, source.Errorf(file, roce.Line, "runtimeConfig.roce: want a list, not a %s", kindName(roce))
	}
	for _, it := range seq(roce) {
		pp, err := profileParam(file, it)
		if err != nil {
			return nil, err
		}
		p.Roce = append(p.Roce, pp)
	}
	if p.MlxConfig, err = mlxConfig(file, get(root, "mlxConfig")); err != nil {
		return nil, err
	}
	return p, nil
}

// relocate moves every node of the profile to its line in the manifest.
func relocate(n *yaml.Node, line func(int) int, seen map[*yaml.Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	n.Line, n.Column = line(n.Line), 0
	for _, c := range n.Content {
		relocate(c, line, seen)
	}
}

func profileParam(file string, it *yaml.Node) (ProfileParam, error) {
	if it.Kind != yaml.MappingNode {
		return ProfileParam{}, source.Errorf(file, it.Line, "runtimeConfig.roce: an entry must be a mapping with name, value and dmsPath, not a %s", kindName(it))
	}
	pp := ProfileParam{Pos: pos(file, it)}
	for _, f := range []struct {
		key string
		dst *string
	}{{"name", &pp.Name}, {"value", &pp.Value}, {"dmsPath", &pp.DMSPath}, {"deviceId", &pp.DeviceID}, {"multiplane", &pp.Multiplane}} {
		s, err := str(file, it, f.key)
		if err != nil {
			return ProfileParam{}, err
		}
		*f.dst = s.V
	}
	b, err := integer(file, it, "breakout")
	if err != nil {
		return ProfileParam{}, err
	}
	pp.Breakout = b.V
	if _, v := entry(it, "mlxreg"); v != nil {
		pp.MlxReg = true
	}
	return pp, nil
}

func mlxConfig(file string, n *yaml.Node) (map[string]map[string]*ProfileDevice, error) {
	modes, mvals := pairs(n)
	if n != nil && n.Kind != yaml.MappingNode {
		return nil, source.Errorf(file, n.Line, "mlxConfig: want a mapping of multiplane modes, not a %s", kindName(n))
	}
	out := map[string]map[string]*ProfileDevice{}
	for i, m := range modes {
		devs, dvals := pairs(mvals[i])
		if mvals[i].Kind != yaml.MappingNode {
			return nil, source.Errorf(file, mvals[i].Line, "mlxConfig.%s: want a mapping of device IDs, not a %s", m.Value, kindName(mvals[i]))
		}
		out[m.Value] = map[string]*ProfileDevice{}
		for j, d := range devs {
			what := "mlxConfig." + m.Value + "." + d.Value
			if dvals[j].Kind != yaml.MappingNode {
				return nil, source.Errorf(file, dvals[j].Line, "%s: want a mapping with breakout and postBreakout, not a %s", what, kindName(dvals[j]))
			}
			pd := &ProfileDevice{Breakout: map[int]map[string]Str{}}
			post, err := strMap(file, get(dvals[j], "postBreakout"), what+".postBreakout")
			if err != nil {
				return nil, err
			}
			pd.PostBreakout = post
			bk, bv := pairs(get(dvals[j], "breakout"))
			for x, b := range bk {
				planes, err := strconv.Atoi(b.Value)
				if err != nil {
					return nil, source.Errorf(file, b.Line, "%s.breakout: %q is not a number of planes", what, b.Value)
				}
				if pd.Breakout[planes], err = strMap(file, bv[x], what+".breakout."+b.Value); err != nil {
					return nil, err
				}
			}
			out[m.Value][d.Value] = pd
		}
	}
	return out, nil
}
