package offline

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// maxDiffShown bounds the differences an error lists.
const maxDiffShown = 3

// agreeWithCommands checks the command form of a switch's configuration
// against its YAML form when both were saved. The YAML is the one read;
// when the two describe different configurations (a stale file beside a
// fresh one), which the switch runs is unknown, so it is an input error
// naming both files, never a silent choice. The comparison is of the
// trees as written (nvue.TreeDiff): the same ports grouped into a
// different range count as a difference, since NVUE prints both forms
// from one revision with one grouping.
func (r *reader) agreeWithCommands(name string, yamlCfg *nvue.Config) {
	cmdFile := r.devicePath(name, layout.NVUECommandsFile)
	data, ok := r.read(cmdFile)
	if !ok {
		return
	}
	cmdCfg, errs, _ := nvue.ParseCommands(cmdFile, data)
	if len(errs) > 0 {
		// Unreadable lines leave the comparison unsure: each is an error
		// at its line, as when the command form is the only one. Its notes
		// (comments, a copied prompt) are left out: the YAML is read.
		for _, e := range errs {
			r.failErr(cmdFile, e)
		}
		return
	}
	onlyYAML, onlyCmds := nvue.TreeDiff(yamlCfg.Root, cmdCfg.Root)
	if len(onlyYAML)+len(onlyCmds) == 0 {
		return
	}
	var diff []string
	if len(onlyYAML) > 0 {
		diff = append(diff, "only in "+layout.NVUEYAMLFile+": "+shortList(onlyYAML))
	}
	if len(onlyCmds) > 0 {
		diff = append(diff, "only in "+layout.NVUECommandsFile+": "+shortList(onlyCmds))
	}
	r.fail(source.Pos{File: layout.DeviceDir(name)},
		"%s and %s describe different configurations (%s): keep only the one the switch runs",
		layout.NVUEYAMLFile, layout.NVUECommandsFile, strings.Join(diff, "; "))
}

func shortList(s []string) string {
	if len(s) <= maxDiffShown {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:maxDiffShown], ", ") + fmt.Sprintf(" and %d more", len(s)-maxDiffShown)
}
