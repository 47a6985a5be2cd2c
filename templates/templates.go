// Package templates holds the text/template sources render/ executes to
// produce corrective commands and their rollback. They are embedded so the
// binary needs no files beside it.
package templates

import "embed"

// FS holds every template file.
//
//go:embed *.tmpl
var FS embed.FS

// Commands is the file defining one template per command kind.
const Commands = "commands.tmpl"
