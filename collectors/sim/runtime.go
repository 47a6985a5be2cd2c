package sim

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
)

// SetFile replaces (or adds) the file name, relative to the device's
// folder (e.g. "nv-config.yaml" or "sysfs/class/net/…"), so that the
// device answers differently from its next command on: a fabric that
// changes while it is watched. The file is written beside its place and
// renamed over it, so a command never reads half of it. It writes into
// the fabric directory Start was given: tests pass a copy.
func (f *Fabric) SetFile(device, name string, data []byte) error {
	d := f.byName[device]
	if d == nil {
		return fmt.Errorf("sim: no device %q", device)
	}
	if !filepath.IsLocal(name) || strings.Contains(name, `\`) {
		return fmt.Errorf("sim: %q is not a path inside the device's folder", name)
	}
	path := filepath.Join(d.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sim-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Down stops a device's SSH listener: from then on a dial is refused, as
// for a switch that lost power. Connections already open are left alone.
// It cannot be undone; Close still cleans up.
func (f *Fabric) Down(device string) error {
	d := f.byName[device]
	if d == nil {
		return fmt.Errorf("sim: no device %q", device)
	}
	if err := d.ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}
