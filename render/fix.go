package render

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/names"
)

// Plan is the remediation of one device: the changes of all its findings,
// deduplicated, rendered as one fix and one rollback.
type Plan struct {
	Device, Kind string
	// Release is the device's Cumulus Linux release: Changes, Fix and
	// Rollback hold only the NVUE commands it has (CommandsFor).
	Release Release
	// Checks are the checks whose findings the plan fixes.
	Checks   []string
	Changes  []checks.Change
	Fix      []string
	Rollback []string
	// Notes say what was not printed for the release, and what about the
	// release could not be verified.
	Notes []string
	// OS is a switch's operating system (Device.OS). On a switch that is
	// not Cumulus, Changes are OS-neutral settings (checks.SwitchSetting)
	// and Fix says them as comments; the OS's fix renderer fills Patch.
	OS string
	// Patch is a SONiC switch's Generic Config Updater patch (RFC 6902
	// JSON, templates/gcu), which Script wraps in checkpoint, dry run and
	// apply.
	Patch []byte
}

// NVUE reports whether the plan is NVUE commands (a switch), even when
// its release has none of them and only their comment lines are left.
func (p Plan) NVUE() bool {
	for _, c := range p.Changes {
		if c.Kind == checks.NVUE || c.Kind == checks.NVUEUnset {
			return true
		}
	}
	for _, l := range p.Fix {
		if strings.HasPrefix(l, "# not printed: ") {
			return true
		}
	}
	return false
}

// unsafeToken is what no value may hold even quoted: control characters
// (a newline would end the command line) and a leading dash in a word that
// names a device, file or interface (it would become an option).
var unsafeToken = regexp.MustCompile(`[\x00-\x1f\x7f]`)

// The words of the firmware and PCI fixes: an mlxconfig parameter name, a
// PCI address as lspci prints it, a 16-bit register in hex. openSMKey and
// openSMValue are what an opensm.conf QoS fix may hold: the option names
// and the VL lists of linux-rdma/opensm osm_subnet.c.
var (
	mlxParamRe  = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,63}$`)
	pciAddrRe   = regexp.MustCompile(`^([0-9a-f]{4,8}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$`)
	hexWordRe   = regexp.MustCompile(`^[0-9a-f]{4}$`)
	openSMKey   = regexp.MustCompile(`^qos(_[a-z0-9]+)+$`)
	openSMValue = regexp.MustCompile(`^[0-9:,]+$|^TRUE$|^FALSE$`)
	// openSMEngines is routing_engine's value: engine names, comma
	// separated (opensm.8 -R: "minhop, updn, ..., torus-2QoS").
	openSMEngines = regexp.MustCompile(`^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*$`)
	// A kubectl resource (lower-case kind, dotted group) and an object name
	// or namespace (a DNS subdomain, kubernetes.io/docs/concepts/overview/
	// working-with-objects/names).
	k8sResource = regexp.MustCompile(`^[a-z0-9]+(\.[a-z0-9-]+)*$`)
	k8sName     = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$`)
)

// validate rejects a change whose values could not be passed to a shell or
// a device safely, whatever a template does with them.
func validate(device string, c checks.Change) error {
	fields := append([]string{c.Target, c.Flag, c.Value, c.Old, c.Flag2, c.Value2, c.Old2}, c.Path...)
	fields = append(fields, c.RollbackUnset...)
	for _, f := range fields {
		if unsafeToken.MatchString(f) {
			return fmt.Errorf("%s: refusing to render a command with a control character in %q", device, f)
		}
	}
	switch c.Kind {
	case checks.MlnxQos, checks.LinkMTU:
		if !names.Netdev(c.Target) {
			return fmt.Errorf("%s: interface name %q is not safe in a command", device, c.Target)
		}
	case checks.Mlxconfig:
		if !names.IBDev(c.Target) || len(c.Path) != 1 || !mlxParamRe.MatchString(c.Path[0]) {
			return fmt.Errorf("%s: mlxconfig device %q or parameter %q is not safe in a command", device, c.Target, c.Path)
		}
	case checks.SetPCI:
		if !pciAddrRe.MatchString(c.Target) || !hexWordRe.MatchString(c.Value) || !hexWordRe.MatchString(c.Old) {
			return fmt.Errorf("%s: PCI address %q or ACS word is not safe in a command", device, c.Target)
		}
	case checks.OpenSMConf:
		val := openSMValue
		if len(c.Path) == 1 && c.Path[0] == "routing_engine" {
			val = openSMEngines
		}
		if c.Target != layout.OpenSMConfPath || len(c.Path) != 1 || !(openSMKey.MatchString(c.Path[0]) || val == openSMEngines) || !val.MatchString(c.Value) || (c.HasOld && !val.MatchString(c.Old)) {
			return fmt.Errorf("%s: opensm.conf change %q %q is not safe in a command", device, c.Path, c.Value)
		}
	case checks.KubectlPatch:
		if !k8sResource.MatchString(c.Target) || len(c.Path) != 2 || !k8sName.MatchString(c.Path[0]) || !k8sName.MatchString(c.Path[1]) || !json.Valid([]byte(c.Value)) || !json.Valid([]byte(c.Old)) {
			return fmt.Errorf("%s: kubectl patch of %s %q is not safe in a command", device, c.Target, c.Path)
		}
		return nil
	case checks.Sysfs:
		if !strings.HasPrefix(c.Target, layout.SysRoot+"/") || strings.Contains(c.Target, "..") || strings.ContainsAny(c.Target, " '\"$`;&|<>\\") {
			return fmt.Errorf("%s: sysfs path %q is not safe in a command", device, c.Target)
		}
	}
	if c.Set != nil {
		for _, f := range append([]string{c.Set.Field}, c.Set.Ports...) {
			if unsafeToken.MatchString(f) {
				return fmt.Errorf("%s: refusing to render a setting with a control character in %q", device, f)
			}
		}
	}
	for _, p := range c.Path {
		if strings.HasPrefix(p, "-") {
			return fmt.Errorf("%s: NVUE path element %q would read as an option", device, p)
		}
	}
	// An interface name is quoted like any word, but one the offline
	// reader and the live audit refuse must not be fixed either.
	if (c.Kind == checks.NVUE || c.Kind == checks.NVUEUnset) && len(c.Path) > 1 && c.Path[0] == "interface" && !names.NVUEInterface(c.Path[1]) {
		return fmt.Errorf("%s: interface name %q is not safe in a command (%s)", device, c.Path[1], names.NVUERule)
	}
	return nil
}

// Plans groups a report's changes by device (devices in name order, changes
// in finding order, each change once).
func (r *Renderer) Plans(rep *Report) ([]Plan, error) {
	rep.Normalize()
	kinds := map[string]string{}
	releases := map[string]Release{}
	oses := map[string]string{}
	for _, d := range rep.Devices {
		kinds[d.Name], releases[d.Name], oses[d.Name] = d.Kind, d.Release, d.OS
	}
	byDevice := map[string]*Plan{}
	seen := map[string]bool{}
	var order []string
	for _, f := range rep.Findings {
		// A waived finding is accepted as it is: fixing it is not the plan.
		if len(f.Changes) == 0 || f.Waived {
			continue
		}
		for _, c := range f.Changes {
			dev := f.Device
			if c.Device != "" {
				dev = c.Device
			}
			p, ok := byDevice[dev]
			if !ok {
				p = &Plan{Device: dev, Kind: kinds[dev], Release: releases[dev], OS: oses[dev]}
				if p.Kind == "" && c.Kind == checks.KubectlPatch {
					p.Kind = "kubernetes" // a manifest, planned under kind/namespace/name
				}
				byDevice[dev] = p
				order = append(order, dev)
			}
			if !slices.Contains(p.Checks, f.Check) {
				p.Checks = append(p.Checks, f.Check)
			}
			if err := validate(dev, c); err != nil {
				return nil, err
			}
			key := fmt.Sprintf("%s|%d|%q|%q|%q|%q|%q|%q", dev, c.Kind, c.Target, c.Path, c.Flag, c.Value, c.Flag2, c.Value2)
			if c.Set != nil && c.Kind == checks.SwitchSetting {
				key += fmt.Sprintf("|%+v", *c.Set)
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			p.Changes = append(p.Changes, c)
		}
	}
	sort.Strings(order)
	out := make([]Plan, 0, len(order))
	for _, d := range order {
		p := byDevice[d]
		sort.Strings(p.Checks)
		var notes, release []string
		p.Changes, p.Fix, p.Rollback, notes, release = r.CommandsFor(p.Release, p.Changes)
		for i := len(release) - 1; i >= 0; i-- {
			p.Fix = append([]string{"# note: " + release[i]}, p.Fix...)
		}
		p.Notes = append(release, notes...)
		out = append(out, *p)
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

// Plans groups changes with the embedded templates.
func Plans(rep *Report) ([]Plan, error) { return defaultRenderer.Plans(rep) }

// Script renders a plan as a shell script; rollback selects the undo one.
func (r *Renderer) Script(fabric string, p Plan, rollback bool) string {
	cmds, other := p.Fix, p.Device+".rollback.sh"
	if rollback {
		cmds, other = p.Rollback, p.Device+".sh"
	}
	if p.OS == layout.OSSONiC {
		return r.exec("gcu-script", struct {
			Device, Fabric, Other string
			Checks, Settings      []string
			Notes                 []string
			Patch                 string
			Rollback              bool
		}{p.Device, fabric, other, p.Checks, p.Fix, p.Notes, string(p.Patch), rollback})
	}
	volatile, firmware := p.Lifetime()
	return r.exec("script", struct {
		Device, Kind, Fabric, Other string
		Checks, Commands            []string
		Rollback                    bool
		Volatile                    []string
		Firmware                    bool
	}{p.Device, p.Kind, fabric, other, p.Checks, cmds, rollback, volatile, firmware})
}

// Lifetime says how long a host plan's changes last. volatile are the
// tools whose changes end at the next reboot, in a fixed order:
//
//   - mlnx_qos: NVIDIA's NIC Configuration Operator applies trust, PFC and
//     ToS with it and says of them "Non-persistent (need to be applied
//     after each boot)" (Mellanox/nic-configuration-operator README.md,
//     roceOptimized).
//   - sysfs: "sysfs is a RAM-based filesystem initially based on ramfs"
//     (torvalds/linux Documentation/filesystems/sysfs.rst): a write is
//     kernel state, not a file on disk.
//   - ip link: "A setting applied with ip only rewrites the kernel's live
//     state directly, so it disappears on reboot"
//     (https://penguin-gym-linux.com/en/articles/lpic/network-configuration).
//   - setpci: the ACS Control write lasts until reboot (NCCL
//     troubleshooting guide, "PCI Access Control Services"; commands.tmpl).
//
// firmware is a plan with mlxconfig changes: they set the firmware's next
// boot configuration, and mlxconfig itself ends with "-I- Please reboot
// machine to load new configurations." (Mellanox/mstflint
// mlxconfig/mlxcfg_ui.cpp); NVIDIA's MFT documentation: "The mlxfwreset
// tool enables the user to load updated firmware on a NIC/switch without
// having to reboot the machine" (docs.nvidia.com/networking/display/mftv4330,
// mlxfwreset). nccl.conf, opensm.conf and kubectl changes are kept on disk
// or in the API server, and NVUE's nv config apply saves the startup
// configuration, so they are neither.
func (p Plan) Lifetime() (volatile []string, firmware bool) {
	has := map[checks.ChangeKind]bool{}
	for _, c := range p.Changes {
		has[c.Kind] = true
	}
	for _, k := range []struct {
		kind checks.ChangeKind
		name string
	}{{checks.MlnxQos, "mlnx_qos"}, {checks.Sysfs, "sysfs"}, {checks.LinkMTU, "ip link"}, {checks.SetPCI, "setpci"}} {
		if has[k.kind] {
			volatile = append(volatile, k.name)
		}
	}
	return volatile, has[checks.Mlxconfig]
}

// Unfixed is one device's findings that no plan fixes: findings without
// a change (a cable to move, counters that only show a symptom, ...).
type Unfixed struct {
	Device string
	Checks []UnfixedCheck
}

// UnfixedCheck is one check's unfixed findings on a device: how many and
// the most severe.
type UnfixedCheck struct {
	Check    string
	Severity judge.Severity
	Count    int
}

// UnfixedFindings are the report's findings that are neither waived nor
// fixed by a change, by device in name order, checks in name order.
func UnfixedFindings(rep *Report) []Unfixed {
	byDevice := map[string]map[string]*UnfixedCheck{}
	for _, f := range rep.Findings {
		if f.Waived || len(f.Changes) > 0 {
			continue
		}
		dev := f.Device
		if dev == "" {
			dev = "(fabric)"
		}
		if byDevice[dev] == nil {
			byDevice[dev] = map[string]*UnfixedCheck{}
		}
		c := byDevice[dev][f.Check]
		if c == nil {
			c = &UnfixedCheck{Check: f.Check, Severity: f.Severity}
			byDevice[dev][f.Check] = c
		}
		c.Count++
		if f.Severity > c.Severity {
			c.Severity = f.Severity
		}
	}
	var out []Unfixed
	for dev, cs := range byDevice {
		u := Unfixed{Device: dev}
		for _, c := range cs {
			u.Checks = append(u.Checks, *c)
		}
		sort.Slice(u.Checks, func(i, j int) bool { return u.Checks[i].Check < u.Checks[j].Check })
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Device < out[j].Device })
	return out
}

// NVUECommands is a switch plan's fix as a plain `nv set`/`nv unset` file,
// the form `nv config patch` also accepts (CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md):
// no apply line.
func (p Plan) NVUECommands() string {
	var b strings.Builder
	for _, l := range p.Fix {
		// The gate's comment lines stay: the file says what it leaves out.
		if strings.HasPrefix(l, "nv set ") || strings.HasPrefix(l, "nv unset ") || strings.HasPrefix(l, "# ") {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Generated is the data of the templates of generate.tmpl.
type Generated struct {
	Fabric, Policy, Preset, Role, Release, Syntax string
	NICs, Commands                                []string
	// Notes are the comment lines of Commands (what the release has no
	// command for), for the forms that print no command lines.
	Notes []string
	YAML  string
}

// Config renders a new device's configuration with one template of
// generate.tmpl ("switch-commands", "host-config", ...).
func (r *Renderer) Config(template string, g Generated) string { return r.exec(template, g) }
