package live

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/nvrange"
)

// devRun is one device's collection in progress.
type devRun struct {
	dev     *device
	sess    *session
	st      DeviceStatus
	files   map[string][]byte
	cmds    map[string]string // file → the command it came from
	secrets []string
	current string // the command being run, for a cancellation message
	// counters also collects the runtime counters (ethtool -S per NIC).
	counters bool
	// jobEnv also reads the job environment (captureJobEnv).
	jobEnv bool
	// rocePorts picks the ports asked for their RoCE status
	// (Options.RoCEPorts); nil asks none.
	rocePorts func(cfg *nvue.Config, inventoryPorts []string) []string
}

func (r *devRun) note(format string, a ...any) {
	r.st.Notes = append(r.st.Notes, r.redact(fmt.Sprintf(format, a...)))
}

func (r *devRun) file(name string) string { return layout.DeviceFile(r.dev.name, name) }

// save keeps a file (a name below devices/) and the command it came from,
// which the capture manifest records.
func (r *devRun) save(name, cmd string, data []byte) {
	r.files[name] = data
	r.cmds[name] = cmd
}

// exec runs one command. ok is false when it produced nothing usable; the
// error is non-nil only when the session is over (the device is then done).
func (r *devRun) exec(cmd string) (out []byte, ok bool, err error) {
	r.current = cmd
	out, err = r.sess.run(cmd)
	r.st.Commands = r.sess.sent
	r.current = ""
	var ce *cmdError
	switch {
	case err == nil:
		return out, true, nil
	case errors.As(err, &ce) && !ce.fatal:
		r.note("%s", ce.msg)
		return nil, false, nil
	}
	r.current = cmd
	return nil, false, err
}

// capture runs cmd and saves its output verbatim as file, unless the
// output says the command failed.
func (r *devRun) capture(cmd, file string) ([]byte, bool, error) {
	out, ok, err := r.exec(cmd)
	if !ok {
		return nil, false, err
	}
	if line := failureLine(out); line != "" {
		r.note("%s not collected: `%s` said %q", file, cmd, clip(line))
		return nil, false, nil
	}
	r.save(r.file(file), cmd, out)
	return out, true, nil
}

// captureOptional is capture for a file most hosts lack (ucx.conf exists
// only where UCX is configured): a missing file is no note.
func (r *devRun) captureOptional(cmd, file string) error {
	out, ok, err := r.exec(cmd)
	if !ok {
		return err
	}
	if line := failureLine(out); line != "" {
		if !strings.Contains(line, "No such file or directory") {
			r.note("%s not collected: `%s` said %q", file, cmd, clip(line))
		}
		return nil
	}
	r.save(r.file(file), cmd, out)
	return nil
}

func (r *devRun) collectSwitch() error {
	notes := len(r.st.Notes)
	cfgFile := layout.NVUEYAMLFile
	data, ok, err := r.capture(devcmd.NVConfigYAML, cfgFile)
	if err != nil {
		return err
	}
	if !ok {
		// The command form is the same configuration (CumulusNetworks/docs content/
		// cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md); a
		// switch that cannot print YAML may still print it.
		cfgFile = layout.NVUECommandsFile
		data, ok, err = r.capture(devcmd.NVConfigCommands, cfgFile)
		if err != nil {
			return err
		}
		if ok {
			r.st.Notes = r.st.Notes[:notes]
		} else {
			r.hintSONiC(notes)
		}
	}
	if _, _, err = r.capture(devcmd.NVShowQosRoce, layout.RoceShowFile); err != nil {
		return err
	}
	if !ok {
		return r.captureLLDP()
	}
	// The configuration just read decides what else to ask; one that
	// does not parse asks nothing more (lint reports it).
	var cfg *nvue.Config
	if cfgFile == layout.NVUEYAMLFile {
		cfg, _ = nvue.ParseYAML(r.file(cfgFile), data)
	} else {
		cfg, _, _ = nvue.ParseCommands(r.file(cfgFile), data)
	}
	if cfg.MentionsPacketTrim() {
		// Only a switch that trims packets is asked for the packet
		// trimming views, so one that does not is asked nothing more.
		for _, c := range []struct{ cmd, file string }{
			{devcmd.NVShowPacketTrim, layout.PacketTrimShowFile}, {devcmd.NVShowQoSRemark, layout.RemarkShowFile},
		} {
			if _, _, err = r.capture(c.cmd, c.file); err != nil {
				return err
			}
		}
	}
	if err := r.collectRoceStatus(cfgFile, cfg); err != nil {
		return err
	}
	return r.captureLLDP()
}

// collectRoceStatus saves `nv show interface <port> qos roce status` as
// roce-status/<port>.txt for each port lint will check (Options.RoCEPorts:
// the inventory's ports, or every RoCE port of the configuration just
// read), one command per port in port order: a 64-port switch costs 64
// commands on the same shell. The all-interfaces form `nv show interface
// qos-roce-status` would be one command, but its layout is not published.
// A port devcmd refuses is a note; the ports the switch answers with an
// error share one note, with the first answer, rather than one note per
// port. lint then reports their status as not collected.
func (r *devRun) collectRoceStatus(file string, cfg *nvue.Config) error {
	if r.rocePorts == nil {
		return nil
	}
	if cfg == nil {
		r.note("%s not collected: %s could not be read, so which ports to ask is unknown", layout.RoceStatusDir, file)
		return nil
	}
	var failed []string
	said := ""
	for _, p := range r.rocePorts(cfg, r.dev.ports) {
		cmd, err := devcmd.NVShowRoceStatus(p)
		if err != nil {
			r.note("%s not collected: %v", layout.RoceStatusFile(p), err)
			continue
		}
		out, ok, err := r.exec(cmd)
		switch {
		case err != nil:
			return err
		case !ok:
			continue // exec noted why
		}
		if line := failureLine(out); line != "" {
			if failed = append(failed, p); said == "" {
				said = fmt.Sprintf("`%s` said %q", cmd, clip(line))
			}
			continue
		}
		r.save(r.file(layout.RoceStatusFile(p)), cmd, out)
	}
	if len(failed) > 0 {
		r.note("%s not collected for %s: %s", layout.RoceStatusDir, nvrange.CompressNames(failed), said)
	}
	return nil
}

// captureLLDP saves lldpd's neighbours as lldp.json. lldpcli talks to
// lldpd over its socket, which may need root (sudo -n when the
// credentials say so); a device without lldpd gets a note from capture,
// and the link checks say the input was not collected.
func (r *devRun) captureLLDP() error {
	cmd := devcmd.LLDPNeighbors
	cmd = r.sudo(cmd)
	_, _, err := r.capture(cmd, layout.LLDPFile)
	return err
}

func (r *devRun) collectHost() error {
	if r.dev.ib {
		if err := r.collectIB(); err != nil {
			return err
		}
	}
	if !r.dev.ethernet {
		// An InfiniBand-only host: its NCCL settings carry NCCL_IB_SL,
		// its ucx.conf UCX_IB_SL.
		if _, _, err := r.capture(devcmd.CatNCCLConf, layout.NCCLConfFile); err != nil {
			return err
		}
		if err := r.captureOptional(devcmd.CatUCXConf, layout.UCXConfFile); err != nil || !r.jobEnv {
			return err
		}
		return r.captureJobEnv()
	}
	return r.collectRoCEHost()
}

func (r *devRun) collectRoCEHost() error {
	ib, ibOK, err := r.capture(devcmd.IBDev2Netdev, layout.IBDev2NetdevFile)
	if err != nil {
		return err
	}
	var devs []hostfiles.IBDev
	if ibOK {
		// The offline reader parses the same bytes and reports the error
		// with its line; here it only costs the NIC discovery.
		if devs, err = hostfiles.ParseIBDev2Netdev(r.file(layout.IBDev2NetdevFile), ib); err != nil {
			r.note("%s is not ibdev2netdev output (%v): RoCE NICs unknown", layout.IBDev2NetdevFile, err)
			devs = nil
		}
	}
	if _, _, err := r.capture(devcmd.IPLink, layout.IPLinkFile); err != nil {
		return err
	}
	if _, _, err := r.capture(devcmd.CatNCCLConf, layout.NCCLConfFile); err != nil {
		return err
	}
	if err := r.captureOptional(devcmd.CatUCXConf, layout.UCXConfFile); err != nil {
		return err
	}
	if r.jobEnv {
		if err := r.captureJobEnv(); err != nil {
			return err
		}
	}
	if err := r.captureLLDP(); err != nil {
		return err
	}
	if err := r.capturePCI(); err != nil {
		return err
	}

	nics := r.dev.nics
	if len(nics) == 0 {
		seen := map[string]bool{}
		for _, d := range devs {
			if !seen[d.Netdev] {
				seen[d.Netdev] = true
				nics = append(nics, d.Netdev)
			}
		}
	}
	if len(nics) == 0 {
		r.note("no RoCE NIC: the inventory names none and ibdev2netdev gave none, so mlnx_qos and sysfs were not collected")
		return nil
	}
	byNetdev := map[string]hostfiles.IBDev{}
	for _, d := range devs {
		if _, dup := byNetdev[d.Netdev]; !dup {
			byNetdev[d.Netdev] = d
		}
	}
	var sysPaths []string
	for _, nd := range nics {
		cmd, err := devcmd.MlnxQos(nd)
		if err != nil {
			r.note("NIC %q skipped: %v", nd, err)
			continue
		}
		cmd = r.sudo(cmd)
		if _, _, err := r.capture(cmd, layout.MlnxQosFile(nd)); err != nil {
			return err
		}
		if r.counters {
			if err := r.captureEthtool(nd); err != nil {
				return err
			}
		}
		sysPaths = append(sysPaths, nicSysfsPaths(nd, byNetdev[nd])...)
	}
	if err := r.collectSysfs(sysPaths); err != nil {
		return err
	}
	if err := r.captureFirmware(nics, byNetdev); err != nil {
		return err
	}
	if err := r.collectRoCETypes(roceTypePaths(nics, byNetdev)); err != nil || !r.counters {
		return err
	}
	return r.collectHWCounters(hwCounterPaths(nics, byNetdev))
}

// captureEthtool saves `ethtool -S <netdev>` (the NIC's
// statistics) as ethtool-S-<netdev>.txt. It runs under sudo -n when the
// host's credentials say so: mlx5 answers without root, but a host that
// restricts ethtool is configured the way mlnx_qos is.
func (r *devRun) captureEthtool(netdev string) error {
	cmd, err := devcmd.EthtoolS(netdev)
	if err != nil {
		r.note("NIC %q: counters skipped: %v", netdev, err)
		return nil
	}
	cmd = r.sudo(cmd)
	_, _, err = r.capture(cmd, layout.EthtoolFile(netdev))
	return err
}

// nicSysfsPaths are the mlx5 QoS sysfs files of one NIC (knneth/mlnx-ofa_kernel
// en_sysfs.c, en_ecn.c, main_ext.c; the files hostfiles.ReadSysfs reads): ECN per priority for the
// notification and reaction points, the CNP marking, and the RDMA device
// port's traffic_class when ibdev2netdev named the port.
func nicSysfsPaths(netdev string, ib hostfiles.IBDev) []string {
	var out []string
	for _, point := range []string{layout.PointNP, layout.PointRP} {
		for p := range 8 {
			out = append(out, layout.ECNEnablePath(layout.SysRoot, netdev, point, p))
		}
	}
	out = append(out, layout.CNPPath(layout.SysRoot, netdev, layout.CNPDSCP), layout.CNPPath(layout.SysRoot, netdev, layout.CNP802pPrio))
	if ib.IBDev != "" && ib.Port > 0 {
		out = append(out, layout.TrafficClassPath(layout.SysRoot, ib.IBDev, strconv.Itoa(ib.Port)))
	}
	return out
}

// roceTypePaths are the RoCE types of the first GID entries of the NICs'
// RDMA ports and RDMA-CM's default RoCE mode (host-roce-version), each
// port once. Both may be missing on a healthy host: an entry without a
// GID reads as an error, and the rdma_cm configfs group exists only after
// mkdir; optionalSysfs keeps them out of the "files missing" note.
func roceTypePaths(nics []string, byNetdev map[string]hostfiles.IBDev) []string {
	seen := map[string]bool{}
	var out []string
	for _, nd := range nics {
		ib := byNetdev[nd]
		key := ib.IBDev + "/" + strconv.Itoa(ib.Port)
		if ib.IBDev == "" || ib.Port < 1 || seen[key] {
			continue
		}
		seen[key] = true
		for i := range layout.GIDTypesRead {
			out = append(out, layout.GIDTypePath(layout.SysRoot, ib.IBDev, ib.Port, i))
		}
		out = append(out, layout.RoCEModePath(layout.SysRoot, ib.IBDev, ib.Port), layout.RoCEToSPath(layout.SysRoot, ib.IBDev, ib.Port))
	}
	return out
}

// collectRoCETypes reads the RoCE types in their own allowlisted grep
// (the QoS read is long enough already) and mirrors each file below
// devices/<host>/sysfs/. A name devcmd refuses is a note.
func (r *devRun) collectRoCETypes(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	cmd, err := devcmd.ReadSysfs(paths)
	if err != nil {
		r.note("RoCE GID types not read: %v", err)
		return nil
	}
	return r.mirrorSysfs(cmd, paths, "RoCE GID types")
}

func optionalSysfs(p string) bool {
	return strings.Contains(p, "/gid_attrs/types/") || strings.HasPrefix(p, layout.SysRoot+"/kernel/config/")
}

// collectSysfs reads every file in one command and mirrors each below
// devices/<host>/sysfs/ at its /sys path.
func (r *devRun) collectSysfs(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	cmd, err := devcmd.ReadSysfs(paths)
	if err != nil {
		// A name ibdev2netdev printed that devcmd will not pass: drop the
		// traffic_class files, which are the only ones it adds.
		var kept []string
		for _, p := range paths {
			if strings.HasPrefix(p, layout.NetDir(layout.SysRoot)+"/") {
				kept = append(kept, p)
			}
		}
		r.note("traffic_class not read: %v", err)
		if cmd, err = devcmd.ReadSysfs(kept); err != nil {
			r.note("sysfs not collected: %v", err)
			return nil
		}
		paths = kept
	}
	return r.mirrorSysfs(cmd, paths, "sysfs")
}

// mirrorSysfs runs the sysfs read cmd of paths and mirrors each file it
// printed below devices/<host>/sysfs/ at its /sys path. A file missing on
// the device, or output that is not grep's, is a note naming what.
func (r *devRun) mirrorSysfs(cmd string, paths []string, what string) error {
	out, ok, err := r.exec(cmd)
	if !ok {
		return err
	}
	present, missing, perr := devcmd.ParseSysfs(paths, string(out))
	if perr != nil {
		r.note("%s not collected: the output of the read is not grep's: %v", what, perr)
		return nil
	}
	for p, content := range present {
		if rel, ok := layout.SysRel(p); ok {
			r.save(r.file(path.Join(layout.SysfsDir, rel)), cmd, []byte(content))
		}
	}
	missing = slices.DeleteFunc(missing, optionalSysfs)
	if len(missing) > 0 {
		r.note("%s: %d of %d files are missing on the device (first: %s)", what, len(missing), len(paths), missing[0])
	}
	return nil
}
