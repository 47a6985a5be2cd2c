package checks

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/checks/judge"
	fabricbuild "github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// The check tests start from the shipped clean pod, real-format files of
// every kind, and apply one edit per case: the same text a device would
// print, changed where the case breaks it.
const cleanPod = "../examples/clean-pod"

// edit changes one file of the fabric; nil content removes it.
type edit func(t *testing.T, fsys fstest.MapFS)

func replace(file, old, new string) edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		t.Helper()
		f, ok := fsys[file]
		if !ok {
			t.Fatalf("no file %s", file)
		}
		s := string(f.Data)
		if !strings.Contains(s, old) {
			t.Fatalf("%s does not contain %q", file, old)
		}
		fsys[file] = &fstest.MapFile{Data: []byte(strings.Replace(s, old, new, 1))}
	}
}

func appendTo(file, text string) edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		t.Helper()
		f, ok := fsys[file]
		if !ok {
			t.Fatalf("no file %s", file)
		}
		fsys[file] = &fstest.MapFile{Data: append(append([]byte(nil), f.Data...), text...)}
	}
}

func write(file, text string) edit {
	return func(_ *testing.T, fsys fstest.MapFS) { fsys[file] = &fstest.MapFile{Data: []byte(text)} }
}

func remove(file string) edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		t.Helper()
		if _, ok := fsys[file]; !ok {
			t.Fatalf("no file %s", file)
		}
		delete(fsys, file)
	}
}

var baseFS fstest.MapFS

func loadBase(t testing.TB) fstest.MapFS {
	t.Helper()
	if baseFS == nil {
		baseFS = fstest.MapFS{}
		err := fs.WalkDir(os.DirFS(cleanPod), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(os.DirFS(cleanPod), p)
			baseFS[p] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	out := fstest.MapFS{}
	for k, v := range baseFS {
		out[k] = &fstest.MapFile{Data: v.Data}
	}
	return out
}

// fabric builds the model of the clean pod with edits applied. The fabric
// must read without input errors: the check tests are about semantics.
func fabric(t *testing.T, edits ...edit) *model.Fabric {
	t.Helper()
	fsys := loadBase(t)
	for _, e := range edits {
		e(t, fsys)
	}
	name := "inventory.hcl"
	if _, ok := fsys["inventory.yaml"]; ok {
		name = "inventory.yaml"
	}
	inv, err := inventory.Parse(name, fsys[name].Data)
	if err != nil {
		t.Fatal(err)
	}
	c := offline.CollectFS(fsys, inv)
	for _, e := range c.Errors {
		t.Errorf("input error: %v", e)
	}
	f := fabricbuild.Build(inv, c)
	for _, p := range f.Problems {
		t.Errorf("model problem: %v", p)
	}
	return f
}

// summary is "severity device iface" per finding of one check, sorted.
// NotCollected runs no rule of its own: its findings are those Run merges
// from every check's skips.
func summary(check *Check, f *model.Fabric) ([]string, []Finding) {
	var fs []Finding
	if check == NotCollected {
		for _, fd := range Run(f) {
			if fd.Check == NotCollected.ID {
				fs = append(fs, fd)
			}
		}
	} else {
		fs = check.Run(f)
		for i := range fs {
			fs[i].Check = check.ID
		}
	}
	Sort(fs)
	out := make([]string, len(fs))
	for i, fd := range fs {
		out[i] = strings.TrimSpace(fd.Severity.String() + " " + fd.Device + " " + fd.Interface)
	}
	return out, fs
}

type checkCase struct {
	name  string
	edits []edit
	want  []string // summaries; none for a passing case
	// msg, when set, must appear in the first finding's message.
	msg string
}

// caseTables are every check's table cases, by check ID: each check's test
// file registers its tables (register), TestCheckCases runs them all and
// TestCatalog asserts every check has a passing and a failing case. A table
// is a function so that building it may use t.
var caseTables = map[string][]func(testing.TB) []checkCase{}

func register(c *Check, table func(testing.TB) []checkCase) bool {
	caseTables[c.ID] = append(caseTables[c.ID], table)
	return true
}

// TestCheckCases runs every registered case of every check.
func TestCheckCases(t *testing.T) {
	for _, c := range append(All(), NotCollected) {
		t.Run(c.ID, func(t *testing.T) {
			for _, table := range caseTables[c.ID] {
				runCases(t, c, table(t))
			}
		})
	}
}

// agreementHook, when set (by the agreement test of package checks_test,
// through export_test.go), also proves on each case's fabric that the
// marking chain and the drift rules agree with the findings. It lives in
// the external test package because render and checks/drift import checks.
var agreementHook func(t *testing.T, f *model.Fabric)

func runCases(t *testing.T, check *Check, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := fabric(t, tc.edits...)
			got, fs := summary(check, f)
			if agreementHook != nil {
				agreementHook(t, f)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tc.msg != "" && !strings.Contains(fs[0].Message, tc.msg) {
				t.Errorf("message %q lacks %q", fs[0].Message, tc.msg)
			}
			for _, fd := range fs {
				if !fd.Severity.Valid() || fd.Severity > check.Severity {
					t.Errorf("finding of severity %s, above the %s its check declares: %+v", fd.Severity, check.Severity, fd)
				}
				checkFinding(t, check, fd)
			}
			selectedRun(t, check, f, len(fs))
		})
	}
}

// checkFinding holds a finding to its check's kind: a configuration
// finding points at its evidence and carries its fix; an evidence finding
// points at a counter line and carries no fix (the configuration finding
// it corroborates does).
func checkFinding(t *testing.T, check *Check, fd Finding) {
	t.Helper()
	if fd.Severity == judge.Info {
		return
	}
	if fd.Source.File == "" {
		t.Errorf("finding without evidence: %+v", fd)
	}
	if check.Kind == KindEvidence {
		ethtool := strings.Contains(fd.Source.File, "ethtool-S-") && fd.Source.Line >= 2
		hw := strings.Contains(fd.Source.File, "/hw_counters/") && fd.Source.Line == 1
		gnmi := strings.Contains(fd.Source.File, "gnmi-counters") && fd.Source.Line >= 1
		// A capture is evidence as a whole file; the message names the packet.
		wire := strings.Contains(fd.Source.File, "/captures/") && strings.Contains(fd.Message, "at packet ")
		if !ethtool && !hw && !gnmi && !wire || len(fd.Changes) != 0 {
			t.Errorf("evidence finding without its counter line, or with a fix: %+v", fd)
		}
		return
	}
	if len(fd.Changes) == 0 && !strings.Contains(fd.Message, "threshold") && !strings.Contains(fd.Message, "not applied") &&
		!strings.Contains(fd.Message, "qoslint prints no command") {
		t.Errorf("finding without a fix: %+v", fd)
	}
}

// selectedRun runs the check through RunSet with only it enabled: the run
// reports n findings of its own (its skips merged into not-collected), and
// nothing of the checks it requires, which still run.
func selectedRun(t *testing.T, check *Check, f *model.Fabric, n int) {
	t.Helper()
	set, err := Select([]Selector{{Name: check.ID, Where: "--enable"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	for _, fd := range RunSet(f, set) {
		switch {
		case fd.Check == check.ID:
			own++
		case fd.Check == NotCollected.ID && check != NotCollected:
		default:
			t.Errorf("RunSet with only %s enabled reports a finding of %s: %+v", check.ID, fd.Check, fd)
		}
	}
	if check == NotCollected {
		return
	}
	skips := 0
	for _, fd := range check.Run(f) {
		if fd.skip != nil {
			skips++
		}
	}
	if own != n-skips {
		t.Errorf("RunSet reports %d findings of %s, its Run %d", own, check.ID, n-skips)
	}
}

func dev(name, file string) string { return path.Join("devices", name, file) }
