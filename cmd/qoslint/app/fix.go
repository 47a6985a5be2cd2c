package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/render"
	"github.com/qoslint/qoslint/templates/gcu"
	"github.com/qoslint/qoslint/templates/preview"
)

// FixOptions are `qoslint fix`'s settings.
type FixOptions struct {
	// Format is what goes to stdout: "script" (each device's fix script),
	// "rollback" (each device's rollback script) or "nvue" (the switches'
	// nv set/unset lines).
	Format string
	// Out, when set, receives every form per device: <dev>.sh,
	// <dev>.rollback.sh, and for Cumulus switches <dev>.nv and
	// <dev>.patch.yaml, for SONiC switches <dev>.patch.json.
	Out string
	// Templates is a folder whose *.tmpl files override the embedded ones.
	Templates string
	// Preview, when set, receives a copy of the fabric directory as it would
	// be after the fixes.
	Preview string
	FailOn  judge.Severity
	// Force replaces a non-empty Out whole instead of refusing it.
	Force bool
	// Checks select the checks whose findings are fixed.
	Checks CheckFlags
	// Waivers is the waiver file whose waived findings are left alone;
	// "" means DIR/qoslint-waivers.yaml when it exists.
	Waivers string
}

// FixFormats are the stdout forms of fix.
var FixFormats = []string{"script", "rollback", "nvue"}

// Fix prints or writes the corrective commands of every finding of dir.
func Fix(out, errOut io.Writer, dir string, opt FixOptions) int {
	dir = FabricDir(dir)
	if opt.Out != "" {
		if err := checkOutDir(opt.Out, opt.Force, dir); err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return ExitInput
		}
	}
	renderer, err := newRenderer(opt.Templates)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: templates: %v\n", err)
		return ExitInput
	}
	r, err := buildReport(dir, opt.Waivers, opt.FailOn, opt.Checks)
	if err != nil {
		printLoadError(errOut, err)
		return ExitInput
	}
	for _, e := range r.Errors {
		fmt.Fprintf(errOut, "qoslint: %s\n", e.Error())
	}
	for _, n := range r.Notes {
		if strings.HasPrefix(n, inventory.LimitNotePrefix) {
			fmt.Fprintf(errOut, "qoslint: %s\n", n)
		}
	}
	plans, err := renderer.Plans(r)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	if err := gcu.Fill(plans, gcu.FromDir(dir)); err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	for _, p := range plans {
		for _, n := range p.Notes {
			fmt.Fprintf(errOut, "qoslint: %s: %s\n", p.Device, n)
		}
	}
	var stdout strings.Builder
	switch opt.Format {
	case "script", "rollback":
		for _, p := range plans {
			fmt.Fprintf(&stdout, "# ==> %s <==\n%s\n", p.Device, renderer.Script(r.Fabric, p, opt.Format == "rollback"))
		}
	case "nvue":
		for _, p := range plans {
			switch {
			case p.NVUE():
				fmt.Fprintf(&stdout, "# ==> %s <==\n%s\n", p.Device, p.NVUECommands())
			case p.Patch != nil:
				// Every line a comment: the output stays an nv commands file.
				fmt.Fprintf(&stdout, "# ==> %s <==\n# a SONiC switch: its fix is a Generic Config Updater patch, not nv commands (qoslint fix -f script prints it; --out DIR writes %s.patch.json)\n\n", p.Device, p.Device)
			}
		}
	default:
		fmt.Fprintf(errOut, "qoslint: unknown fix format %q (one of %v)\n", opt.Format, FixFormats)
		return ExitInput
	}
	if err := renderer.Err(); err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	// With --out the scripts are in their files: standard output keeps
	// only the summary.
	if opt.Out == "" {
		fmt.Fprint(out, stdout.String())
	}
	if opt.Out != "" {
		err := writeDirAtomic(opt.Out, opt.Force, func(tmp string) error {
			return writePlans(renderer, r.Fabric, plans, tmp)
		}, dir)
		if err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return ExitInput
		}
		fmt.Fprintf(errOut, "qoslint: wrote the fixes of %d devices to %s\n", len(plans), opt.Out)
	}
	if opt.Preview != "" {
		if err := writePreview(dir, plans, opt.Preview); err != nil {
			fmt.Fprintf(errOut, "qoslint: preview: %v\n", err)
			return ExitInput
		}
		fmt.Fprintf(errOut, "qoslint: wrote the fabric as it would be after the fixes to %s (lint it: qoslint lint %s)\n", opt.Preview, opt.Preview)
	}
	fmt.Fprint(out, fixSummary(plans, render.UnfixedFindings(r), opt.Out))
	if len(r.Errors) > 0 {
		return ExitInput
	}
	return ExitOK
}

// fixSummary ends fix's output: how many devices have a fix and where it
// is, then what no command fixes, device by device. Every line is a shell
// comment, so the output stays a script and an nv commands file.
func fixSummary(plans []render.Plan, unfixed []render.Unfixed, outDir string) string {
	var b strings.Builder
	where := "above"
	if outDir != "" {
		where = "in " + outDir
	}
	fmt.Fprintf(&b, "# qoslint fix: %d device(s) with a fix (%s)\n", len(plans), where)
	if len(unfixed) == 0 {
		b.WriteString("# not fixed: none, every finding has its commands\n")
		return b.String()
	}
	// Info findings are best practice and notes: counted, not listed, so
	// the list stays the short one of what is wrong.
	var lines []string
	infos := 0
	for _, u := range unfixed {
		var cs []string
		for _, c := range u.Checks {
			switch {
			case c.Severity < judge.Warning:
				infos += c.Count
			case c.Count > 1:
				cs = append(cs, fmt.Sprintf("%s (%s, %d findings)", c.Check, c.Severity, c.Count))
			default:
				cs = append(cs, fmt.Sprintf("%s (%s)", c.Check, c.Severity))
			}
		}
		if len(cs) > 0 {
			lines = append(lines, fmt.Sprintf("#   %s: %s\n", u.Device, strings.Join(cs, ", ")))
		}
	}
	if len(lines) > 0 {
		b.WriteString("# not fixed, no command fixes these findings (qoslint explain CHECK says what to do):\n")
		b.WriteString(strings.Join(lines, ""))
	}
	if len(lines) == 0 {
		b.WriteString("# not fixed: no error or warning\n")
	}
	if infos > 0 {
		fmt.Fprintf(&b, "# and %d info finding(s) without a command (qoslint lint lists them)\n", infos)
	}
	return b.String()
}

func writePlans(renderer *render.Renderer, fabric string, plans []render.Plan, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	write := func(name, content string, mode os.FileMode) error {
		// A manifest that no host is mapped to is its own device,
		// kind/namespace/name: one file name, not a path.
		return os.WriteFile(filepath.Join(dir, strings.ReplaceAll(name, "/", "_")), []byte(content), mode)
	}
	for _, p := range plans {
		fix, rollback := renderer.Script(fabric, p, false), renderer.Script(fabric, p, true)
		if err := renderer.Err(); err != nil {
			return err
		}
		if err := write(p.Device+".sh", fix, 0o755); err != nil {
			return err
		}
		if err := write(p.Device+".rollback.sh", rollback, 0o755); err != nil {
			return err
		}
		if p.Patch != nil {
			if err := write(p.Device+".patch.json", string(p.Patch), 0o644); err != nil {
				return err
			}
		}
		if !p.NVUE() {
			continue
		}
		if err := write(p.Device+".nv", p.NVUECommands(), 0o644); err != nil {
			return err
		}
		patch, err := nvuePatch(p)
		if err != nil {
			return fmt.Errorf("%s: %v", p.Device, err)
		}
		if err := write(p.Device+".patch.yaml", patch, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writePreview writes the fabric as it would be after the plans.
func writePreview(src string, plans []render.Plan, out string) error {
	return preview.Write(src, plans, out)
}

// nvuePatch is a switch plan as an NVUE YAML patch (`- set:` and `- unset:`
// documents) for `nv config patch`.
func nvuePatch(p render.Plan) (string, error) {
	return preview.NVUEPatch(p)
}
