package live

import (
	"strings"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/collectors/layout"
)

// collectIB saves a host's InfiniBand files, the ones the offline reader
// reads (collectors/offline/ib.go): ibstat, then smpquery's SL2VL, VL
// arbitration and PortInfo of every port whose link layer is InfiniBand,
// and opensm.conf when the host has one.
func (r *devRun) collectIB() error {
	out, ok, err := r.capture(devcmd.IBStat, layout.IBStatFile)
	if err != nil {
		return err
	}
	if err := r.captureOpenSMConf(); err != nil {
		return err
	}
	if !ok {
		return nil
	}
	st, perr := ibfiles.ParseIBStat(r.file(layout.IBStatFile), out)
	if perr != nil {
		// The offline reader reports the error at its line.
		r.note("%s is not ibstat output (%v): InfiniBand ports unknown", layout.IBStatFile, perr)
		return nil
	}
	for _, p := range st.Ports {
		if p.LinkLayer != "InfiniBand" {
			continue
		}
		for _, op := range []string{"sl2vl", "vlarb", "portinfo"} {
			cmd, err := devcmd.SMPQuery(op, p.CA, p.Port)
			if err != nil {
				r.note("%s port %d skipped: %v", p.CA, p.Port, err)
				break
			}
			// smpquery sends its MADs through /dev/infiniband/umad*,
			// which a host may keep for root; the credentials' sudo
			// says so, as for mlnx_qos.
			if r.dev.creds.Sudo {
				cmd = devcmd.SudoPrefix + cmd
			}
			if _, _, err := r.capture(cmd, layout.SMPQueryFile(op, p.CA, p.Port)); err != nil {
				return err
			}
		}
	}
	return nil
}

// captureOpenSMConf saves /etc/opensm/opensm.conf. Only the subnet
// manager's host has it, so its absence is no note: the offline reader
// treats the file as optional too.
func (r *devRun) captureOpenSMConf() error {
	cmd := devcmd.CatOpenSMConf
	if r.dev.creds.Sudo {
		cmd = devcmd.SudoPrefix + cmd
	}
	out, ok, err := r.exec(cmd)
	if !ok || err != nil {
		return err
	}
	if line := failureLine(out); line != "" {
		if !missingFile(line) {
			r.note("%s not collected: `%s` said %q", layout.OpenSMConfFile, cmd, clip(line))
		}
		return nil
	}
	r.save(r.file(layout.OpenSMConfFile), cmd, out)
	return nil
}

// missingFile is cat's message for a file that does not exist.
func missingFile(line string) bool {
	return strings.HasPrefix(line, "cat: ") && strings.HasSuffix(line, "No such file or directory")
}
