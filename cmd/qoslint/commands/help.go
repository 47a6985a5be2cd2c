package commands

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/cmd/qoslint/help"
)

// newHelpCmd replaces cobra's help command so that `qoslint help TOPIC`
// prints a reference topic (cmd/qoslint/help), as `go help` does, while
// `qoslint help COMMAND` still prints the command's help. A name that is
// both (serve, pcap, trace; fix and render, aliases of remediation) gets
// the command's help, then the topic: the flags first, the reference after.
func newHelpCmd(out io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND | TOPIC]",
		Short: "Help about any command, or a reference topic (qoslint help lists the topics)",
		Long: `help prints the help of a command, or a reference topic: the fabric directory, the inventory,
the policy, the checks, the report formats, live collection and the rest (the list below).
Topics are markdown, the same files as cmd/qoslint/help/*.md in the source.`,
		Args: maxArgs(2, "a COMMAND (and its subcommand) or one TOPIC"),
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, sub := range c.Root().Commands() {
				if sub.IsAvailableCommand() && sub.Name() != "help" {
					names = append(names, sub.Name()+"\t"+sub.Short)
				}
			}
			for _, t := range help.Topics() {
				names = append(names, t.Name+"\t"+t.Short)
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			if len(args) == 0 {
				if err := root.Help(); err != nil {
					return err
				}
				_, err := io.WriteString(out, topicList())
				return err
			}
			text, _, isTopic := help.Lookup(args[0])
			isTopic = isTopic && len(args) == 1
			cmd, rest, err := root.Find(args)
			isCmd := err == nil && cmd != root && len(rest) == 0
			if !isCmd && !isTopic {
				return fmt.Errorf("unknown help topic %q; qoslint help lists the commands and topics", strings.Join(args, " "))
			}
			if isCmd {
				cmd.InitDefaultHelpFlag()
				cmd.InitDefaultVersionFlag()
				if err := cmd.Help(); err != nil {
					return err
				}
				if !isTopic {
					return nil
				}
				if _, err := io.WriteString(out, "\n"); err != nil {
					return err
				}
			}
			_, err = io.WriteString(out, text)
			return err
		},
	}
}

// topicList is what `qoslint help` adds below the commands.
func topicList() string {
	var b strings.Builder
	b.WriteString("\nHelp topics (qoslint help TOPIC):\n")
	width := 0
	for _, t := range help.Topics() {
		width = max(width, len(t.Name))
	}
	for _, t := range help.Topics() {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, t.Name, t.Short)
	}
	return b.String()
}
