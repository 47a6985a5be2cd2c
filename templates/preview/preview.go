// Package preview writes a fabric directory as it would be after the fix
// commands ran, so a change can be linted before anyone touches a device.
// It applies the rendered commands themselves: NVUE lines through the same
// interpreter that reads `nv config show -o commands`, host lines through
// the effects mlnx_qos, sysfs writes, nccl.conf edits and ip link have on
// the files the host would print. Lint of the preview proves the fix
// converges.
package preview

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

// Write copies the fabric directory src to out and applies every plan's
// fix commands to the copy.
func Write(src string, plans []render.Plan, out string) error {
	if err := copyDir(src, out); err != nil {
		return err
	}
	for _, p := range plans {
		dev := filepath.Join(out, layout.DevicesDir, p.Device)
		var err error
		switch {
		case p.Kind == layout.KindSwitch && p.OS == layout.OSSONiC:
			err = applyGCU(dev, p)
		case p.Kind == layout.KindSwitch:
			err = applySwitch(dev, p)
		default:
			err = applyHost(dev, p)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p.Device, err)
		}
	}
	return nil
}

func copyDir(src, dst string) error {
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("%s exists; preview writes a new folder", dst)
	}
	return copyTree(os.DirFS(src), dst, ".")
}

// copyTree copies the folder fsys, at rel in the fabric directory, to
// dst. A symbolic link is copied as what it points at, file or folder,
// because lint reads through it (os.DirFS follows links): the preview
// must hold the files lint of the original read. A link that points at
// nothing is left out, as other non-regular files are.
func copyTree(fsys fs.FS, dst, rel string) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := path.Join(rel, p)
		target := filepath.Join(dst, filepath.FromSlash(p))
		if d.Type()&fs.ModeSymlink != 0 {
			st, err := fs.Stat(fsys, p)
			if err != nil {
				return nil
			}
			d = fs.FileInfoToDirEntry(st)
			if d.IsDir() && p != "." {
				if skipDir(rel, d) {
					return nil
				}
				sub, err := fs.Sub(fsys, p)
				if err != nil {
					return err
				}
				return copyTree(sub, target, rel)
			}
		}
		if d.IsDir() && skipDir(rel, d) {
			return filepath.SkipDir
		}
		if runtimeEvidence(rel, d) {
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// skipDir reports whether the folder at rel stays out of the preview.
func skipDir(rel string, d fs.DirEntry) bool {
	// The preview is no capture: its changed files would fail the capture
	// manifest's check.
	return rel == path.Dir(layout.CaptureFile) || runtimeEvidence(rel, d)
}

// runtimeEvidence reports whether rel (slash-separated, relative to the
// fabric directory) holds counters: they record what the devices did
// before the fix, so a preview that kept them would judge the fixed
// configuration by the old traffic.
func runtimeEvidence(rel string, d fs.DirEntry) bool {
	base := path.Base(rel)
	if d.IsDir() {
		// Packet captures show the wire before the fix, not after it.
		return base == layout.HWCountersName || base == layout.SysfsBeforeDir || layout.InCaptures(rel)
	}
	return layout.IsEthtoolFile(base) || base == layout.GNMIFile || base == layout.GNMIBeforeFile || base == layout.IntervalFile
}

// applySwitch runs the plan's NVUE lines on the switch's configuration,
// in the format it was captured in. The operational views (`nv show qos
// roce`, `nv show system forwarding packet-trim`, `nv show qos remark`)
// describe the switch before the change, so they are left out.
func applySwitch(dir string, p render.Plan) error {
	text := []byte(strings.Join(p.Fix, "\n") + "\n")
	yamlPath, cmdPath := filepath.Join(dir, layout.NVUEYAMLFile), filepath.Join(dir, layout.NVUECommandsFile)
	var cfg *nvue.Config
	var target string
	var format func(*nvue.Config) []byte
	if data, err := os.ReadFile(yamlPath); err == nil {
		if cfg, err = nvue.ParseYAML(layout.NVUEYAMLFile, data); err != nil {
			return err
		}
		target, format = yamlPath, nvue.FormatYAML
	} else if data, err := os.ReadFile(cmdPath); err == nil {
		// The preview rewrites the whole file from what was read: a line
		// lint could not read would vanish from it, and the preview would
		// pass for a switch whose configuration is partly unknown.
		var errs []*source.Error
		if cfg, errs, _ = nvue.ParseCommands(layout.NVUECommandsFile, data); len(errs) > 0 {
			return errs[0]
		}
		target, format = cmdPath, nvue.FormatCommands
	} else {
		return errors.New("no NVUE configuration to apply the fix to")
	}
	if err := cfg.Apply(p.Device+" fix", text); err != nil {
		return err
	}
	if err := os.WriteFile(target, format(cfg), 0o644); err != nil {
		return err
	}
	// Lint refuses a command form that differs from the YAML beside it, so
	// a switch captured in both forms gets both rewritten.
	if target == yamlPath {
		if _, err := os.Stat(cmdPath); err == nil {
			if err := os.WriteFile(cmdPath, nvue.FormatCommands(cfg), 0o644); err != nil {
				return err
			}
		}
	}
	for _, f := range []string{layout.RoceShowFile, layout.PacketTrimShowFile, layout.RemarkShowFile} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// applyHost interprets the host fix lines render/ produces.
func applyHost(dir string, p render.Plan) error {
	var cmds []string
	for _, line := range p.Fix {
		if guard, rest, ok := strings.Cut(line, " || "); ok {
			// `[ ! -e F ] || cmd`: cmd runs only where F exists.
			w, err := splitWords(guard)
			if err != nil || len(w) != 5 || w[0] != "[" || w[1] != "!" || w[2] != "-e" || w[4] != "]" {
				return fmt.Errorf("preview cannot interpret %q (a custom template?)", line)
			}
			if !previewExists(dir, w[3]) {
				continue
			}
			line = rest
		}
		cmds = append(cmds, strings.Split(line, " && ")...)
	}
	for _, line := range cmds {
		w, err := splitWords(line)
		if err != nil {
			return fmt.Errorf("%q: %v", line, err)
		}
		switch {
		case len(w) > 0 && w[0] == "kubectl":
			return fmt.Errorf("%q: the preview does not apply kubectl patches to the k8s/ manifests", line)
		case len(w) == 2 && w[0] == "touch", len(w) == 5 && w[0] == "sed" && w[2] == "-e" && w[3] == "$a\\":
			// Create nccl.conf, end it with a newline: SetNCCLVar does both.
		case len(w) == 5 && w[0] == "mlnx_qos" && w[1] == "-i":
			err = mlnxQos(dir, w[2], w[3], w[4])
		case len(w) == 7 && w[0] == "mlnx_qos" && w[1] == "-i" && w[3] == "--tsa" && w[5] == "--tcbw":
			err = mlnxQosETS(dir, w[2], w[4], w[6])
		case len(w) == 4 && w[0] == "echo" && w[2] == ">":
			err = sysfsWrite(dir, w[3], w[1])
		case len(w) == 4 && w[0] == "echo" && w[2] == ">>":
			k, v, ok := strings.Cut(w[1], "=")
			if !ok {
				return fmt.Errorf("%q: not a KEY=VALUE line", line)
			}
			err = editNCCL(dir, w[3], func(b []byte) []byte { return hostfiles.SetNCCLVar(b, k, v) })
		case len(w) == 4 && w[0] == "sed" && w[1] == "-i":
			err = sedNCCL(dir, w[2], w[3])
		case len(w) == 7 && w[0] == "ip" && w[1] == "link" && w[2] == "set" && w[3] == "dev" && w[5] == "mtu":
			err = linkMTU(dir, w[4], w[6])
		case len(w) == 6 && w[0] == "mlxconfig" && w[1] == "-d" && w[3] == "-y" && w[4] == "set":
			err = mlxconfigSet(dir, w[2], w[5])
		case len(w) == 4 && w[0] == "setpci" && w[1] == "-s" && strings.HasPrefix(w[3], "ECAP_ACS+0x6.w="):
			err = setACS(dir, w[2], strings.TrimPrefix(w[3], "ECAP_ACS+0x6.w="))
		default:
			return fmt.Errorf("preview cannot interpret %q (a custom template?)", line)
		}
		if err != nil {
			return fmt.Errorf("%q: %v", line, err)
		}
	}
	return nil
}

// editMlnxQos rewrites netdev's mlnx_qos file as `mlnx_qos -i` would print
// it after edit changed its settings.
func editMlnxQos(dir, netdev string, edit func(*hostfiles.MlnxQos) error) error {
	file := filepath.Join(dir, layout.MlnxQosFile(netdev))
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	q, err := hostfiles.ParseMlnxQos(layout.MlnxQosFile(netdev), data)
	if err != nil {
		return err
	}
	if err := edit(q); err != nil {
		return err
	}
	return os.WriteFile(file, hostfiles.FormatMlnxQos(q), 0o644)
}

func mlnxQos(dir, netdev, flag, value string) error {
	return editMlnxQos(dir, netdev, func(q *hostfiles.MlnxQos) error { return setMlnxQos(q, flag, value) })
}

func setMlnxQos(q *hostfiles.MlnxQos, flag, value string) error {
	switch flag {
	case "--trust":
		q.SetTrust(value)
	case "--pfc":
		var pfc [8]bool
		parts := strings.Split(value, ",")
		if len(parts) != 8 {
			return fmt.Errorf("--pfc needs 8 values")
		}
		for i, s := range parts {
			pfc[i] = s == "1"
		}
		q.SetPFC(pfc)
	case "--dscp2prio":
		parts := strings.Split(value, ",")
		if len(parts) != 3 {
			return fmt.Errorf("--dscp2prio needs set|del,DSCP,PRIO")
		}
		d, err1 := strconv.Atoi(parts[1])
		pr, err2 := strconv.Atoi(parts[2])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("--dscp2prio %q", value)
		}
		if parts[0] == "del" {
			q.DelDSCP(d, pr)
		} else {
			q.SetDSCP(d, pr)
		}
	default:
		return fmt.Errorf("mlnx_qos flag %s", flag)
	}
	return nil
}

// sysfsWrite stores what reading the file back would print: the Force-DSCP
// file shows "Global tclass=N" for a written N (knneth/mlnx-ofa_kernel
// drivers/infiniband/hw/mlx5/main_ext.c), the others
// the number.
func sysfsWrite(dir, sysPath, value string) error {
	rel, ok := layout.SysRel(sysPath)
	if !ok {
		return fmt.Errorf("not a sysfs path")
	}
	content, err := sysfsContent(path.Base(rel), value)
	if err != nil {
		return err
	}
	file := filepath.Join(dir, layout.SysfsDir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, content, 0o644)
}

// confFiles are the KEY=value files the nccl-* templates edit, by host
// path: nccl.conf and UCX's ucx.conf, whose NAME=value lines the same sed
// rewrites.
var confFiles = map[string]string{layout.NCCLConfPath: layout.NCCLConfFile, layout.UCXConfPath: layout.UCXConfFile}

// previewExists reports whether the host file at hostPath exists in the
// preview; only the confFiles are files the templates test for.
func previewExists(dir, hostPath string) bool {
	f, ok := confFiles[hostPath]
	if !ok {
		return true
	}
	_, err := os.Stat(filepath.Join(dir, f))
	return err == nil
}

func editNCCL(dir, confPath string, edit func([]byte) []byte) error {
	f, ok := confFiles[confPath]
	if !ok {
		return fmt.Errorf("only %s and %s are previewed", layout.NCCLConfPath, layout.UCXConfPath)
	}
	file := filepath.Join(dir, f)
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.WriteFile(file, edit(data), 0o644)
}

// sedNCCL understands the two sed forms of templates/commands.tmpl:
// s/^KEY=.*/KEY=VALUE/ and /^KEY=/d.
func sedNCCL(dir, script, confPath string) error {
	if rest, ok := strings.CutPrefix(script, "s/^"); ok {
		key, repl, ok := strings.Cut(rest, "=.*/")
		if !ok || !strings.HasSuffix(repl, "/") {
			return fmt.Errorf("sed script %q", script)
		}
		k, v, ok := strings.Cut(strings.TrimSuffix(repl, "/"), "=")
		if !ok || k != key {
			return fmt.Errorf("sed script %q", script)
		}
		return editNCCL(dir, confPath, func(b []byte) []byte { return hostfiles.SetNCCLVar(b, k, v) })
	}
	if rest, ok := strings.CutPrefix(script, "/^"); ok && strings.HasSuffix(rest, "=/d") {
		k := strings.TrimSuffix(rest, "=/d")
		return editNCCL(dir, confPath, func(b []byte) []byte { return hostfiles.DelNCCLVar(b, k) })
	}
	return fmt.Errorf("sed script %q", script)
}

func linkMTU(dir, netdev, value string) error {
	mtu, err := strconv.Atoi(value)
	if err != nil {
		return err
	}
	file := filepath.Join(dir, layout.IPLinkFile)
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	out, err := hostfiles.SetLinkMTU(data, netdev, mtu)
	if err != nil {
		return err
	}
	return os.WriteFile(file, out, 0o644)
}

// splitWords splits a command line as a POSIX shell would for the words
// render/ writes: blanks separate, single quotes quote.
func splitWords(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, errors.New("unterminated quote")
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// mlxconfigSet writes NAME=VALUE into the Next Boot column (the last) of
// the NIC's mlxconfig-<ibdev>.txt, as a later `mlxconfig q` would print it;
// a numeric value keeps an enum's name ("False(0)" → "True(1)").
func mlxconfigSet(dir, ibdev, assign string) error {
	name, value, ok := strings.Cut(assign, "=")
	if !ok {
		return fmt.Errorf("not NAME=VALUE")
	}
	file := filepath.Join(dir, layout.MlxConfigFile(ibdev))
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 || (f[0] != name && !(f[0] == "*" && len(f) > 2 && f[1] == name)) {
			continue
		}
		last := f[len(f)-1]
		nv := value
		if lp := strings.LastIndex(last, "("); lp > 0 && strings.HasSuffix(last, ")") {
			nv = enumName(last[:lp], value) + "(" + value + ")"
		}
		trimmed := strings.TrimRight(l, " ")
		lines[i] = trimmed[:len(trimmed)-len(last)] + nv
		return os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644)
	}
	return fmt.Errorf("%s not in %s", name, layout.MlxConfigFile(ibdev))
}

// enumName is the name mlxconfig prints for a boolean's number; other
// enums keep the printed name.
func enumName(old, value string) string {
	switch {
	case (old == "True" || old == "False") && value == "1":
		return "True"
	case old == "True" || old == "False":
		return "False"
	}
	return old
}

// setACS rewrites the ACSCtl line of the bridge at addr in lspci.txt from
// the register word, as lspci would print it after the write.
func setACS(dir, addr, word string) error {
	v, err := strconv.ParseUint(word, 16, 16)
	if err != nil {
		return err
	}
	file := filepath.Join(dir, layout.LspciFile)
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	in := false
	for i, l := range lines {
		if l != "" && l[0] != ' ' && l[0] != '\t' {
			in = strings.HasPrefix(l, addr+" ")
			continue
		}
		if rest, ok := strings.CutPrefix(strings.TrimLeft(l, " \t"), "ACSCtl:"); ok && in {
			_ = rest
			var fl []string
			for b, name := range hostfiles.ACSFlagOrder {
				sign := "-"
				if v>>b&1 == 1 {
					sign = "+"
				}
				fl = append(fl, name+sign)
			}
			lines[i] = l[:len(l)-len(strings.TrimLeft(l, " \t"))] + "ACSCtl:\t" + strings.Join(fl, " ")
			return os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644)
		}
	}
	return fmt.Errorf("no ACSCtl line for %s in %s", addr, layout.LspciFile)
}

// mlnxQosETS applies `mlnx_qos -i <netdev> --tsa <list> --tcbw <list>`.
func mlnxQosETS(dir, netdev, tsaList, bwList string) error {
	tsa, bw := strings.Split(tsaList, ","), strings.Split(bwList, ",")
	if len(tsa) != 8 || len(bw) != 8 {
		return fmt.Errorf("--tsa and --tcbw need 8 values each")
	}
	var t [8]string
	var b [8]int
	for i := range 8 {
		n, err := strconv.Atoi(bw[i])
		if err != nil {
			return fmt.Errorf("--tcbw %q", bwList)
		}
		t[i], b[i] = tsa[i], n
	}
	return editMlnxQos(dir, netdev, func(q *hostfiles.MlnxQos) error {
		if !q.SetETS(t, b) {
			return fmt.Errorf("mlnx_qos would refuse --tsa %s --tcbw %s", tsaList, bwList)
		}
		return nil
	})
}

// sysfsContent is what reading a written file back prints: RDMA-CM's
// default_roce_mode shows the type written, a newline after it
// (cma_configfs.c default_roce_mode_show), and refuses anything else.
func sysfsContent(base, value string) ([]byte, error) {
	if base == "default_roce_mode" {
		if value != hostfiles.RoCEv1 && value != hostfiles.RoCEv2 {
			return nil, fmt.Errorf("default_roce_mode takes %q or %q", hostfiles.RoCEv1, hostfiles.RoCEv2)
		}
		return []byte(value + "\n"), nil
	}
	v, err := strconv.Atoi(value)
	if err != nil {
		return nil, err
	}
	if base == "traffic_class" {
		return hostfiles.FormatTrafficClass(v), nil
	}
	return hostfiles.FormatSysfsInt(v), nil
}
