package commands

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/internal/buildinfo"
)

var versionFormats = []string{"text", "json"}

// versionText is `qoslint version` and `qoslint --version`: the module
// version, the commit and its time, the Go release and the platform.
func versionText(in buildinfo.Info) string {
	rev := in.Revision
	if in.Modified {
		rev += " (modified)"
	}
	return fmt.Sprintf("qoslint %s\nrevision: %s\ntime:     %s\ngo:       %s\nplatform: %s\n",
		in.Version, rev, in.Time, in.GoVersion, in.Platform)
}

func newVersionCmd(out, _ io.Writer) *cobra.Command {
	var format string
	var o output
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print qoslint's version, commit, Go release and platform",
		Long: `version prints what the binary knows of its build: the module version ("(devel)" for go run
and builds from a checkout without a tag), the VCS revision and its time ("unknown" when the build
recorded none), the Go release and the platform. The capture manifest records the same version.`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			in := buildinfo.Read()
			return o.run(out, func(w io.Writer) error {
				switch format {
				case "text":
					_, err := io.WriteString(w, versionText(in))
					return err
				case "json":
					data, err := json.MarshalIndent(in, "", "  ")
					if err != nil {
						return err
					}
					_, err = w.Write(append(data, '\n'))
					return err
				}
				return fmt.Errorf("--format %q: text or json", format)
			})
		},
	}
	addFormat(cmd, &format, "text", versionFormats, "output format")
	o.add(cmd)
	return cmd
}
