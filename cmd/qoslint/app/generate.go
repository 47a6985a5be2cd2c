package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/qoslint/qoslint/collectors/layout"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/render"
)

// GenerateOptions are `qoslint render`'s settings.
type GenerateOptions struct {
	Policy    string // an inventory file; its policy is used
	Role      string // leaf, spine, super-spine, border or host
	Syntax    string // "5.15" (state enabled) or "5.14" (enable on)
	Ports     string // switch fabric ports, NVUE range
	NICs      []string
	Templates string
}

// Generate prints the complete configuration of a new device of a role.
func Generate(out, errOut io.Writer, opt GenerateOptions) int {
	inv, err := inventory.LoadFile(opt.Policy)
	if err != nil {
		printLoadError(errOut, err)
		return ExitInput
	}
	renderer, err := newRenderer(opt.Templates)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: templates: %v\n", err)
		return ExitInput
	}
	p := inv.Policy
	g := render.Generated{Fabric: inv.Fabric, Policy: filepath.Base(opt.Policy), Preset: p.Preset, Role: opt.Role}
	switch opt.Role {
	case "leaf", "spine", "super-spine", "border":
		syn := model.Syntax515
		switch opt.Syntax {
		case "5.14":
			syn = model.Syntax514
		case "5.15", "":
		default:
			fmt.Fprintf(errOut, "qoslint: --syntax %q: 5.14 or 5.15\n", opt.Syntax)
			return ExitInput
		}
		if _, err := model.ExpandNames(opt.Ports); opt.Ports != "" && err != nil {
			fmt.Fprintf(errOut, "qoslint: --ports %q: %v\n", opt.Ports, err)
			return ExitInput
		}
		fix, _ := renderer.Commands(render.SwitchChanges(p, syn, opt.Ports))
		yaml, err := startupYAML(fix)
		if err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return ExitInput
		}
		g.Syntax, g.Commands, g.YAML = syn.String(), fix, yaml
		return printConfig(out, errOut, renderer, renderer.Config("switch-config", g))
	case layout.KindHost:
		if len(opt.NICs) == 0 {
			fmt.Fprintln(errOut, "qoslint: --nics is required for a host: the RoCE netdevs to configure")
			return ExitInput
		}
		var nics []render.NIC
		for _, n := range opt.NICs {
			nics = append(nics, render.NIC{Netdev: n})
		}
		cs, err := render.HostChanges(p, nics)
		if err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return ExitInput
		}
		g.NICs = opt.NICs
		g.Commands, _ = renderer.Commands(cs)
		return printConfig(out, errOut, renderer, renderer.Config("host-config", g))
	default:
		fmt.Fprintf(errOut, "qoslint: --role %q: leaf, spine, super-spine, border or host\n", opt.Role)
		return ExitInput
	}
}

// printConfig prints a rendered configuration, or nothing when any template
// failed to execute on the way: half a script must not be handed out.
func printConfig(out, errOut io.Writer, r *render.Renderer, text string) int {
	if err := r.Err(); err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	fmt.Fprint(out, text)
	return ExitOK
}

// startupYAML is NVUE command lines as the startup.yaml they produce.
func startupYAML(lines []string) (string, error) {
	cfg := &nvue.Config{Root: &nvue.Node{}}
	if err := cfg.Apply("generated", []byte(strings.Join(lines, "\n")+"\n")); err != nil {
		return "", err
	}
	return string(nvue.FormatYAML(cfg)), nil
}

func newRenderer(dir string) (*render.Renderer, error) {
	if dir == "" {
		return render.NewRenderer(nil)
	}
	return render.NewRenderer(os.DirFS(dir))
}
