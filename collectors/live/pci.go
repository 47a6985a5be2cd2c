package live

import (
	"strings"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
)

// capturePCI saves `lspci -vvv` (host-acs) and /proc/cpuinfo (whether the
// host is a virtual machine). lspci runs under sudo -n when the host's
// credentials say so: without root it prints "Capabilities: <access
// denied>" for the extended capabilities, ACS among them (pciutils
// lspci.man), which is saved as printed and host-acs reports as not
// collected. A host without pciutils gets a note from capture.
func (r *devRun) capturePCI() error {
	cmd := devcmd.Lspci
	cmd = r.sudo(cmd)
	if _, _, err := r.capture(cmd, layout.LspciFile); err != nil {
		return err
	}
	_, _, err := r.capture(devcmd.CatCPUInfo, layout.CPUInfoFile)
	return err
}

// captureFirmware saves `mlxconfig -d <ibdev> q` of each RDMA device of
// the NICs, once per device. mlxconfig needs root to open the device, so
// it runs under sudo -n when the credentials say so. A host without MFT
// or mstflint (command not found), or whose mlxconfig cannot open the
// device, gets a note, not a failure: host-firmware says the input was
// not collected.
func (r *devRun) captureFirmware(nics []string, byNetdev map[string]hostfiles.IBDev) error {
	seen := map[string]bool{}
	for _, nd := range nics {
		ib := byNetdev[nd].IBDev
		if ib == "" || seen[ib] {
			continue
		}
		seen[ib] = true
		cmd, err := devcmd.MlxconfigQ(ib)
		if err != nil {
			r.note("firmware configuration of %q not read: %v", ib, err)
			continue
		}
		cmd = r.sudo(cmd)
		if err := r.captureMlxconfig(cmd, layout.MlxConfigFile(ib)); err != nil {
			return err
		}
	}
	return nil
}

// captureMlxconfig is capture for mlxconfig, whose failures are its own
// "-E- ..." lines (Mellanox/mstflint mlxconfig/mlxcfg_ui.cpp prints
// errors with that prefix), e.g. "-E- Failed to open device": they are a
// note, not a file the offline reader would reject as input error.
func (r *devRun) captureMlxconfig(cmd, file string) error {
	out, ok, err := r.exec(cmd)
	if !ok {
		return err
	}
	line := failureLine(out)
	if line == "" {
		if first := firstLine(out); strings.HasPrefix(first, "-E-") {
			line = first
		}
	}
	if line != "" {
		r.note("%s not collected: `%s` said %q", file, cmd, clip(line))
		return nil
	}
	r.save(r.file(file), cmd, out)
	return nil
}

// firstLine is out's first non-blank line, trimmed.
func firstLine(out []byte) string {
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
