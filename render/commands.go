// Package render turns findings into what people and tools read: the
// corrective commands and their rollback (from templates/), and one
// formatter per output format (text, json), each with golden tests.
package render

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"text/template"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/templates"
)

// Renderer executes the command and script templates: the embedded ones,
// with any of them redefined by a user's template folder.
type Renderer struct {
	t *template.Template
	// err is the first template that failed to execute. A user template can
	// parse and still fail on data (a field it misspells, an index out of
	// range); such a script must never be handed out, so callers check Err
	// once they have rendered, as with bufio.Scanner.
	err error
}

// Err is the first template execution error since the Renderer was made,
// naming the template, its file and line.
func (r *Renderer) Err() error { return r.err }

// defaultRenderer uses the embedded templates only.
var defaultRenderer = func() *Renderer {
	r, err := NewRenderer(nil)
	if err != nil {
		panic(err) // the embedded templates are tested
	}
	return r
}()

// NewRenderer parses the embedded templates, then every *.tmpl of override
// (nil for none): a {{define}} there replaces the embedded one of the same
// name, so a user can change one command's form and keep the rest.
func NewRenderer(override fs.FS) (*Renderer, error) {
	t, err := template.New("qoslint").Funcs(template.FuncMap{"sq": shellQuote, "words": words, "join": strings.Join}).
		ParseFS(templates.FS, "*.tmpl")
	if err != nil {
		return nil, err
	}
	if override != nil {
		names, err := fs.Glob(override, "*.tmpl")
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("no *.tmpl file in the templates folder")
		}
		for _, n := range names {
			data, err := fs.ReadFile(override, n)
			if err != nil {
				return nil, err
			}
			if _, err := t.New(n).Parse(string(data)); err != nil {
				return nil, fmt.Errorf("template %s: %v", n, err)
			}
		}
	}
	for _, name := range templates.Required {
		if t.Lookup(name) == nil {
			return nil, fmt.Errorf("template %q is not defined", name)
		}
	}
	return &Renderer{t: t}, nil
}

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
	Flag2, Value2            string
}

func (r *Renderer) exec(name string, d any) string {
	var b strings.Builder
	if err := r.t.ExecuteTemplate(&b, name, d); err != nil {
		// Data is validated before it reaches a template, and templates
		// are checked at load: an error here is a broken user template.
		if r.err == nil {
			r.err = fmt.Errorf("template %q failed: %v", name, err)
		}
		return ""
	}
	return b.String()
}

// Commands renders a finding's changes with the embedded templates.
func Commands(cs []checks.Change) (fix, rollback []string) { return defaultRenderer.Commands(cs) }

// Commands renders changes: the fix in order, and the rollback that undoes
// them in reverse order. NVUE changes end with one `nv config apply`.
func (r *Renderer) Commands(cs []checks.Change) (fix, rollback []string) {
	fix, rollback, _, _ = r.commands(cs, nil)
	return fix, rollback
}

// commands renders changes through the release gate g (nil for none): a
// change g drops leaves a comment line in the fix instead of its command.
func (r *Renderer) commands(cs []checks.Change, g *gate) (fix, rollback []string, kept []checks.Change, notes []string) {
	nvue, opensm := false, false
	for _, c := range cs {
		if g != nil {
			drop, note := g.check(c)
			if drop != "" {
				f, _ := r.change(c)
				line := "not printed: " + drop + ": " + f
				fix, notes = append(fix, "# "+line), append(notes, line)
				continue
			}
			if note != "" {
				fix, notes = append(fix, "# "+note), append(notes, note)
			}
		}
		kept = append(kept, c)
		opensm = opensm || c.Kind == checks.OpenSMConf || c.Kind == checks.OpenSMReload
		if c.Kind == checks.OpenSMReload {
			continue
		}
		f, rb := r.change(c)
		fix = append(fix, f)
		if rb != "" {
			rollback = append([]string{rb}, rollback...)
		}
		nvue = nvue || c.Kind == checks.NVUE || c.Kind == checks.NVUEUnset
	}
	if opensm {
		// OpenSM re-reads opensm.conf and sweeps on SIGHUP
		// (linux-rdma/opensm opensm/main.c, osm_state_mgr.c).
		reload := r.exec("opensm-reload", cmdData{})
		fix = append(fix, reload)
		rollback = append(rollback, reload)
	}
	if nvue {
		apply := r.exec("nvue-apply", cmdData{})
		fix = append(fix, apply)
		rollback = append(rollback, apply)
	}
	return fix, rollback, kept, notes
}

func (r *Renderer) change(c checks.Change) (fix, rollback string) {
	d := cmdData{Path: c.Path, Value: c.Value, Target: c.Target, Flag: c.Flag, Flag2: c.Flag2, Value2: c.Value2}
	undo := d
	undo.Value, undo.Value2 = c.Old, c.Old2
	switch c.Kind {
	case checks.SwitchSetting:
		// The OS's fix renderer spells it against the switch's
		// configuration (Plan.Patch); a report says what it sets.
		if c.Set != nil {
			fix = r.exec("switch-setting", cmdData{Value: c.Set.String()})
		}
	case checks.NVUE:
		fix = r.exec("nvue-set", d)
		switch {
		case c.HasOld:
			rollback = r.exec("nvue-set", undo)
		case c.RollbackUnset != nil:
			rollback = r.exec("nvue-unset", cmdData{Path: c.RollbackUnset})
		default:
			rollback = r.exec("nvue-unset", d)
		}
	case checks.NVUEUnset:
		fix = r.exec("nvue-unset", d)
		rollback = r.exec("nvue-set", undo)
	case checks.MlnxQos:
		fix = r.exec("mlnx_qos", d)
		if c.HasOld {
			rollback = r.exec("mlnx_qos", undo)
		} else if c.Flag == "--dscp2prio" {
			// The table had no entry: delete the one the fix added.
			undo.Value = "del" + strings.TrimPrefix(c.Value, "set")
			rollback = r.exec("mlnx_qos", undo)
		}
	case checks.Sysfs:
		fix, rollback = r.exec("sysfs", d), r.exec("sysfs", undo)
	case checks.NCCLConf:
		d.Key, undo.Key = c.Path[0], c.Path[0]
		if c.Value == "" {
			// Delete the key's lines; what they held is not known here.
			return r.exec("nccl-del", d), ""
		}
		if c.HasOld {
			fix, rollback = r.exec("nccl-set", d), r.exec("nccl-set", undo)
		} else {
			// Append, and take the line out again on rollback.
			fix, rollback = r.exec("nccl-add", d), r.exec("nccl-del", d)
		}
	case checks.LinkMTU:
		fix, rollback = r.exec("ip-mtu", d), r.exec("ip-mtu", undo)
	case checks.Mlxconfig:
		fix, rollback = r.exec("mlxconfig", d), r.exec("mlxconfig", undo)
	case checks.SetPCI:
		fix, rollback = r.exec("setpci-acs", d), r.exec("setpci-acs", undo)
	case checks.OpenSMConf:
		d.Key, undo.Key = c.Path[0], c.Path[0]
		if c.HasOld {
			fix, rollback = r.exec("opensm-set", d), r.exec("opensm-set", undo)
		} else {
			fix, rollback = r.exec("opensm-add", d), r.exec("opensm-del", d)
		}
	case checks.KubectlPatch:
		undo.Value = c.Old
		fix, rollback = r.exec("kubectl-patch", d), r.exec("kubectl-patch", undo)
	case checks.OpenSMReload:
		// Commands adds the one reload a plan needs.
	}
	return fix, rollback
}
