package hostfiles

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// PCIDevice is one function of `lspci -vvv`, with what host-acs needs:
// its place in the PCI tree and its ACS control register.
//
// Shapes (pciutils lspci.c show_verbose / ls-caps.c / ls-ecaps.c cap_acs;
// real outputs in leptonai/gpud pkg/pci/pci.go's comments and in the
// linux-pci list's "lspci -vvvs 00:01." of AMD GPP bridges):
//
//	0000:3b:00.0 PCI bridge: PLX Technology, Inc. PEX 8747 ... (prog-if 00 [Normal decode])
//		Bus: primary=3a, secondary=3b, subordinate=3d, sec-latency=0
//		Capabilities: [68] Express (v2) Downstream Port (Slot+), MSI 00
//		Capabilities: [2a0 v1] Access Control Services
//			ACSCap:	SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans+
//			ACSCtl:	SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-
//		Kernel driver in use: pcieport
//
// The domain prefix is printed with -D or when the machine has more than
// one domain; -nn adds " [0604]" after the class.
type PCIDevice struct {
	Addr                 string // as printed, "3b:00.0" or "0000:3b:00.0"
	Domain, Bus, Dev, Fn int
	Class                string // "PCI bridge", "3D controller"
	Desc                 string // the rest of the header line
	Line                 int
	// PortType is the PCI Express capability's device/port type
	// ("Downstream Port", "Root Port", "Endpoint"); "" when not printed.
	PortType string
	// HasBus is true for a bridge's "Bus: primary=.., secondary=..,
	// subordinate=.." line: the buses below it are Secondary..Subordinate.
	HasBus                 bool
	Secondary, Subordinate int
	// ACSCtl holds the ACS control flags (name → on); nil when the
	// function has no ACS capability.
	ACSCtl  map[string]bool
	ACSLine int
	Driver  string
	// AccessDenied: lspci could not read the extended capabilities (it ran
	// without root), so a missing ACS capability means nothing.
	AccessDenied bool
}

// ACSFlagOrder is the order cap_acs prints the ACSCtl flags in; bit i of
// the ACS Control register (PCIe base spec 7.7.8.3; Linux
// include/uapi/linux/pci_regs.h PCI_ACS_SV .. PCI_ACS_DT).
var ACSFlagOrder = []string{"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd", "EgressCtrl", "DirectTrans"}

var (
	pciHeadRe    = regexp.MustCompile(`^(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7]) ([^:]+?)(?: \[[0-9a-fA-F]{4}\])?: (.*)$`)
	pciBusRe     = regexp.MustCompile(`^Bus: primary=([0-9a-fA-F]{2}), secondary=([0-9a-fA-F]{2}), subordinate=([0-9a-fA-F]{2})`)
	pciExpressRe = regexp.MustCompile(`^Capabilities: \[[0-9a-fA-F]+\] Express \(v\d+\) ([A-Za-z/ -]+?)(?: \(|,|$)`)
	pciACSCapRe  = regexp.MustCompile(`^Capabilities: \[[0-9a-fA-F]+ v\d+\] Access Control Services$`)
)

// ParseLspci parses `lspci -vvv` into its functions in printed order.
// Only the lines host-acs reads are interpreted; a flag line of the ACS
// capability that is not `Name+`/`Name-` words, or text before the first
// function, is an error at its line.
func ParseLspci(file string, data []byte) ([]*PCIDevice, error) {
	var out []*PCIDevice
	var cur *PCIDevice
	inACS := false
	for i, raw := range splitLines(data) {
		n := i + 1
		s := normSpace(raw)
		if s == "" {
			continue
		}
		indented := raw[0] == ' ' || raw[0] == '\t'
		if !indented {
			d, err := pciHeader(s)
			if err != "" {
				return nil, source.Errorf(file, n, "%s: %q", err, clip(s))
			}
			d.Line = n
			out, cur, inACS = append(out, d), d, false
			continue
		}
		if cur == nil {
			return nil, source.Errorf(file, n, "indented line before the first device: %q", clip(s))
		}
		if err := cur.detail(s, n, &inACS); err != "" {
			return nil, source.Errorf(file, n, "%s: %q", err, clip(s))
		}
	}
	return out, nil
}

func pciHeader(s string) (*PCIDevice, string) {
	m := pciHeadRe.FindStringSubmatch(s)
	if m == nil {
		return nil, "not an lspci device line (want [domain:]bus:dev.fn class: description)"
	}
	hex := func(h string) int { v, _ := strconv.ParseUint(h, 16, 32); return int(v) }
	d := &PCIDevice{Bus: hex(m[2]), Dev: hex(m[3]), Fn: hex(m[4]), Class: m[5], Desc: m[6]}
	d.Addr = strings.ToLower(m[2] + ":" + m[3] + "." + m[4])
	if m[1] != "" {
		d.Domain = hex(m[1])
		d.Addr = strings.ToLower(m[1]) + ":" + d.Addr
	}
	return d, ""
}

// detail reads one indented line of the current device.
func (d *PCIDevice) detail(s string, n int, inACS *bool) string {
	if *inACS {
		if rest, ok := strings.CutPrefix(s, "ACSCtl:"); ok {
			*inACS = false
			return d.acsCtl(rest, n)
		}
		if strings.HasPrefix(s, "ACSCap:") {
			return ""
		}
		*inACS = false
	}
	// The expressions are anchored at these literal prefixes: a line
	// without one (most of lspci's thousands per host) is not run through
	// them.
	capability := strings.HasPrefix(s, "Capabilities: [")
	switch {
	case capability && strings.HasSuffix(s, "] Access Control Services") && pciACSCapRe.MatchString(s):
		*inACS = true
	case strings.HasPrefix(s, "Capabilities: <access denied>"):
		d.AccessDenied = true
	case strings.HasPrefix(s, "Kernel driver in use:"):
		d.Driver = strings.TrimSpace(strings.TrimPrefix(s, "Kernel driver in use:"))
	}
	if strings.HasPrefix(s, "Bus: primary=") {
		if m := pciBusRe.FindStringSubmatch(s); m != nil {
			sec, _ := strconv.ParseUint(m[2], 16, 8)
			sub, _ := strconv.ParseUint(m[3], 16, 8)
			d.HasBus, d.Secondary, d.Subordinate = true, int(sec), int(sub)
		}
	}
	if capability && strings.Contains(s, "] Express (v") {
		if m := pciExpressRe.FindStringSubmatch(s); m != nil {
			d.PortType = m[1]
		}
	}
	return ""
}

// acsFlag reads an ACSCtl word, `Name+` or `Name-` (the name ASCII
// letters: ^([A-Za-z]+)([+-])$, without an expression per flag).
func acsFlag(w string) (name string, on, ok bool) {
	if len(w) < 2 || w[len(w)-1] != '+' && w[len(w)-1] != '-' {
		return "", false, false
	}
	name = w[:len(w)-1]
	for i := 0; i < len(name); i++ {
		if c := name[i] | 0x20; c < 'a' || c > 'z' {
			return "", false, false
		}
	}
	return name, w[len(w)-1] == '+', true
}

func (d *PCIDevice) acsCtl(rest string, n int) string {
	flags := map[string]bool{}
	for _, w := range strings.Fields(rest) {
		name, on, ok := acsFlag(w)
		if !ok {
			return "ACSCtl flag " + strconv.Quote(clip(w)) + " is not Name+ or Name-"
		}
		flags[name] = on
	}
	if len(flags) == 0 {
		return "ACSCtl without flags"
	}
	d.ACSCtl, d.ACSLine = flags, n
	return ""
}
