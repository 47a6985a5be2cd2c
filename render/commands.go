// Package render turns findings into what people and tools read: the
// corrective commands and their rollback (from templates/), and one
// formatter per output format (text, json), each with golden tests.
package render

import (
	"fmt"
	"regexp"
	"strings"
	"text/template"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/templates"
)

var commandTmpl = template.Must(template.New(templates.Commands).
	Funcs(template.FuncMap{"sq": shellQuote, "words": words}).
	ParseFS(templates.FS, templates.Commands))

// safeWord is what a shell passes through unchanged.
var safeWord = regexp.MustCompile(`^[A-Za-z0-9_./:,=+@%-]+$`)

// shellQuote quotes s for a POSIX shell unless it is a plain word, so that a
// value from a device file can never inject a command.
func shellQuote(s string) string {
	if safeWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func words(path []string) string {
	q := make([]string, len(path))
	for i, p := range path {
		q[i] = shellQuote(p)
	}
	return strings.Join(q, " ")
}

type cmdData struct {
	Path                     []string
	Value, Target, Flag, Key string
}

func exec(name string, d cmdData) string {
	var b strings.Builder
	if err := commandTmpl.ExecuteTemplate(&b, name, d); err != nil {
		// The templates are embedded and tested; a failure is a bug.
		panic(fmt.Sprintf("template %s: %v", name, err))
	}
	return b.String()
}

// Commands renders a finding's changes: the fix in order, and the rollback
// that undoes them in reverse order. NVUE changes end with one
// `nv config apply`.
func Commands(cs []checks.Change) (fix, rollback []string) {
	nvue := false
	for _, c := range cs {
		f, r := change(c)
		fix = append(fix, f)
		if r != "" {
			rollback = append([]string{r}, rollback...)
		}
		nvue = nvue || c.Kind == checks.NVUE || c.Kind == checks.NVUEUnset
	}
	if nvue {
		apply := exec("nvue-apply", cmdData{})
		fix = append(fix, apply)
		rollback = append(rollback, apply)
	}
	return fix, rollback
}

func change(c checks.Change) (fix, rollback string) {
	d := cmdData{Path: c.Path, Value: c.Value, Target: c.Target, Flag: c.Flag}
	undo := d
	undo.Value = c.Old
	switch c.Kind {
	case checks.NVUE:
		fix = exec("nvue-set", d)
		switch {
		case c.HasOld:
			rollback = exec("nvue-set", undo)
		case c.RollbackUnset != nil:
			rollback = exec("nvue-unset", cmdData{Path: c.RollbackUnset})
		default:
			rollback = exec("nvue-unset", d)
		}
	case checks.NVUEUnset:
		fix = exec("nvue-unset", d)
		rollback = exec("nvue-set", undo)
	case checks.MlnxQos:
		fix = exec("mlnx_qos", d)
		if c.HasOld {
			rollback = exec("mlnx_qos", undo)
		} else if c.Flag == "--dscp2prio" {
			// The table had no entry: delete the one the fix added.
			undo.Value = "del" + strings.TrimPrefix(c.Value, "set")
			rollback = exec("mlnx_qos", undo)
		}
	case checks.Sysfs:
		fix, rollback = exec("sysfs", d), exec("sysfs", undo)
	case checks.NCCLConf:
		d.Key, undo.Key = c.Path[0], c.Path[0]
		if c.HasOld {
			fix, rollback = exec("nccl-set", d), exec("nccl-set", undo)
		} else {
			// Append, and take the line out again on rollback.
			fix, rollback = exec("nccl-add", d), exec("nccl-del", d)
		}
	case checks.LinkMTU:
		fix, rollback = exec("ip-mtu", d), exec("ip-mtu", undo)
	}
	return fix, rollback
}
