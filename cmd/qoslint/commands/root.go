// Package commands wires qoslint's subcommands (cobra) to app/.
package commands

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/internal/buildinfo"
)

// exitError carries an exit code out of a cobra RunE.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// constructors is the explicit list of subcommands (no init() registration).
var constructors = []func(out, errOut io.Writer) *cobra.Command{
	newLintCmd, newFixCmd, newRenderCmd, newAuditCmd, newCollectCmd, newSimCmd, newDemoCmd, newExplainCmd, newToSCmd, newTraceCmd, newPcapCmd, newSnapshotCmd, newDriftCmd, newServeCmd,
	newVersionCmd,
}

// Execute runs qoslint with args and returns the process exit code.
func Execute(args []string, out, errOut io.Writer) int {
	root := newRoot(out, errOut)
	root.SetArgs(args)
	err := root.Execute()
	var ee exitError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case err != nil:
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return app.ExitInput
	}
	return app.ExitOK
}

// newRoot is the whole command tree, cobra's help and completion commands
// included, so that a test can walk every command the binary has.
func newRoot(out, errOut io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "qoslint",
		Short: "Lint RoCE QoS across NVIDIA Cumulus switches and ConnectX GPU hosts",
		Long: `qoslint checks that every device on a RoCE path agrees on the marking chain:
the ToS the hosts send, the NIC's DSCP trust, priority, PFC and ECN, and each switch's
DSCP map, PFC, ECN, queues, CNP handling and ECMP hashing.

Shell completion of commands, flags and their values: qoslint completion bash|zsh|fish|powershell
(see qoslint completion --help).

The reference (the fabric directory, the inventory, the policy, every check, the report formats,
live collection, ...) is in qoslint help TOPIC; qoslint help lists the topics.`,
		Version:       versionText(buildinfo.Read()),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("{{.Version}}")
	root.SetOut(out)
	root.SetErr(errOut)
	addColor(root)
	root.SetHelpCommand(newHelpCmd(out))
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return fmt.Errorf("%v\n%s", err, usageHint(cmd))
	})
	for _, c := range constructors {
		root.AddCommand(c(out, errOut))
	}
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	shellsOnly(root)
	return root
}
