package sim

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

const nvConfigCommands = devcmd.NVConfigCommands

var (
	mlnxQosPrefix = devcmd.MlnxQosPrefix
	grepPrefix    = devcmd.SysfsGrepPrefix
)

// Exit statuses, as bash and coreutils use them.
const (
	exitOK       = 0
	exitFail     = 1   // cat of a missing file, NVUE errors, no grep match
	exitTrouble  = 2   // grep could not read a file (GNU grep: "2 if an error occurred")
	exitNotFound = 127 // bash: command not found
	exitIBDiag   = 255 // infiniband-diags' exit(-1)
)

// chunk is a piece of a command's output; stderr pieces go to the
// channel's extended data in exec mode and are merged in a pty.
type chunk struct {
	stderr bool
	text   string
	// file, when set, is a large file streamed from disk in pieces
	// instead of text, so that a device printing hundreds of MB costs the
	// simulator no more than a piece of it (streamFrom).
	file string
	size int64
}

type result struct {
	out  []chunk
	code uint32
}

func (r result) size() int {
	n := 0
	for _, c := range r.out {
		n += len(c.text) + int(c.size)
	}
	return n
}

func stdout(s string, code uint32) result { return result{out: []chunk{{text: s}}, code: code} }
func stderr(s string, code uint32) result {
	return result{out: []chunk{{stderr: true, text: s}}, code: code}
}

// answer records cmd and produces its result after the configured latency.
// ok is false when the device hangs (or the fabric is closing): the caller
// must then never answer.
func (d *device) answer(cmd string, exec bool) (r result, ok bool) {
	if d.record(cmd) {
		return result{}, false
	}
	if !d.f.sleep(d.f.opt.Latency + d.fault.Delay) {
		return result{}, false
	}
	r = d.run(cmd, exec)
	if fl := d.fault.Fail; fl != "" && (fl == "*" || strings.Contains(cmd, fl)) {
		r = stderr("Error: simulated failure of `"+cmd+"` on "+d.name+"\n", exitFail)
	}
	if g := d.fault.Garbage; g != "" && (g == "*" || strings.Contains(cmd, g)) {
		r = stdout(garbage(d.name+"\x00"+cmd, r.size()), exitOK)
	}
	return r, true
}

// run answers one command line from the device's folder. exec selects
// bash's wording for `bash -c` (what sshd runs for exec) over the
// interactive login shell's.
func (d *device) run(line string, exec bool) result {
	// bash splits words on any run of blanks; quoting is not simulated.
	line = strings.Join(strings.Fields(line), " ")
	if line == "" {
		return result{} // bash -c '' succeeds silently
	}
	cmd, sudo := strings.CutPrefix(line, devcmd.SudoPrefix)
	if d.kind == layout.KindSwitch && d.os == inventory.OSSONiC {
		return d.runSONiC(cmd, exec, sudo)
	}
	if d.kind == layout.KindSwitch {
		switch cmd {
		case devcmd.NVConfigYAML:
			return d.file(layout.NVUEYAMLFile, d.nvError("no "+layout.NVUEYAMLFile+" (try '"+nvConfigCommands+"')"))
		case nvConfigCommands:
			return d.file(layout.NVUECommandsFile, d.nvError("no "+layout.NVUECommandsFile))
		case devcmd.NVShowQosRoce:
			return d.file(layout.RoceShowFile, d.nvError("qos roce is not available (no "+layout.RoceShowFile+")"))
		case devcmd.NVShowPacketTrim:
			return d.file(layout.PacketTrimShowFile, d.nvError("packet-trim is not available (no "+layout.PacketTrimShowFile+")"))
		case devcmd.NVShowQoSRemark:
			return d.file(layout.RemarkShowFile, d.nvError("qos remark is not available (no "+layout.RemarkShowFile+")"))
		}
		if port, ok := devcmd.ParseNVShowRoceStatus(cmd); ok {
			// ParseNVShowRoceStatus admits only a safe port name, so it
			// cannot leave the roce-status folder.
			return d.file(layout.RoceStatusFile(port), d.nvError("no RoCE status for interface "+port+" (no "+layout.RoceStatusFile(port)+")"))
		}
	} else {
		switch cmd {
		case devcmd.IBDev2Netdev:
			return d.file(layout.IBDev2NetdevFile, notFound(cmd, exec, sudo))
		case devcmd.IPLink:
			return d.file(layout.IPLinkFile, notFound(cmd, exec, sudo))
		case devcmd.Lspci:
			// A host folder without lspci.txt has no pciutils.
			return d.file(layout.LspciFile, notFound(cmd, exec, sudo))
		case devcmd.IBStat:
			return d.file(layout.IBStatFile, notFound(cmd, exec, sudo))
		case devcmd.IBSwitches:
			// A folder without ibswitches.txt knows of no switch: the
			// script prints nothing for a fabric without one.
			return d.file(layout.IBSwitchesFile, stdout("", exitOK))
		}
		if op, ca, port, ok := devcmd.ParseSMPQuery(cmd); ok {
			return d.smpquery(op, ca, port)
		}
		if op, lid, port, ok := devcmd.ParseSMPQueryLID(cmd); ok {
			return d.smpqueryLID(op, lid, port)
		}
		if rest, ok := strings.CutPrefix(cmd, devcmd.MlxconfigPrefix); ok {
			if ib, ok := strings.CutSuffix(rest, devcmd.MlxconfigQuery); ok {
				return d.mlxconfig(ib, cmd, exec, sudo)
			}
		}
		if nd, ok := strings.CutPrefix(cmd, mlnxQosPrefix); ok {
			return d.mlnxQos(nd)
		}
		if nd, ok := strings.CutPrefix(cmd, devcmd.EthtoolSPrefix); ok {
			return d.ethtoolS(nd)
		}
		if cmd == devcmd.JobEnvScan {
			return d.jobEnvScan(sudo)
		}
		if pid, ok := devcmd.ParseJobEnvRead(cmd); ok {
			return d.jobEnvRead(pid, sudo)
		}
	}
	if cmd == devcmd.LLDPNeighbors {
		// lldpcli prints lldp.json byte for byte; a device without one
		// has no lldpd (bash's message, as for any missing command).
		return d.file(layout.LLDPFile, notFound(cmd, exec, sudo))
	}
	if rest, ok := strings.CutPrefix(cmd, grepPrefix); ok {
		return d.grep(strings.Fields(rest))
	}
	if rest, ok := strings.CutPrefix(cmd, "cat "); ok {
		return d.cat(strings.Fields(rest))
	}
	return notFound(cmd, exec, sudo)
}

// file answers with a file of the device's folder, or with missing when
// the file cannot be read.
func (d *device) file(name string, missing result) result {
	p := filepath.Join(d.dir, name)
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Size() > streamFrom {
		return result{out: []chunk{{file: p, size: st.Size()}}, code: exitOK}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return missing
	}
	return stdout(string(b), exitOK)
}

// streamFrom is the size above which a file is streamed, not read whole.
const streamFrom = 1 << 20

// nvError is the simulator's own wording: no public source shows NVUE's
// text for these failures, only that NVUE errors start with "Error:".
func (d *device) nvError(msg string) result {
	return stderr("Error: "+msg+" in the simulated "+d.name+"\n", exitFail)
}

// notFound is bash's message for an unknown command: the interactive
// login shell prefixes "-bash", `bash -c` (exec) "bash: line 1" (bash
// 5.1+); sudo reports it itself.
func notFound(cmd string, exec, sudo bool) result {
	w := "sudo"
	if f := strings.Fields(cmd); len(f) > 0 {
		w = f[0]
	}
	switch {
	case sudo:
		return stderr("sudo: "+w+": command not found\n", exitFail)
	case exec:
		return stderr("bash: line 1: "+w+": command not found\n", exitNotFound)
	}
	return stderr("-bash: "+w+": command not found\n", exitNotFound)
}

// mlnxQos answers `mlnx_qos -i <netdev>` from mlnx_qos-<netdev>.txt. The
// error wording for an unknown interface is the simulator's own.
func (d *device) mlnxQos(netdev string) result {
	missing := stderr("mlnx_qos: "+netdev+": interface not found\n", exitFail)
	if _, err := devcmd.MlnxQos(netdev); err != nil {
		return missing // also keeps '/' out of the file name
	}
	return d.file(layout.MlnxQosFile(netdev), missing)
}

// mlxconfig answers `mlxconfig -d <ibdev> q` from mlxconfig-<ibdev>.txt.
// A host folder without any mlxconfig file has no MFT (command not found);
// one with files for other devices answers as mlxconfig does for a device
// it cannot open: mstflint's "-E-" prefix (mlxconfig/mlxcfg_ui.cpp), the
// rest of the wording the simulator's own.
func (d *device) mlxconfig(ibdev, cmd string, exec, sudo bool) result {
	if _, err := devcmd.MlxconfigQ(ibdev); err != nil {
		return notFound(cmd, exec, sudo) // also keeps '/' out of the file name
	}
	any, _ := filepath.Glob(filepath.Join(d.dir, layout.MlxConfigFile("*")))
	missing := notFound(cmd, exec, sudo)
	if len(any) > 0 {
		missing = stderr("-E- Failed to open device: "+ibdev+"\n", exitFail)
	}
	return d.file(layout.MlxConfigFile(ibdev), missing)
}

// catFiles are the files a simulated host can cat: /etc/nccl.conf,
// /etc/ucx/ucx.conf, /proc/cpuinfo, /etc/opensm/opensm.conf and
// /etc/opensm/qos-policy.conf (the default qos_policy_file), each from
// its fabric-directory file.
var catFiles = map[string]string{
	layout.NCCLConfPath:   layout.NCCLConfFile,
	layout.UCXConfPath:    layout.UCXConfFile,
	layout.CPUInfoPath:    layout.CPUInfoFile,
	layout.OpenSMConfPath: layout.OpenSMConfFile,
	layout.QoSPolicyPath:  layout.QoSPolicyFile,
}

// smpquery answers `smpquery -C <ca> -P <port> -D <op> 0` from
// smpquery-<op>-<ca>-<port>.txt. An HCA port the folder lacks gets
// smpquery's failure to open it, on stdout with exit status 255
// (rdma-core infiniband-diags/smpquery.c main's IBEXIT "Failed to open
// '%s' port '%d'", ibdiag_common.c ibexit's printf and exit(-1)).
func (d *device) smpquery(op, ca string, port int) result {
	missing := stdout("smpquery: iberror: failed: Failed to open '"+ca+"' port '"+strconv.Itoa(port)+"'\n", exitIBDiag)
	return d.file(layout.SMPQueryFile(op, ca, port), missing)
}

// smpqueryLID answers `smpquery <op> <lid> <port>` from
// smpquery-<op>-lid<lid>-<port>.txt. The fabric directory keeps the
// PortInfo of Active switch ports only (collectors/live collectSwitches),
// so a port of a switch ibswitches.txt lists without one is a port
// without a link: its PortInfo says Down. Anything else the folder lacks
// gets smpquery's failure of the query (IBEXIT "operation %s: %s",
// infiniband-diags/smpquery.c main; "port info query failed" and the
// like from its handlers).
func (d *device) smpqueryLID(op string, lid, port int) result {
	failed := stdout("smpquery: iberror: failed: operation "+op+": "+map[string]string{
		"sl2vl": "slvl query failed", "vlarb": "vl arb query failed", "portinfo": "port info query failed"}[op]+"\n", exitIBDiag)
	if op == "portinfo" && d.switchHasPort(lid, port) {
		failed = stdout(fmt.Sprintf("# Port info: Lid %d port %d\nLinkState:.......................Down\nPhysLinkState:...................Polling\n", lid, port), exitOK)
	}
	return d.file(layout.SwitchSMPQueryFile(op, lid, port), failed)
}

func (d *device) switchHasPort(lid, port int) bool {
	b, err := os.ReadFile(filepath.Join(d.dir, layout.IBSwitchesFile))
	if err != nil {
		return false
	}
	sws, err := ibfiles.ParseIBSwitches(layout.IBSwitchesFile, b)
	if err != nil {
		return false
	}
	for _, s := range sws.Switches {
		if s.LID == lid {
			return port <= s.Ports
		}
	}
	return false
}

// cat prints each file or coreutils' message for a missing one.
func (d *device) cat(args []string) result {
	var r result
	for _, a := range args {
		if name, ok := catFiles[a]; ok {
			if b, err := os.ReadFile(filepath.Join(d.dir, name)); err == nil {
				r.out = append(r.out, chunk{text: string(b)})
				continue
			}
		}
		r.out = append(r.out, chunk{stderr: true, text: "cat: " + a + ": No such file or directory\n"})
		r.code = exitFail
	}
	return r
}

// grep answers `grep -H ” -- PATH...`: an empty pattern matches every
// line, -H prefixes each with "path:", a missing file is reported and
// makes the status 2 (GNU grep manual, "Exit Status"). /sys/<p> is read
// from sysfs/<p> in the device's folder; an RDMA hw_counters file the
// folder lacks gets a synthetic value (syntheticHWCounter), as ethtool -S
// does.
func (d *device) grep(paths []string) result {
	r := result{code: exitFail}
	trouble := false
	for _, p := range paths {
		rel, ok := layout.SysRel(p)
		var data []byte
		var err error
		if ok {
			full := filepath.Join(d.dir, layout.SysfsDir, filepath.FromSlash(rel))
			var st os.FileInfo
			if st, err = os.Stat(full); err == nil && st.IsDir() {
				r.out = append(r.out, chunk{stderr: true, text: "grep: " + p + ": Is a directory\n"})
				trouble = true
				continue
			}
			data, err = os.ReadFile(full)
			if err != nil {
				data, err = d.syntheticSysfs(rel, data, err)
			}
		}
		if !ok || err != nil {
			r.out = append(r.out, chunk{stderr: true, text: "grep: " + p + ": No such file or directory\n"})
			trouble = true
			continue
		}
		if len(data) == 0 {
			continue
		}
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			b.WriteString(p + ":" + l + "\n")
		}
		r.out = append(r.out, chunk{text: b.String()})
		r.code = exitOK
	}
	if trouble {
		r.code = exitTrouble
	}
	return r
}

// garbageAlphabet leaves out '@', '#', '$' and control characters so that
// garbage can never look like a prompt or move a terminal's cursor: the
// fault is a corrupt answer, not a broken session.
const garbageAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 !%&*+,-./:;<=>?[]^_{|}~'\"()"

// garbage is n (at least 64) bytes of printable lines, the same for the
// same seed so failures reproduce.
func garbage(seed string, n int) string {
	n = min(max(n, 64), 1<<20)
	h := fnv.New64a()
	_, _ = h.Write([]byte(seed))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x9e3779b97f4a7c15))
	b := make([]byte, 0, n)
	lineLeft := 8 + rng.IntN(64)
	for len(b) < n-1 {
		if lineLeft == 0 {
			b = append(b, '\n')
			lineLeft = 8 + rng.IntN(64)
			continue
		}
		b = append(b, garbageAlphabet[rng.IntN(len(garbageAlphabet))])
		lineLeft--
	}
	return string(append(b, '\n'))
}
