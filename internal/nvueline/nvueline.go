// Package nvueline reads a printed `nv set`/`nv unset` line back to the
// command of model.NVUECommands it is, and says whether the release it was
// printed for has that command and value. Only tests import it: they hold
// every command render and the fixes print to the table.
package nvueline

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/model"
)

// Command is a printed NVUE command: a line that starts `nv set ` or `nv
// unset `; comments, `nv config apply` and other tools' lines are not.
func Command(line string) bool {
	return strings.HasPrefix(line, "nv set ") || strings.HasPrefix(line, "nv unset ")
}

// Check reads line as an NVUE command printed for release r. An error says
// what is wrong: a quoted word (no command qoslint prints needs one), a
// path the table does not know, or a command or value r lacks.
func Check(r model.CLRelease, line string) error {
	ws := strings.Fields(line)
	if len(ws) < 3 || ws[0] != "nv" || ws[1] != "set" && ws[1] != "unset" {
		return fmt.Errorf("%q is not an nv set/unset command", line)
	}
	for _, w := range ws {
		if strings.ContainsAny(w, `'"\`) {
			return fmt.Errorf("%q: quoted word %s", line, w)
		}
	}
	cmd, value, ok := model.LookupNVUE(ws[1] == "unset", ws[2:])
	if !ok {
		return fmt.Errorf("%q: its command path is not in model.NVUECommands", line)
	}
	if !cmd.In(r) {
		return fmt.Errorf("%q: Cumulus Linux %s has no `%s` (%s)", line, r, cmd.Path, cmd.Span)
	}
	if value == "" {
		return nil
	}
	w, ok := cmd.Word(value)
	if !ok || !w.In(r) {
		return fmt.Errorf("%q: Cumulus Linux %s does not take `%s` for `%s`", line, r, value, cmd.Path)
	}
	return nil
}
