package commands

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/examples"
)

// Shell completion (cobra's `completion` command writes the bash, zsh,
// fish and PowerShell scripts) completes values, not only flag names:
// every --format, --fail-on, --color, --role and --syntax value, check IDs
// and kinds, demo names, and the files and folders the commands read.
//
// No flag or argument takes a device name (waivers name devices inside
// their file), so nothing completes from the inventory.

// complete offers fixed values for a flag, and no file names.
func complete(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	})
}

// checkIDs are the checks explain knows, each with its title.
func checkIDs() []cobra.Completion {
	var out []cobra.Completion
	for _, c := range catalog() {
		out = append(out, cobra.CompletionWithDesc(c.ID, c.Title))
	}
	return out
}

// completeCheckArg completes explain's one CHECK-ID.
func completeCheckArg(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return checkIDs(), cobra.ShellCompDirectiveNoFileComp
}

// completeCheckList completes --enable and --disable: check IDs and kinds,
// comma-separated, so the part after the last comma is completed and the
// part before it kept.
func completeCheckList(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	prefix := ""
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		prefix = toComplete[:i+1]
	}
	var out []cobra.Completion
	for _, k := range checks.Kinds {
		out = append(out, cobra.CompletionWithDesc(prefix+string(k), "every "+string(k)+" check"))
	}
	for _, c := range checks.All() {
		out = append(out, cobra.CompletionWithDesc(prefix+c.ID, c.Title))
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completeDemo completes demo's shipped example.
func completeDemo(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return examples.Names(), cobra.ShellCompDirectiveNoFileComp
}

// completeDirs completes n fabric directories (or snapshot files, for
// drift, whose arguments may be either).
func completeDirs(n int, files bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		switch {
		case len(args) >= n:
			return nil, cobra.ShellCompDirectiveNoFileComp
		case files:
			return nil, cobra.ShellCompDirectiveDefault
		}
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
}

// inventoryFile marks a flag that takes an inventory file.
func inventoryFile(cmd *cobra.Command, flag string) {
	_ = cmd.MarkFlagFilename(flag, "yaml", "yml", "hcl")
}

// shellsOnly makes `completion SHELL` refuse a shell it has no script for
// (exit 2, naming the shells), where cobra's own completion command would
// print its help and exit 0, so that `qoslint completion tcsh > file`
// looks as if it worked.
func shellsOnly(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, s := range c.Commands() {
			shells = append(shells, s.Name())
		}
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("completion: no script for the shell %q: one of %s\n%s", args[0], strings.Join(shells, ", "), usageHint(cmd))
			}
			return nil
		}
		c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	}
}
