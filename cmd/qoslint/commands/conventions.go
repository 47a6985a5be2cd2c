package commands

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/render"
)

// The conventions every command shares: the same flag means the same thing
// everywhere (-f/--format, -o/--output, --fail-on, --color), reports go to
// stdout or -o FILE, everything else to stderr.

// addFormat adds -f/--format with its values, which shell completion offers.
func addFormat(cmd *cobra.Command, p *string, def string, values []string, what string) {
	cmd.Flags().StringVarP(p, "format", "f", def, what+": "+strings.Join(values, "|"))
	complete(cmd, "format", values...)
}

// reportFormats is -f/--format of the commands that print a fabric's
// report (lint, audit, demo): repeatable as -f FORMAT[=PATH], so that one
// run writes every report CI wants.
type reportFormats struct{ values []string }

func (f *reportFormats) add(cmd *cobra.Command) {
	cmd.Flags().StringArrayVarP(&f.values, "format", "f", []string{"text"},
		"output format: "+strings.Join(render.FormatNames(), "|")+
			"; repeat as -f FORMAT=PATH to also write that report to PATH from the same run (at most one -f without =PATH: standard output, or -o FILE)")
	complete(cmd, "format", render.FormatNames()...)
}

// outputs are the reports to write, refused (a usage error) when two go
// to one place.
func (f *reportFormats) outputs(cmd *cobra.Command, o *output) ([]app.Output, error) {
	outs := make([]app.Output, 0, len(f.values))
	for _, v := range f.values {
		name, path, hasPath := strings.Cut(v, "=")
		if hasPath && path == "" {
			return nil, fmt.Errorf("-f %s: no file after =; -f FORMAT=PATH\n%s", v, usageHint(cmd))
		}
		outs = append(outs, app.Output{Format: name, Path: path})
	}
	file := ""
	if o.toFile() {
		file = o.path
	}
	if err := app.CheckOutputs(outs, file); err != nil {
		return nil, fmt.Errorf("%v\n%s", err, usageHint(cmd))
	}
	return outs, nil
}

// output is -o/--output: the report goes to FILE instead of stdout.
type output struct{ path string }

func (o *output) add(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&o.path, "output", "o", "", "write the report to FILE (replaced whole, atomically) instead of standard output")
	_ = cmd.MarkFlagFilename("output")
}

// toFile reports whether the report goes to a file.
func (o *output) toFile() bool { return o.path != "" && o.path != "-" }

// run calls print with the report's writer: out, or with -o a buffer that
// is written to FILE once print is done, whatever its exit code, as long
// as it printed something (a report with findings, exit 1, is the report
// CI wants; a refused flag, exit 2 with nothing printed, writes nothing).
func (o *output) run(out io.Writer, print func(w io.Writer) error) error {
	if !o.toFile() {
		return print(out)
	}
	var b bytes.Buffer
	err := print(&b)
	var ee exitError
	if err != nil && (!errors.As(err, &ee) || b.Len() == 0) {
		return err
	}
	if werr := app.WriteFileAtomic(o.path, b.Bytes()); werr != nil {
		return fmt.Errorf("-o %s: %v", o.path, werr)
	}
	return err
}

// failOn is --fail-on: a severity, or none for a report-only run.
type failOn struct{ value string }

var failOnValues = []string{"error", "warning", "info", "none"}

func (f *failOn) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.value, "fail-on", "error",
		"lowest severity that makes the exit code 1: error|warning|info, or none to report only (exit 0 whatever the findings; 2 and 3 still say the input or the audit was incomplete)")
	complete(cmd, "fail-on", failOnValues...)
}

// parse is the severity and whether the run only reports.
func (f *failOn) parse() (judge.Severity, bool, error) {
	if strings.EqualFold(f.value, "none") {
		return judge.Error, true, nil
	}
	sev, err := judge.ParseSeverity(f.value)
	if err != nil {
		return 0, false, fmt.Errorf("--fail-on: %v, or none", err)
	}
	return sev, false, nil
}

// Colour (https://no-color.org): --color always and never win; auto
// colours only a terminal, and not when NO_COLOR is set to anything
// or TERM is dumb. A pipe or a file never gets an escape.
var colorValues = []string{"auto", "always", "never"}

// addColor adds the global --color flag.
func addColor(root *cobra.Command) {
	root.PersistentFlags().String("color", "auto", "colour severities and verdicts: auto (a terminal, unless NO_COLOR is set), always, never")
	complete(root, "color", colorValues...)
}

// colorOn decides colour for a report written to w.
func colorOn(cmd *cobra.Command, w io.Writer, toFile bool) (bool, error) {
	mode := "auto"
	if f := cmd.Flags().Lookup("color"); f != nil {
		mode = f.Value.String()
	}
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
	default:
		return false, fmt.Errorf("--color %q: one of %s", mode, strings.Join(colorValues, ", "))
	}
	if toFile || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false, nil
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())), nil
}

// style is the app.Style of a report command: --fail-on none and colour.
func style(cmd *cobra.Command, out io.Writer, o *output, reportOnly bool) (app.Style, error) {
	c, err := colorOn(cmd, out, o.toFile())
	return app.Style{ReportOnly: reportOnly, Color: c}, err
}

// Arguments: cobra's own messages ("accepts 1 arg(s), received 0") name
// neither the argument nor the command; these say what is missing, with
// the usage line and where the help is.

func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return argsError(cmd, fmt.Sprintf("takes %s", what), args)
		}
		return nil
	}
}

func maxArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return argsError(cmd, fmt.Sprintf("takes at most %s", what), args)
		}
		return nil
	}
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return argsError(cmd, "takes no argument (its input comes from flags)", args)
	}
	return nil
}

func argsError(cmd *cobra.Command, want string, args []string) error {
	got := "none"
	if len(args) > 0 {
		got = fmt.Sprintf("%d (%s)", len(args), strings.Join(args, " "))
	}
	return fmt.Errorf("%s %s, got %s\n%s", cmd.CommandPath(), want, got, usageHint(cmd))
}

// usageHint is the usage line and where the help is.
func usageHint(cmd *cobra.Command) string {
	return fmt.Sprintf("usage: %s\nrun '%s --help' for the flags and examples", cmd.UseLine(), cmd.CommandPath())
}
