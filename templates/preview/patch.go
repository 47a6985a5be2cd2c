package preview

import (
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/render"
)

// NVUEPatch renders a switch plan as an NVUE YAML patch: a `- set:`
// document with what the fix sets and an `- unset:` document with what it
// removes, the shape `nv config diff` prints and `nv config patch` reads
// (CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md).
func NVUEPatch(p render.Plan) (string, error) {
	set := &nvue.Config{Root: &nvue.Node{}}
	unset := &nvue.Node{}
	var setLines []string
	for _, c := range p.Changes {
		switch c.Kind {
		case checks.NVUE:
			fix, _ := render.Commands([]checks.Change{c})
			setLines = append(setLines, fix[0])
		case checks.NVUEUnset:
			n := unset
			for _, k := range c.Path {
				child := n.Child(k)
				if child == nil {
					child = &nvue.Node{Key: k}
					n.Children = append(n.Children, child)
				}
				n = child
			}
		}
	}
	if err := set.Apply("patch", []byte(strings.Join(setLines, "\n")+"\n")); err != nil {
		return "", err
	}
	var b strings.Builder
	if len(set.Root.Children) > 0 {
		b.Write(nvue.FormatYAML(set))
	}
	if len(unset.Children) > 0 {
		u := string(nvue.FormatYAML(&nvue.Config{Root: unset}))
		b.WriteString("- unset:" + strings.TrimPrefix(u, "- set:"))
	}
	return b.String(), nil
}
