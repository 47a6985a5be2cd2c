package render

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/model"
)

// Release is the Cumulus Linux release a switch's NVUE commands are
// printed for. The zero Release is an unknown one.
type Release struct {
	CL model.CLRelease
	// Assumed, when set, says why CL was assumed rather than read from the
	// switch (a configuration without a version header).
	Assumed string
}

// SwitchRelease is the release of a modelled switch.
func SwitchRelease(sw *model.Switch) Release {
	r, assumed := sw.CommandRelease()
	return Release{CL: r, Assumed: assumed}
}

// gate keeps an NVUE change when its command exists in the release, as
// the table model.NVUECommands dates each command and value. It is the one
// gate of render and of every fix.
type gate struct {
	rel model.CLRelease
	// notes are what the release itself leaves unverified.
	notes []string
}

func newGate(r Release) gate {
	g := gate{rel: r.CL}
	switch {
	case r.CL.IsZero():
		g.rel = model.NewestCLRelease
		g.notes = append(g.notes, fmt.Sprintf("the Cumulus Linux release is not known: NVUE commands are checked as for %s, the newest release qoslint knows", model.NewestCLRelease))
	case r.Assumed != "":
		g.notes = append(g.notes, r.Assumed)
	}
	if model.NewestCLRelease.Before(g.rel) {
		g.notes = append(g.notes, fmt.Sprintf("not verified: Cumulus Linux %s is newer than the releases qoslint's NVUE command table covers (%s to %s): commands are checked as for %s",
			g.rel, model.OldestCLRelease, model.NewestCLRelease, model.NewestCLRelease))
		g.rel = model.NewestCLRelease
	}
	return g
}

// check says why change c cannot be printed for the release (drop), or,
// for a command the table does not know, that it is printed unverified
// (note). Other changes than NVUE ones pass.
func (g gate) check(c checks.Change) (drop, note string) {
	if c.Kind != checks.NVUE && c.Kind != checks.NVUEUnset {
		return "", ""
	}
	unset := c.Kind == checks.NVUEUnset
	verb := "nv set "
	ws := append([]string(nil), c.Path...)
	if unset {
		verb = "nv unset "
	} else if c.Value != "" {
		ws = append(ws, c.Value)
	}
	cmd, value, ok := model.LookupNVUE(unset, ws)
	if !ok {
		return "", "not verified: `" + verb + strings.Join(ws, " ") + "` is not in qoslint's table of NVUE commands by release"
	}
	at := "Cumulus Linux " + g.rel.String()
	if !cmd.In(g.rel) {
		why := fmt.Sprintf("%s has no `%s%s` (%s)", at, verb, cmd.Path, cmd.Span)
		if cmd.Renamed != "" && cmd.Until.Before(g.rel) {
			why = fmt.Sprintf("%s has no `%s%s` (%s; later releases say `%s`)", at, verb, cmd.Path, cmd.Span, cmd.Renamed)
		}
		return why, ""
	}
	if value == "" {
		return "", ""
	}
	w, known := cmd.Word(value)
	switch {
	case !known:
		return fmt.Sprintf("%s does not accept `%s` for `nv set %s` (it takes %s)", at, value, cmd.Path, wordList(cmd, g.rel)), ""
	case !w.In(g.rel) && !spelledOtherwise(cmd, value, g.rel):
		return fmt.Sprintf("%s cannot express `nv set %s %s` (%s)", at, cmd.Path, value, w.Span), ""
	case !w.In(g.rel):
		return fmt.Sprintf("%s does not spell `nv set %s %s` (%s; it takes %s)", at, cmd.Path, value, w.Span, wordList(cmd, g.rel)), ""
	}
	return "", ""
}

// spelledOtherwise reports whether release r says the boolean value with
// another word (on for enabled): then the setting exists, only its word
// differs.
func spelledOtherwise(cmd model.NVUECommand, value string, r model.CLRelease) bool {
	b, ok := model.ParseBool(value)
	if !ok {
		return false
	}
	for _, w := range cmd.Words {
		if v, known := model.ParseBool(w.Word); known && v == b && w.In(r) {
			return true
		}
	}
	return false
}

// wordList names the values release r accepts for the leaf.
func wordList(cmd model.NVUECommand, r model.CLRelease) string {
	var ws []string
	for _, w := range cmd.Words {
		if w.In(r) {
			ws = append(ws, w.Word)
		}
	}
	if len(ws) == 0 {
		return "no value"
	}
	return strings.Join(ws, ", ")
}

// CommandsFor renders changes for a switch of release rel: an NVUE change
// whose command or value rel lacks is not printed; a comment line in the
// fix stands where it would be, and notes says why. kept are the changes
// printed, which a patch or a preview must use. release are what the
// release itself leaves unverified (unknown, assumed or newer than the
// table) when cs holds an NVUE change, for the caller to report once.
func (r *Renderer) CommandsFor(rel Release, cs []checks.Change) (kept []checks.Change, fix, rollback, notes, release []string) {
	g := newGate(rel)
	fix, rollback, kept, notes = r.commands(cs, &g)
	for _, c := range cs {
		if c.Kind == checks.NVUE || c.Kind == checks.NVUEUnset {
			release = g.notes
			break
		}
	}
	return kept, fix, rollback, notes, release
}

// findingCommands is a finding's fix and rollback for a device of release
// rel, as every report format prints them.
func findingCommands(rel Release, f checks.Finding) (fix, rollback []string) {
	_, fix, rollback, _, _ = defaultRenderer.CommandsFor(rel, f.Changes)
	return fix, rollback
}
