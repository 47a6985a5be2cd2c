package sim

import (
	"net"
	"os"
	"testing"
	"time"

	"github.com/qoslint/qoslint/collectors/devcmd"
)

// copyFabric copies a fabric directory, so SetFile does not write into the
// shipped example.
func copyFabric(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestSetFile(t *testing.T) {
	f := startSim(t, copyFabric(t, cleanPod), Options{})
	c := dial(t, f, "gpu01")
	const conf = "NCCL_IB_TC=106\n"
	if err := f.SetFile("gpu01", "nccl.conf", []byte(conf)); err != nil {
		t.Fatal(err)
	}
	if r := run(t, c, devcmd.CatNCCLConf, testTimeout); r.err != nil || r.stdout != conf {
		t.Fatalf("after SetFile: %+v, want %q", r, conf)
	}
	for _, bad := range []string{"../leaf01/nv-config.yaml", "/etc/passwd", ""} {
		if err := f.SetFile("gpu01", bad, nil); err == nil {
			t.Errorf("SetFile(%q) wrote outside the device's folder", bad)
		}
	}
	if err := f.SetFile("nosuch", "nccl.conf", nil); err == nil {
		t.Error("SetFile of an unknown device succeeded")
	}
}

func TestDown(t *testing.T) {
	f := startSim(t, cleanPod, Options{})
	dial(t, f, "leaf01")
	if err := f.Down("leaf01"); err != nil {
		t.Fatal(err)
	}
	if err := f.Down("leaf01"); err != nil {
		t.Errorf("second Down: %v", err)
	}
	if c, err := net.DialTimeout("tcp", devByName(t, f, "leaf01").Addr, time.Second); err == nil {
		_ = c.Close()
		t.Error("a device that is down accepted a connection")
	}
	dial(t, f, "leaf02") // the others still work
	if err := f.Down("nosuch"); err == nil {
		t.Error("Down of an unknown device succeeded")
	}
}
