// Package offline collects a fabric from a fabric directory: the files a
// config repo keeps in git, or what `qoslint collect` saved from a live pod.
//
//	DIR/inventory.yaml | inventory.hcl
//	DIR/devices/<device>/...   one folder per inventory device
//
// Paths in evidence are relative to DIR, so reports do not depend on where
// the repository is checked out.
package offline

import (
	"errors"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/lldp"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/collectors/topology"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/names"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
)

const (
	maxDeviceFileBytes  = 64 << 20
	errDeviceDirMissing = "device folder not found"
)

// interval reads counters-interval.txt: 0 when absent (a single sample).
func (r *reader) interval(name string) time.Duration {
	return readOK(r, r.devicePath(name, layout.IntervalFile), parseInterval)
}

func parseInterval(file string, data []byte) (time.Duration, error) {
	s := strings.TrimSpace(string(data))
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return d, nil
	}
	return 0, source.Errorf(file, 1, "not a positive Go duration (e.g. 30s): %q", s)
}

// Collect reads every inventory device from dir. Problems are returned in the
// capture's Errors; what could be read is still returned.
func Collect(dir string, inv *inventory.Inventory) *collectors.Capture {
	return CollectFS(newDirFS(dir), inv)
}

// CollectFS is Collect over any file system rooted at the fabric directory.
func CollectFS(fsys fs.FS, inv *inventory.Inventory) *collectors.Capture {
	return CollectFSTo(fsys, inv, nil)
}

// Sink takes each device's capture as soon as it is read, in the worker
// that read it (several at once, each with a device of its own), and
// returns what the capture keeps in its place: fabric.Builder builds the
// device there and keeps what the steps that span devices read, so that
// a device's parse trees go before the last device is read.
type Sink interface {
	Switch(*collectors.SwitchCapture) *collectors.SwitchCapture
	Host(*collectors.HostCapture) *collectors.HostCapture
}

// CollectTo is Collect handing each device's capture to sink.
func CollectTo(dir string, inv *inventory.Inventory, sink Sink) *collectors.Capture {
	return CollectFSTo(newDirFS(dir), inv, sink)
}

// CollectFSTo is CollectFS handing each device's capture to sink (nil:
// every capture is kept whole).
func CollectFSTo(fsys fs.FS, inv *inventory.Inventory, sink Sink) *collectors.Capture {
	c := &collectors.Capture{}
	r := &reader{capture: c, failed: map[string]bool{}, ib: inv.HasIB(), ethernet: inv.FabricType != inventory.FabricInfiniBand}
	r.fsys = inputFS{FS: fsys, r: r}
	skip := r.verifyCapture(inv)
	if r.ib {
		c.IBDiagnet = r.ibdiagnet()
	}
	known := map[string]bool{}
	var devices []func(*reader)
	for _, s := range inv.Switches {
		known[s.Name] = true
		if skip[s.Name] {
			continue
		}
		devices = append(devices, func(d *reader) {
			d.device = s.Name
			if d.deviceDir(s.Name) {
				sc := d.switchCapture(s)
				if sink != nil {
					sc = sink.Switch(sc)
				}
				d.capture.Switches = append(d.capture.Switches, sc)
				d.captures(s.Name)
			}
		})
	}
	for _, h := range inv.Hosts {
		known[h.Name] = true
		if skip[h.Name] {
			continue
		}
		devices = append(devices, func(d *reader) {
			d.device = h.Name
			if d.deviceDir(h.Name) {
				hc := d.hostCapture(h)
				if sink != nil {
					hc = sink.Host(hc)
				}
				d.capture.Hosts = append(d.capture.Hosts, hc)
				d.captures(h.Name)
			}
		})
	}
	r.eachDevice(inv, devices)
	// A folder the inventory does not name is a typo or a device someone
	// forgot to add: either way the gate must not pass silently.
	entries, err := fs.ReadDir(fsys, layout.DevicesDir)
	if err != nil {
		r.device = ""
		r.fail(source.Pos{File: layout.DevicesDir}, "cannot read the devices folder: %v", unwrapPathError(err))
	}
	for _, e := range entries {
		if !e.IsDir() || known[e.Name()] {
			continue
		}
		r.device = e.Name()
		if !names.Device(e.Name()) {
			// No inventory can name it: say why, not only that it is missing.
			r.fail(source.Pos{File: layout.DeviceDir(e.Name())}, "device folder %q is not a device name (%s), and not in the inventory (%s)", e.Name(), names.DeviceRule, inv.File)
			continue
		}
		r.fail(source.Pos{File: layout.DeviceDir(e.Name())}, "device folder is not in the inventory (%s)", inv.File)
	}
	// The cabling plan is optional: without it there is no intent to
	// compare LLDP with, and the cabling check passes silently.
	r.device = ""
	c.Topology = readOK(r, layout.TopologyFile, topology.Parse)
	if ok, _ := r.folder(K8sDir); ok {
		ReadK8s(c, fsys, K8sDir, K8sDir)
	}
	return c
}

// eachDevice reads the devices side by side, each into a capture of its
// own, and appends those to r's in inventory order: a device's folder is
// its own (no reader state spans two devices), so the capture is the one a
// reading in order gives, byte for byte, in a fraction of the time on a
// machine with several cores (TestLintScale).
func (r *reader) eachDevice(inv *inventory.Inventory, devices []func(*reader)) {
	parts := make([]*reader, len(devices))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(devices)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				d := &reader{capture: &collectors.Capture{}, failed: map[string]bool{}, ib: r.ib, ethernet: r.ethernet}
				d.fsys = inputFS{FS: r.fsys.(inputFS).FS, r: d}
				devices[i](d)
				d.dirs = nil
				parts[i] = d
			}
		}()
	}
	for i := range devices {
		next <- i
	}
	close(next)
	wg.Wait()
	c := r.capture
	for _, d := range parts {
		c.Switches = append(c.Switches, d.capture.Switches...)
		c.Hosts = append(c.Hosts, d.capture.Hosts...)
		c.Errors = append(c.Errors, d.capture.Errors...)
		c.Notes = append(c.Notes, d.capture.Notes...)
		c.Wire = append(c.Wire, d.capture.Wire...)
		c.Read = append(c.Read, d.capture.Read...)
		for f := range d.failed {
			r.failed[f] = true
		}
	}
}

type reader struct {
	fsys    fs.FS
	capture *collectors.Capture
	device  string
	// failed holds the files that exist but could not be read: their
	// error is reported once, and they are not "missing" as well.
	failed map[string]bool
	// ib and ethernet say which of a host's files the fabric type asks
	// for: an InfiniBand-only host has no RoCE files to miss.
	ib, ethernet bool
	// dirs are the folders listed while reading the device (inputFS).
	dirs map[string]listing
	// readBelow is the device below whose folder a file was read
	// (noteRead): the reader of the unknown folders moves from one to the
	// next.
	readBelow string
}

// note records a remark that is neither a finding nor an input error.
func (r *reader) note(pos source.Pos, format string, a ...any) {
	e := source.Errorf(pos.File, pos.Line, format, a...)
	e.Device = r.device
	r.capture.Notes = append(r.capture.Notes, e)
}

func (r *reader) fail(pos source.Pos, format string, a ...any) {
	e := source.Errorf(pos.File, pos.Line, format, a...)
	e.Device = r.device
	r.capture.Errors = append(r.capture.Errors, e)
}

// noteErr records a parser's note, which already names file and line.
func (r *reader) noteErr(n *source.Error) {
	cp := *n
	cp.Device = r.device
	r.capture.Notes = append(r.capture.Notes, &cp)
}

// failErr records a parser's error, which already names file and line.
func (r *reader) failErr(file string, err error) {
	var se *source.Error
	if errors.As(err, &se) {
		cp := *se
		cp.Device = r.device
		r.capture.Errors = append(r.capture.Errors, &cp)
		return
	}
	r.fail(source.Pos{File: file}, "%v", err)
}

func (r *reader) devicePath(name, file string) string { return layout.DeviceFile(name, file) }

// deviceDir reports whether the device's folder can be read; when it
// cannot, it records one error that says why, instead of one per file.
func (r *reader) deviceDir(name string) bool {
	dir := layout.DeviceDir(name)
	ok, missing := r.folder(dir)
	if missing {
		r.fail(source.Pos{File: dir}, "%s: the inventory names this device but the fabric directory has no folder for it", errDeviceDirMissing)
	}
	return ok
}

// folder reports whether dir is a folder that can be listed. missing is
// true when nothing is there (not an error here: the caller knows whether
// the folder is optional); anything else that stops the reading (a file in
// its place, a symbolic link loop, no permission) is recorded as an error.
func (r *reader) folder(dir string) (ok, missing bool) {
	pos := source.Pos{File: dir}
	st, err := fs.Stat(r.fsys, dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, true
	case err != nil:
		r.fail(pos, "cannot read the folder: %v", unwrapPathError(err))
	case !st.IsDir():
		r.fail(pos, "is a file, but must be a folder")
	default:
		if _, err := fs.ReadDir(r.fsys, dir); err != nil {
			r.fail(pos, "cannot read the folder: %v", unwrapPathError(err))
			return false, false
		}
		return true, false
	}
	return false, false
}

// read returns a file's bytes (through inputFS: no byte order mark, at
// most maxDeviceFileBytes); ok is false when it does not exist. Other read
// problems are recorded as errors, and the file in failed.
func (r *reader) read(file string) ([]byte, bool) {
	data, err := fs.ReadFile(r.fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		r.failed[file] = true
		r.fail(source.Pos{File: file}, "cannot read: %v", unwrapPathError(err))
		return nil, false
	}
	return data, true
}

// readState is r.read and what became of the file: fileOK with its
// bytes, fileBad when it exists but could not be read, else fileAbsent.
func (r *reader) readState(file string) ([]byte, fileState) {
	data, ok := r.read(file)
	switch {
	case ok:
		return data, fileOK
	case r.failed[file]:
		return nil, fileBad
	}
	return nil, fileAbsent
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// fileState is what became of one device file.
type fileState int

const (
	fileAbsent fileState = iota // not there: not collected
	fileBad                     // there, but unreadable or not parsed: an input error is recorded
	fileOK
)

// readParse reads one file and parses it, recording a read or parse error
// at the file. v is what parse returned, a partial value included.
func readParse[T any](r *reader, file string, parse func(file string, data []byte) (T, error)) (v T, st fileState) {
	data, st := r.readState(file)
	if st != fileOK {
		return v, st
	}
	v, err := parse(file, data)
	if err != nil {
		r.failErr(file, err)
		return v, fileBad
	}
	return v, fileOK
}

// readOK is readParse's value when the file parsed, the zero value
// otherwise (absent, unreadable or not parsed).
func readOK[T any](r *reader, file string, parse func(file string, data []byte) (T, error)) T {
	v, st := readParse(r, file, parse)
	if st != fileOK {
		var zero T
		return zero
	}
	return v
}

func (r *reader) switchCapture(s inventory.Switch) *collectors.SwitchCapture {
	name := s.Name
	sc := &collectors.SwitchCapture{Name: name, OS: r.switchOS(s)}
	if sc.OS == inventory.OSSONiC {
		r.sonicCapture(sc)
		return sc
	}
	sc.Config = r.switchConfig(name)
	if sc.Config != nil {
		r.refuseInterfaces(sc.Config)
	}
	show, st := readParse(r, r.devicePath(name, layout.RoceShowFile), nvue.ParseRoceShow)
	switch st {
	case fileOK:
		sc.RoceShow = show
	case fileAbsent:
		sc.Missing = append(sc.Missing, layout.RoceShowFile)
		// Optional, and a config repo never has it; but a report that
		// passes must say what it did not compare.
		r.note(source.Pos{File: layout.DeviceDir(name)}, "%s not collected: the configuration is not compared with what the switch runs", layout.RoceShowFile)
	}
	// The packet trimming views are optional: a switch that does not trim
	// packets has no reason to print them, so their absence is judged by
	// the model, which knows whether the configuration trims.
	sc.PacketTrimShow = readOK(r, r.devicePath(name, layout.PacketTrimShowFile), nvue.ParsePacketTrimShow)
	sc.RemarkShow = readOK(r, r.devicePath(name, layout.RemarkShowFile), nvue.ParseRemarkShow)
	sc.RoceStatus = r.roceStatus(name)
	// Counters are optional evidence: absent means not collected, and is
	// not listed as missing (configuration checks do not need them).
	sc.Counters = readOK(r, r.devicePath(name, layout.GNMIFile), gnmifile.ParseCounters)
	// An earlier sample turns the counters into deltas; it means nothing
	// without the later one and the interval.
	if sc.Counters != nil {
		if iv := r.interval(name); iv > 0 {
			if c := readOK(r, r.devicePath(name, layout.GNMIBeforeFile), gnmifile.ParseCounters); c != nil {
				sc.CountersBefore, sc.CountersInterval = c, iv
			}
		}
	}
	// LLDP is optional: the link checks say when it is missing.
	sc.LLDP = readOK(r, r.devicePath(name, layout.LLDPFile), lldp.Parse)
	return sc
}

// switchConfig reads the NVUE configuration: the YAML form, else the
// command form; nil when neither could be read.
func (r *reader) switchConfig(name string) *nvue.Config {
	yamlFile, cmdFile := r.devicePath(name, layout.NVUEYAMLFile), r.devicePath(name, layout.NVUECommandsFile)
	cfg, st := readParse(r, yamlFile, nvue.ParseYAML)
	switch {
	case st == fileOK:
		r.agreeWithCommands(name, cfg)
		return cfg
	case st == fileBad && !r.failed[yamlFile]:
		return nil // not YAML: the command form is no stand-in for a broken file
	}
	if data, ok := r.read(cmdFile); ok {
		// A bad line is an input error at its line, but the rest of the
		// file is still the switch's configuration: checks run on what
		// was read, and the errors make the report incomplete.
		cfg, errs, notes := nvue.ParseCommands(cmdFile, data)
		for _, e := range errs {
			r.failErr(cmdFile, e)
		}
		for _, n := range notes {
			r.noteErr(n)
		}
		return cfg
	}
	if !r.failed[yamlFile] && !r.failed[cmdFile] {
		r.fail(source.Pos{File: layout.DeviceDir(name)}, "no NVUE configuration: the switch needs %s or %s", layout.NVUEYAMLFile, layout.NVUECommandsFile)
	}
	return nil
}

func (r *reader) hostCapture(h inventory.Host) *collectors.HostCapture {
	hc := &collectors.HostCapture{Name: h.Name}
	if r.ib {
		hc.IB = r.ibFiles(hc)
	}
	if !r.ethernet {
		r.ncclFiles(hc)
		return hc
	}
	r.hostFiles(hc)
	byNetdev := map[string]hostfiles.IBDev{}
	for _, d := range hc.IBDevs {
		byNetdev[d.Netdev] = d
	}
	netdevs := h.NICs
	if len(netdevs) == 0 {
		netdevs = r.discoverNICs(h.Name, hc.IBDevs, hc.Links)
	}
	sysRoot := r.devicePath(h.Name, layout.SysfsDir)
	sysOK, sysMissing := r.folder(sysRoot)
	if sysMissing {
		hc.Missing = append(hc.Missing, layout.SysfsDir)
	}
	hc.CountersInterval = r.interval(h.Name)
	for _, nd := range netdevs {
		nic := &collectors.NICCapture{Netdev: nd}
		if d, ok := byNetdev[nd]; ok {
			nic.IBDev, nic.Port = d.IBDev, d.Port
		}
		r.nicFiles(hc, nic)
		if sysOK {
			s, errs := hostfiles.ReadSysfs(r.fsys, sysRoot, nd, nic.IBDev, nic.Port)
			for _, err := range errs {
				r.failErr(sysRoot, err)
			}
			nic.Sysfs = s
			r.hwCounters(h.Name, hc, nic)
			r.roceTypes(sysRoot, nic)
		}
		r.cnpPairNote(nic)
		hc.NICs = append(hc.NICs, nic)
	}
	if sysOK {
		r.unmappedTrafficClass(h.Name, hc.NICs)
	}
	return hc
}

// hostFiles reads the host's files that are not per NIC.
func (r *reader) hostFiles(hc *collectors.HostCapture) {
	missing := func(st fileState, name string) {
		if st == fileAbsent {
			hc.Missing = append(hc.Missing, name)
		}
	}
	var st fileState
	// A bad ibdev2netdev line is an error, but the lines read still map
	// netdevs to RDMA ports.
	hc.IBDevs, st = readParse(r, r.devicePath(hc.Name, layout.IBDev2NetdevFile), hostfiles.ParseIBDev2Netdev)
	missing(st, layout.IBDev2NetdevFile)
	ncclFile := r.devicePath(hc.Name, layout.NCCLConfFile)
	var conf *hostfiles.NCCLConf
	if conf, st = readParse(r, ncclFile, hostfiles.ParseNCCLConf); st == fileOK {
		hc.NCCL = conf
	} else if !r.failed[ncclFile] {
		// Absent or not parsed: host-tos cannot use it either way.
		hc.Missing = append(hc.Missing, layout.NCCLConfFile)
	}
	// The two layers above /etc/nccl.conf are optional: a capture that
	// lacks them says so in host-tos, not as a missing file.
	hc.NCCLHome = readOK(r, r.devicePath(hc.Name, layout.HomeNCCLConfFile), hostfiles.ParseNCCLConf)
	hc.NCCLEnv = readOK(r, r.devicePath(hc.Name, layout.NCCLEnvFile), hostfiles.ParseNCCLEnv)
	hc.UCX = readOK(r, r.devicePath(hc.Name, layout.UCXConfFile), hostfiles.ParseUCXConf)
	linkFile := r.devicePath(hc.Name, layout.IPLinkFile)
	links, st := readParse(r, linkFile, hostfiles.ParseIPLink)
	if st == fileOK {
		hc.Links, hc.LinksFile = r.refuseLinks(linkFile, links), linkFile
	}
	missing(st, layout.IPLinkFile)
	hc.LLDP = readOK(r, r.devicePath(hc.Name, layout.LLDPFile), lldp.Parse)
	// PCI and firmware inputs are optional: host-acs and host-firmware
	// say when they are missing.
	pciFile := r.devicePath(hc.Name, layout.LspciFile)
	pci, st := readParse(r, pciFile, hostfiles.ParseLspci)
	if st == fileOK {
		hc.PCI, hc.PCIFile = pci, pciFile
	}
	hc.CPUInfo = readOK(r, r.devicePath(hc.Name, layout.CPUInfoFile), hostfiles.ParseCPUInfo)
}

// nicFiles reads the per-NIC command outputs: mlnx_qos (configuration,
// missing when absent) and ethtool -S with its earlier sample (counters:
// optional evidence, left out of Missing so that configuration-only
// fabric directories, and their snapshots, do not change).
func (r *reader) nicFiles(hc *collectors.HostCapture, nic *collectors.NICCapture) {
	nd := nic.Netdev
	qf := r.devicePath(hc.Name, layout.MlnxQosFile(nd))
	q, st := readParse(r, qf, hostfiles.ParseMlnxQos)
	switch {
	case st == fileOK:
		nic.Qos = q
	case st == fileAbsent:
		hc.Missing = append(hc.Missing, layout.MlnxQosFile(nd))
	case !r.failed[qf]:
		nic.QosUnreadable = true // read, but not mlnx_qos output
	}
	if nic.IBDev != "" && names.IBDev(nic.IBDev) {
		fw, st := readParse(r, r.devicePath(hc.Name, layout.MlxConfigFile(nic.IBDev)), hostfiles.ParseMlxConfig)
		if st == fileOK {
			nic.Firmware = fw
		}
	}
	nic.Ethtool = readOK(r, r.devicePath(hc.Name, layout.EthtoolFile(nd)), hostfiles.ParseEthtool)
	if nic.Ethtool != nil && hc.CountersInterval > 0 {
		nic.EthtoolBefore = readOK(r, r.devicePath(hc.Name, layout.EthtoolBeforeFile(nd)), hostfiles.ParseEthtool)
	}
}

// discoverNICs lists the RoCE netdevs of a host whose inventory names none:
// those of ibdev2netdev that are neither IPoIB nor down, else those with an
// mlnx_qos capture.
func (r *reader) discoverNICs(host string, devs []hostfiles.IBDev, links []hostfiles.Link) []string {
	out, skipped, ipoib := roceCandidates(devs, links)
	if len(ipoib) > 0 && r.ib {
		r.note(source.Pos{File: r.devicePath(host, layout.IBDev2NetdevFile)}, "IPoIB netdevs, not RoCE NICs: %s; the InfiniBand checks (ib-*) judge their HCA ports", strings.Join(ipoib, ", "))
	} else {
		for _, nd := range ipoib {
			skipped = append(skipped, nd+" (IPoIB: link_type infiniband)")
		}
		sort.Strings(skipped)
	}
	if len(skipped) > 0 {
		r.note(source.Pos{File: r.devicePath(host, layout.IBDev2NetdevFile)}, "not checked as RoCE NICs (the inventory names no nics): %s; name them in the inventory's nics to check them", strings.Join(skipped, ", "))
	}
	if len(out) > 0 || len(skipped) > 0 || len(ipoib) > 0 {
		if len(out) == 0 {
			r.fail(source.Pos{File: layout.DeviceDir(host)}, "no RoCE NIC found: every port of %s is IPoIB or down; name the nics in the inventory to check them anyway", layout.IBDev2NetdevFile)
		}
		return out
	}
	entries, _ := fs.ReadDir(r.fsys, layout.DeviceDir(host))
	for _, e := range entries {
		n := e.Name()
		nd, ok := layout.MlnxQosNetdev(n)
		if e.IsDir() || !ok {
			continue
		}
		if !names.Netdev(nd) {
			// The live audit never runs mlnx_qos -i on such a name.
			r.fail(source.Pos{File: r.devicePath(host, n)}, "netdev %q in the file name refused: want %s", clip(nd), names.NetdevRule)
			continue
		}
		out = append(out, nd)
	}
	sort.Strings(out)
	if len(out) == 0 {
		r.fail(source.Pos{File: layout.DeviceDir(host)}, "no RoCE NIC found: the host needs %s, %s files, or nics in the inventory", layout.IBDev2NetdevFile, layout.MlnxQosFile("<netdev>"))
	}
	return out
}
