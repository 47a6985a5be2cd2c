package live

import (
	"strings"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/layout"
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
	conf, hasSM, err := r.captureOpenSMConf()
	if err != nil {
		return err
	}
	if hasSM {
		if err := r.captureQoSPolicy(conf); err != nil {
			return err
		}
	}
	if hasSM || r.dev.firstIB {
		if err := r.collectSwitches(); err != nil {
			return err
		}
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
			cmd = r.sudo(cmd)
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
func (r *devRun) captureOpenSMConf() (out []byte, saved bool, err error) {
	return r.catOptional(devcmd.CatOpenSMConf, layout.OpenSMConfFile)
}

// catOptional saves cmd's output as file unless cat says the file does
// not exist (no note) or fails otherwise (a note).
func (r *devRun) catOptional(cmd, file string) (out []byte, saved bool, err error) {
	cmd = r.sudo(cmd)
	out, ok, err := r.exec(cmd)
	if !ok || err != nil {
		return nil, false, err
	}
	if line := failureLine(out); line != "" {
		if !missingFile(line) {
			r.note("%s not collected: `%s` said %q", file, cmd, clip(line))
		}
		return nil, false, nil
	}
	r.save(r.file(file), cmd, out)
	return out, true, nil
}

// captureQoSPolicy saves the QoS policy file opensm.conf's
// qos_policy_file names (OpenSM's default path when unset) as
// qos-policy.conf. The file is optional: without it OpenSM applies no
// policy (linux-rdma/opensm doc/QoS_management_in_OpenSM.txt §5).
func (r *devRun) captureQoSPolicy(conf []byte) error {
	path := layout.QoSPolicyPath
	if c, err := ibfiles.ParseOpenSMConf(r.file(layout.OpenSMConfFile), conf); err == nil && c.PolicyFile != nil {
		path = c.PolicyFile.Value
	}
	cmd, err := devcmd.CatQoSPolicy(path)
	if err != nil {
		r.note("%s not collected: %v", layout.QoSPolicyFile, err)
		return nil
	}
	_, _, err = r.catOptional(cmd, layout.QoSPolicyFile)
	return err
}

// collectSwitches reads every switch `ibswitches` lists, by LID, from
// this host (internal/layout/ib.go): the PortInfo of ports 0 to N, and
// the SL2VL and VL arbitration tables of the Active ones. A PortInfo not
// Active is not saved: the offline reader judges the ports whose PortInfo
// it finds, and a port without a link carries nothing to judge.
func (r *devRun) collectSwitches() error {
	out, ok, err := r.capture(r.sudo(devcmd.IBSwitches), layout.IBSwitchesFile)
	if !ok || err != nil {
		return err
	}
	sws, perr := ibfiles.ParseIBSwitches(r.file(layout.IBSwitchesFile), out)
	if perr != nil {
		r.note("%s is not ibswitches output (%v): switches unknown", layout.IBSwitchesFile, perr)
		return nil
	}
	for _, sw := range sws.Switches {
		for port := 0; port <= sw.Ports; port++ {
			if err := r.collectSwitchPort(sw.LID, port); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *devRun) collectSwitchPort(lid, port int) error {
	cmd, err := devcmd.SMPQueryLID("portinfo", lid, port)
	if err != nil {
		r.note("switch lid %d port %d skipped: %v", lid, port, err)
		return nil
	}
	file := layout.SwitchSMPQueryFile("portinfo", lid, port)
	out, ok, err := r.exec(r.sudo(cmd))
	if !ok || err != nil {
		return err
	}
	if line := failureLine(out); line != "" {
		r.note("%s not collected: `%s` said %q", file, cmd, clip(line))
		return nil
	}
	pi, perr := ibfiles.ParsePortInfo(r.file(file), out)
	if perr == nil && pi.LinkState != "Active" {
		return nil
	}
	// Saved even when unreadable: the offline reader reports the line.
	r.save(r.file(file), r.sudo(cmd), out)
	for _, op := range []string{"sl2vl", "vlarb"} {
		c, _ := devcmd.SMPQueryLID(op, lid, port)
		if _, _, err := r.capture(r.sudo(c), layout.SwitchSMPQueryFile(op, lid, port)); err != nil {
			return err
		}
	}
	return nil
}

// sudo prefixes cmd with `sudo -n` when the credentials say so: the one
// rule for every host command that may need root (mlnx_qos, ethtool,
// lldpcli, lspci, mlxconfig, smpquery's /dev/infiniband/umad*, another
// user's /proc/<pid>/environ).
func (r *devRun) sudo(cmd string) string {
	if r.dev.creds.Sudo {
		return devcmd.SudoPrefix + cmd
	}
	return cmd
}

// missingFile is cat's message for a file that does not exist.
func missingFile(line string) bool {
	return strings.HasPrefix(line, "cat: ") && strings.HasSuffix(line, "No such file or directory")
}
