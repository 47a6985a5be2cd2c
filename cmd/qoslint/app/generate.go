package app

import (
	"fmt"
	"github.com/qoslint/qoslint/collectors/fabric"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/names"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/render"
	"github.com/qoslint/qoslint/templates/preview"
)

// GenerateOptions are `qoslint render`'s settings.
type GenerateOptions struct {
	Policy string // an inventory file; its policy is used
	Role   string // leaf, spine, super-spine, border or host
	// Format is what to print, one thing at a time: switches "commands"
	// (the default), "script", "yaml" or "patch"; hosts "script" (the
	// default) or "commands".
	Format string
	// Syntax is the switch's Cumulus Linux release (5.0 to 5.x), which
	// decides its NVUE syntax; "" means 5.15.
	Syntax string
	Ports  string // switch fabric ports, NVUE range
	// OS is the switch's OS: "" or "cumulus" (NVUE), or "sonic", whose
	// configuration is printed as a config_db.json fragment ("json", the
	// default) or a JSON Patch for config apply-patch ("patch").
	OS string
	// Uplinks names the inventory switch whose cabling, in the policy
	// file's fabric directory, gives the ports of its ECMP group: they
	// get adaptive routing one by one when the policy wants it.
	Uplinks   string
	NICs      []string
	Templates string
}

// Render formats by kind of device, the first the default.
var (
	SwitchRenderFormats = []string{"commands", "script", "yaml", "patch"}
	HostRenderFormats   = []string{"script", "commands"}
	// RenderRoles are the roles render knows, switches first.
	RenderRoles = []string{"leaf", "spine", "super-spine", "border", layout.KindHost}
)

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
	g := render.Generated{Fabric: inv.Fabric, Policy: filepath.Base(opt.Policy), Preset: inv.Policy.Preset, Role: opt.Role}
	var text string
	switch {
	case opt.Role == layout.KindHost:
		text, err = generateHost(renderer, inv.Policy, g, opt)
	case slices.Contains(RenderRoles, opt.Role) && opt.OS == layout.OSSONiC:
		text, err = generateSONiC(errOut, inv.Policy, opt)
	case slices.Contains(RenderRoles, opt.Role) && (opt.OS == "" || opt.OS == layout.OSCumulus):
		text, err = generateSwitch(renderer, inv.Policy, g, opt)
	case slices.Contains(RenderRoles, opt.Role):
		err = fmt.Errorf("--os %q: %s or %s", opt.OS, layout.OSCumulus, layout.OSSONiC)
	default:
		err = fmt.Errorf("--role %q: one of %s", opt.Role, strings.Join(RenderRoles, ", "))
	}
	if err == nil {
		// Nothing is printed when any template failed on the way: half a
		// script must not be handed out.
		err = renderer.Err()
	}
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	fmt.Fprint(out, text)
	return ExitOK
}

// renderFormat is --format checked against the device's forms, the first
// form when it is not given.
func renderFormat(format, kind string, forms []string) (string, error) {
	if format == "" {
		return forms[0], nil
	}
	if !slices.Contains(forms, format) {
		return "", fmt.Errorf("--format %q: a %s is rendered as %s", format, kind, strings.Join(forms, ", "))
	}
	return format, nil
}

// generateSwitch renders a switch in the syntax of its release.
func generateSwitch(renderer *render.Renderer, p policy.Policy, g render.Generated, opt GenerateOptions) (string, error) {
	format, err := renderFormat(opt.Format, "switch", SwitchRenderFormats)
	if err != nil {
		return "", err
	}
	g.Release = opt.Syntax
	if g.Release == "" {
		g.Release = "5.15"
	}
	syn, err := model.SyntaxOfRelease(g.Release)
	if err != nil {
		return "", fmt.Errorf("--syntax %q: %v", opt.Syntax, err)
	}
	rel, _ := model.ParseCLRelease(g.Release)
	if err := checkPorts(opt.Ports); err != nil {
		return "", err
	}
	changes := render.SwitchChanges(p, rel, opt.Ports)
	if opt.Uplinks != "" {
		group, err := uplinkGroup(opt)
		if err != nil {
			return "", err
		}
		changes = append(changes, render.UplinkARChanges(p, rel, group)...)
	}
	// What the release has no command for is a comment line, not a command.
	kept, fix, _, _, release := renderer.CommandsFor(render.Release{CL: rel}, changes)
	for i := len(release) - 1; i >= 0; i-- {
		fix = append([]string{"# note: " + release[i]}, fix...)
	}
	g.Syntax, g.Commands, g.Notes = syn.String(), fix, comments(fix)
	switch format {
	case "patch":
		patch, err := preview.NVUEPatch(render.Plan{Kind: layout.KindSwitch, Changes: kept})
		return strings.Join(append(g.Notes, ""), "\n") + patch, err
	case "yaml":
		if g.YAML, err = startupYAML(fix); err != nil {
			return "", err
		}
	}
	return renderer.Config("switch-"+format, g), nil
}

// SONiCRenderFormats are a SONiC switch's forms, the first the default.
var SONiCRenderFormats = []string{"json", "patch"}

var sonicPort = regexp.MustCompile(`^Ethernet\d+$`)

// generateSONiC renders a SONiC switch's QoS tables; its notes go to
// errOut, since neither form has comments.
func generateSONiC(errOut io.Writer, p policy.Policy, opt GenerateOptions) (string, error) {
	format, err := renderFormat(opt.Format, "SONiC switch", SONiCRenderFormats)
	if err != nil {
		return "", err
	}
	if opt.Uplinks != "" || opt.Syntax != "" && opt.Syntax != "5.15" {
		return "", fmt.Errorf("--uplinks and --syntax are for Cumulus Linux switches; a SONiC switch has no adaptive routing setting or NVUE syntax")
	}
	var ports []string
	for _, port := range strings.Split(opt.Ports, ",") {
		if !sonicPort.MatchString(port) {
			return "", fmt.Errorf("--ports %q: a SONiC switch's ports are PORT names separated by commas (Ethernet0,Ethernet8)", opt.Ports)
		}
		ports = append(ports, port)
	}
	db := render.SONiCTables(p, ports)
	for _, n := range render.SONiCNotes {
		fmt.Fprintf(errOut, "qoslint: note: %s\n", n)
	}
	var out []byte
	if format == "patch" {
		out, err = db.Patch()
	} else {
		out, err = db.JSON()
	}
	return string(out), err
}

// uplinkGroup is the ECMP group of the inventory switch opt.Uplinks from
// the cabling in the policy file's fabric directory: its lldp.json, else
// topology.dot (model.CablingGroup). The switch need not have a
// configuration yet; only its cabling is read.
func uplinkGroup(opt GenerateOptions) ([]string, error) {
	inv, err := inventory.LoadFile(opt.Policy)
	if err != nil {
		return nil, err
	}
	var role string
	for _, s := range inv.Switches {
		if s.Name == opt.Uplinks {
			role = s.Role
		}
	}
	switch {
	case role == "":
		return nil, fmt.Errorf("--uplinks %q: no switch of that name in %s", opt.Uplinks, opt.Policy)
	case role != opt.Role:
		return nil, fmt.Errorf("--uplinks %q: it is a %s in %s, not a %s", opt.Uplinks, role, opt.Policy, opt.Role)
	}
	f := fabric.Build(inv, offline.Collect(filepath.Dir(opt.Policy), inv))
	g, from := model.CablingGroup(f, inv, opt.Uplinks)
	if len(g.Ports) == 0 {
		where := "neither " + layout.DeviceFile(opt.Uplinks, layout.LLDPFile) + " nor " + layout.TopologyFile + " was found"
		if from != "" {
			where = from + " cables it to no switch of the tier its ECMP group leads to"
		}
		return nil, fmt.Errorf("--uplinks %q: %s", opt.Uplinks, where)
	}
	return g.Ports, nil
}

// checkPorts holds --ports to what the offline reader and the live audit
// accept as an NVUE interface range, as --nics is held to netdev names.
func checkPorts(ports string) error {
	if ports == "" {
		return nil
	}
	if !names.NVUEInterface(ports) {
		return fmt.Errorf("--ports %q: %s", ports, names.NVUERule)
	}
	if _, err := model.ExpandNames(ports); err != nil {
		return fmt.Errorf("--ports %q: %v", ports, err)
	}
	return nil
}

// generateHost renders a GPU server's NICs.
func generateHost(renderer *render.Renderer, p policy.Policy, g render.Generated, opt GenerateOptions) (string, error) {
	format, err := renderFormat(opt.Format, "host", HostRenderFormats)
	if err != nil {
		return "", err
	}
	if len(opt.NICs) == 0 {
		return "", fmt.Errorf("--nics is required for a host: the RoCE netdevs to configure")
	}
	var nics []render.NIC
	for _, n := range opt.NICs {
		if !names.Netdev(n) {
			return "", fmt.Errorf("--nics %q: %s", n, names.NetdevRule)
		}
		nics = append(nics, render.NIC{Netdev: n})
	}
	cs, err := render.HostChanges(p, nics)
	if err != nil {
		return "", err
	}
	g.NICs = opt.NICs
	g.Commands, _ = renderer.Commands(cs)
	if format == "script" {
		return renderer.Config("host-config", g), nil
	}
	return renderer.Config("host-commands", g), nil
}

// comments are the comment lines of rendered commands: what the release
// cannot print, said in the forms without command lines.
func comments(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "# ") {
			out = append(out, l)
		}
	}
	return out
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
