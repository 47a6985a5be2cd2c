package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// findingKeys are a report's findings as check/device/interface lines.
func findingKeys(t *testing.T, report []byte, skip ...string) []string {
	t.Helper()
	var out []string
	for _, f := range decode(t, report).Findings {
		// A link check's finding names the other end too: a cable to a
		// skipped device is judged only when that device is read.
		if !slices.Contains(skip, f.Device) && !(strings.HasPrefix(f.Check, "link-") && mentions(f.Message, skip)) {
			out = append(out, f.Check+" "+f.Device+" "+f.Interface+" "+f.Message)
		}
	}
	return out
}

func mentions(msg string, devices []string) bool {
	for _, d := range devices {
		if strings.Contains(msg, d+" ") || strings.Contains(msg, d+":") {
			return true
		}
	}
	return false
}

// TestLintCaptureIntegrity: lint of a capture whose manifest marks a
// device failed, with a file changed, one deleted and a stale one added
// after the collection, exits 2 naming each with its device and file,
// and still judges every other device as lint of the source does.
func TestLintCaptureIntegrity(t *testing.T) {
	src := "../../../examples/broken-pod"
	inv, _ := simulate(t, src, map[string]sim.Fault{"gpu02": {AuthFail: true}})
	dir := filepath.Join(t.TempDir(), "capture")
	var errOut bytes.Buffer
	if code := Collect(context.Background(), &errOut, liveOpts(inv), dir); code != ExitIncomplete {
		t.Fatalf("collect exit %d: %s", code, errOut.String())
	}
	// Untouched, the capture lints as the source (but for gpu02, which
	// could not be collected).
	var clean bytes.Buffer
	if code := Lint(&clean, &errOut, dir, LintOptions{Format: "json", FailOn: judge.Error}); code != ExitInput {
		t.Errorf("lint of an incomplete capture: exit %d", code)
	}
	if j := decode(t, clean.Bytes()); len(j.InputErrors) != 1 || j.InputErrors[0].Device != "gpu02" ||
		!strings.Contains(j.InputErrors[0].Message, "not collected: authentication failed") {
		t.Errorf("input errors %+v", j.InputErrors)
	}

	manifest, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(layout.CaptureFile)))
	if err != nil || bytes.Contains(manifest, []byte(testPassword)) || !bytes.Contains(manifest, []byte(`"status": "failed"`)) {
		t.Errorf("manifest (%v):\n%s", err, manifest)
	}

	edit := func(name, text string, appendTo bool) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if appendTo {
			old, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			text = string(old) + text
		}
		writeFile(t, p, text)
	}
	edit("devices/gpu01/nccl.conf", "# edited after the collection\n", true)
	if err := os.Remove(filepath.Join(dir, "devices/gpu03/ip-link.json")); err != nil {
		t.Fatal(err)
	}
	edit("devices/gpu04/ethtool-S-ens1f0np0.before.txt", "stale\n", false)

	var out bytes.Buffer
	code := Lint(&out, &errOut, dir, LintOptions{Format: "json", FailOn: judge.Error})
	if code != ExitInput {
		t.Errorf("exit %d, want %d", code, ExitInput)
	}
	var rep struct {
		InputErrors []struct{ Device, File, Message string } `json:"input_errors"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range rep.InputErrors {
		got[e.Device] += e.File + ": " + e.Message + "\n"
	}
	for dev, want := range map[string]string{
		"gpu02": ".qoslint/capture.json: not collected: authentication failed as \"cumulus\"",
		"gpu01": "devices/gpu01/nccl.conf: changed since it was collected",
		"gpu03": "devices/gpu03/ip-link.json: missing: the capture manifest (.qoslint/capture.json:",
		"gpu04": "devices/gpu04/ethtool-S-ens1f0np0.before.txt: not in the capture manifest",
	} {
		if !strings.Contains(got[dev], want) {
			t.Errorf("%s: input errors %q lack %q", dev, got[dev], want)
		}
	}
	if len(got) != 4 {
		t.Errorf("input errors of %d devices: %v", len(got), got)
	}
	var source bytes.Buffer
	Lint(&source, &errOut, src, LintOptions{Format: "json", FailOn: judge.Error})
	touched := []string{"gpu01", "gpu02", "gpu03", "gpu04"}
	want, have := findingKeys(t, source.Bytes(), touched...), findingKeys(t, out.Bytes(), touched...)
	if len(want) == 0 || strings.Join(want, "\n") != strings.Join(have, "\n") {
		t.Errorf("the other devices are not judged as in the source:\nsource  %q\ncapture %q", want, have)
	}
	if strings.Contains(errOut.String()+out.String(), testPassword) {
		t.Error("the password leaked")
	}
}

// TestCollectForce: collect refuses a non-empty folder before dialling
// anything; with --force it replaces it whole, so no file of the earlier
// content survives, and leaves nothing beside it. It never replaces the
// folder that holds the inventory.
func TestCollectForce(t *testing.T) {
	inv, _ := simulate(t, "../../../examples/clean-pod", nil)
	parent := t.TempDir()
	dir := filepath.Join(parent, "capture")
	stale := filepath.Join(dir, "devices/leaf01/nv-config-commands.txt")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, stale, "nv set qos roce mode lossy\n")
	writeFile(t, filepath.Join(dir, "notes.txt"), "mine\n")

	var errOut bytes.Buffer
	code := Collect(context.Background(), &errOut, liveOpts(inv), dir)
	if code != ExitInput || !strings.Contains(errOut.String(), dir+" is not empty: use --force") || strings.Contains(errOut.String(), "wrote") {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("the refused folder was touched: %v", err)
	}

	opt := liveOpts(inv)
	opt.Force = true
	errOut.Reset()
	if code := Collect(context.Background(), &errOut, opt, dir); code != ExitOK {
		t.Fatalf("collect --force: exit %d: %s", code, errOut.String())
	}
	for _, gone := range []string{stale, filepath.Join(dir, "notes.txt")} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("%s survived --force: %v", gone, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(layout.CaptureFile))); err != nil {
		t.Errorf("no manifest: %v", err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("left beside the capture: %v", entries)
	}
	var out bytes.Buffer
	if code := Lint(&out, &errOut, dir, LintOptions{Format: "text", FailOn: judge.Error}); code != ExitOK {
		t.Errorf("lint of the forced capture: exit %d\n%s", code, out.String())
	}

	// An empty folder is taken as it is.
	empty := filepath.Join(parent, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if code := Collect(context.Background(), &errOut, liveOpts(inv), empty); code != ExitOK {
		t.Errorf("collect into an empty folder: exit %d: %s", code, errOut.String())
	}
	// The folder of the inventory is never replaced, even with --force.
	errOut.Reset()
	if code := Collect(context.Background(), &errOut, opt, filepath.Dir(inv)); code != ExitInput || !strings.Contains(errOut.String(), "which this command reads") {
		t.Errorf("collect over the inventory: exit %d: %s", code, errOut.String())
	}
	if _, err := os.Stat(inv); err != nil {
		t.Errorf("the inventory is gone: %v", err)
	}
}

// TestFixOutForce: fix --out refuses a non-empty folder before printing
// anything; with --force the old scripts are gone and the new ones there.
func TestFixOutForce(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fixes")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(out, "leaf09.sh"), "# a device that no longer exists\n")
	var stdout, errOut bytes.Buffer
	opt := FixOptions{Format: "script", Out: out, FailOn: judge.Error}
	if code := Fix(&stdout, &errOut, "../../../examples/broken-pod", opt); code != ExitInput || stdout.Len() != 0 || !strings.Contains(errOut.String(), "use --force") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), errOut.String())
	}
	opt.Force = true
	if code := Fix(&stdout, &errOut, "../../../examples/broken-pod", opt); code != ExitOK {
		t.Fatalf("fix --force: exit %d: %s", code, errOut.String())
	}
	if _, err := os.Stat(filepath.Join(out, "leaf09.sh")); !os.IsNotExist(err) {
		t.Errorf("an old script survived --force: %v", err)
	}
	for _, f := range []string{"leaf02.sh", "leaf02.rollback.sh", "leaf02.nv", "leaf02.patch.yaml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

// TestPreviewOfCapture: the preview of a capture is no capture: its
// manifest is left out, and switches saved in both forms get both
// rewritten, so lint of the preview has no input error.
func TestPreviewOfCapture(t *testing.T) {
	src := copyDir(t, "../../../examples/broken-pod")
	inv, _ := simulate(t, src, nil)
	dir := filepath.Join(t.TempDir(), "capture")
	var errOut bytes.Buffer
	if code := Collect(context.Background(), &errOut, liveOpts(inv), dir); code != ExitOK {
		t.Fatalf("collect exit %d: %s", code, errOut.String())
	}
	preview := filepath.Join(t.TempDir(), "preview")
	var stdout bytes.Buffer
	if code := Fix(&stdout, &errOut, dir, FixOptions{Format: "script", Preview: preview, FailOn: judge.Error}); code != ExitOK {
		t.Fatalf("fix exit %d: %s", code, errOut.String())
	}
	if _, err := os.Stat(filepath.Join(preview, filepath.FromSlash(layout.CaptureFile))); !os.IsNotExist(err) {
		t.Errorf("the manifest was copied into the preview: %v", err)
	}
	var out bytes.Buffer
	Lint(&out, &errOut, preview, LintOptions{Format: "json", FailOn: judge.Error})
	if j := decode(t, out.Bytes()); len(j.InputErrors) != 0 {
		t.Errorf("lint of the preview: %+v", j.InputErrors)
	}

	// A switch kept in both forms: the preview rewrites both alike.
	both := copyDir(t, "../../../examples/broken-pod")
	yamlData, err := os.ReadFile(filepath.Join(both, "devices/leaf01/nv-config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := nvue.ParseYAML("nv-config.yaml", yamlData)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(both, "devices/leaf01/nv-config-commands.txt"), string(nvue.FormatCommands(cfg)))
	out.Reset()
	if code := Lint(&out, &errOut, both, LintOptions{Format: "json", FailOn: judge.Error}); code != ExitFindings {
		t.Fatalf("the two forms should agree: exit %d\n%s", code, out.String())
	}
	preview2 := filepath.Join(t.TempDir(), "preview")
	if code := Fix(&stdout, &errOut, both, FixOptions{Format: "script", Preview: preview2, FailOn: judge.Error}); code != ExitOK {
		t.Fatalf("fix exit %d: %s", code, errOut.String())
	}
	out.Reset()
	Lint(&out, &errOut, preview2, LintOptions{Format: "json", FailOn: judge.Error})
	if j := decode(t, out.Bytes()); len(j.InputErrors) != 0 {
		t.Errorf("lint of the preview of a switch in both forms: %+v", j.InputErrors)
	}
}
