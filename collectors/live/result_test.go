package live

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// tricky is a one-switch one-host fabric whose files hold what a pty and a
// prompt matcher could mangle: CRLF lines, a lone CR, tabs, trailing
// blanks, an escape sequence and a line that looks like the prompt.
func tricky(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "inventory.yaml"), []byte(
		"fabric: tricky\npolicy:\n  preset: cumulus-default\n"+
			"switches:\n  - name: leaf01\n    role: leaf\n    address: 192.0.2.11\n"+
			"hosts:\n  - name: gpu01\n    address: 198.51.100.11\n"))
	for _, f := range []string{"nv-config.yaml", "nv-show-qos-roce.txt", "lldp.json"} {
		data, err := os.ReadFile(filepath.Join(cleanPod, "devices/leaf01", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "nv-show-qos-roce.txt" {
			data = append(data, "\x1b[1mbold\x1b[0m \t \nqoslint@leaf01:mgmt:~$ \n"...)
		}
		writeFile(t, filepath.Join(dir, "devices/leaf01", f), data)
	}
	src := filepath.Join(cleanPod, "devices/gpu01")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == layout.CapturesDir {
			return fs.SkipDir // no device serves its captures
		}
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "nccl.conf" {
			data = []byte("# edited on Windows\r\nNCCL_IB_TC=106\r\nNCCL_IB_GID_INDEX=3\r\n# progress 50%\rdone\r\n# qoslint@gpu01:~$ \r\n")
		}
		writeFile(t, filepath.Join(dir, "devices/gpu01", rel), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestTrickyContent(t *testing.T) {
	src := tricky(t)
	p := startPod(t, src, sim.Options{Banner: "Welcome: run nv show qos roce or mlnx_qos -i ens1f0np0\n"})
	r := Collect(context.Background(), p.inv, p.options())
	want := servedFiles(t, src)
	if len(r.Files) != len(want) {
		t.Errorf("%d files collected, %d served", len(r.Files), len(want))
	}
	for name, data := range want {
		if got := r.Files[name]; !bytes.Equal(got, data) {
			t.Errorf("%s differs:\n got %q\nwant %q", name, got, data)
		}
	}
	for _, s := range r.Status {
		if s.Err != "" || len(withoutStatusNote(s.Notes)) > 0 {
			t.Errorf("%s: %q %q", s.Name, s.Err, s.Notes)
		}
	}
}

// TestWriteDir writes a collection where the offline reader finds it, and
// refuses names that would leave the folder.
func TestWriteDir(t *testing.T) {
	p := startPod(t, cleanPod, sim.Options{})
	r := Collect(context.Background(), p.inv, p.options())
	dir := filepath.Join(t.TempDir(), "capture")
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for name, data := range r.Files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: %v", name, err)
		}
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		if err == nil && st.Mode().Perm()&^0o644 != 0 {
			t.Errorf("%s: mode %v", name, st.Mode())
		}
	}
	onDisk := offline.Collect(dir, p.inv)
	inMem := offline.CollectFS(resultFS(r), p.inv)
	if !equalJSON(t, onDisk, inMem) {
		t.Error("the written folder and FS() read differently")
	}

	outside := t.TempDir()
	for _, name := range []string{"devices/../../x", "/etc/x", "devices/a/../../x", "inventory.yaml", "devices/a\\..\\x", "devices//x"} {
		bad := &Result{Files: map[string][]byte{name: []byte("x")}}
		if err := bad.WriteDir(filepath.Join(outside, "w")); err == nil {
			t.Errorf("WriteDir wrote %q", name)
		}
	}
	// A symbolic link inside the folder must not lead a write out of it.
	link := filepath.Join(outside, "l")
	if err := os.MkdirAll(filepath.Join(link, layout.DevicesDir), 0o755); err != nil {
		t.Fatal(err)
	}
	target := t.TempDir()
	if err := os.Symlink(target, filepath.Join(link, layout.DevicesDir, "gpu01")); err != nil {
		t.Fatal(err)
	}
	evil := &Result{Files: map[string][]byte{"devices/gpu01/nccl.conf": []byte("x")}}
	if err := evil.WriteDir(link); err == nil {
		t.Error("wrote through a symbolic link")
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("wrote outside the folder: %v", entries)
	}
}

func TestIncompleteAndEmpty(t *testing.T) {
	r := Collect(context.Background(), &inventory.Inventory{}, Options{})
	if r.Incomplete() || len(r.Files) != 0 || len(r.Status) != 0 {
		t.Errorf("empty inventory: %+v", r)
	}
	if _, err := fs.ReadDir(resultFS(r), layout.DevicesDir); err != nil {
		t.Errorf("FS of nothing has no devices folder: %v", err)
	}
	for _, tc := range []struct {
		st   DeviceStatus
		want bool
	}{
		{DeviceStatus{Name: "a"}, false},
		{DeviceStatus{Name: "a", Notes: []string{"x"}}, false},
		{DeviceStatus{Name: "a", Err: "a: x"}, true},
	} {
		if got := (&Result{Status: []DeviceStatus{tc.st}}).Incomplete(); got != tc.want {
			t.Errorf("%+v: Incomplete %v", tc.st, got)
		}
	}
	if !strings.Contains(Failed.String(), "failed") {
		t.Error(Failed.String())
	}
}
