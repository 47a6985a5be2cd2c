package model

// The `qos roce mode` profiles as NVIDIA documents them, per Cumulus Linux
// release where the documentation differs. Public sources (repository
// CumulusNetworks/docs):
//
//	RoCE514 = content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md
//	RoCE515 = content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md
//	RoCE518 = content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md
//	Trim514 = content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md
//	QoS518  = content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md
//	NVUERef = content/nvue-reference/Set-and-Unset-Commands/QoS.md
//
// Each profile holds the values and, per field, the text its Origin.Default
// carries: "qos roce <mode> default (<where>)" when documented, "... not
// documented, assumed ..." when inferred.

// RoCEModes are the modes NVUE accepts, with the release that introduced
// each: NVUERef "Cumulus Linux 5.12.0 introduces lossless-single-ipool mode";
// lossy-multi-tc first appears in RoCE514/Trim514; dci-1 first appears in
// RoCE518 ("supported on Spectrum‑X platforms only (Spectrum-4, Spectrum-5,
// and Spectrum-6)").
var RoCEModes = []struct{ Mode, Since string }{
	{"lossless", "5.0"}, {"lossy", "5.0"}, {"lossless-single-ipool", "5.12"},
	{"lossy-multi-tc", "5.14"}, {"dci-1", "5.18"},
}

// IsRoCEMode reports whether NVUE knows mode.
func IsRoCEMode(mode string) bool {
	for _, m := range RoCEModes {
		if m.Mode == mode {
			return true
		}
	}
	return false
}

// LosslessMode reports whether a RoCE mode turns PFC on. RoCE518: lossless
// is "RoCE lossless (with PFC and ECN)"; single-ipool only changes the
// ingress pool ("combine lossy and lossless traffic on the same ingress
// buffer pool"); dci-1 runs "traffic class 3 with PFC (lossless intra‑data
// center)". lossy is "RoCE lossy (with ECN)"; lossy-multi-tc shows
// `pfc-priority -` (RoCE515).
func LosslessMode(mode string) bool {
	switch mode {
	case "lossless", "lossless-single-ipool", "dci-1":
		return true
	}
	return false
}

// ModeProfile is what one `qos roce mode` configures on default-global.
type ModeProfile struct {
	Mode  string
	Trust string
	DSCP  [64]int // DSCP → switch priority
	PFC   []int   // switch priorities with PFC
	TC    [8]int  // switch priority → traffic class
	ECN   []int   // traffic classes that mark
	// ECNMin and ECNMax are in bytes; ECNProb is the marking probability.
	ECNMin, ECNMax, ECNProb int
	Sched                   [8]string // per traffic class: strict or dwrr
	SchedBW                 [8]int
	// Why is the Origin.Default text of each field: trust, dscp, pfc, tc,
	// ecn, ecn-threshold, sched.
	Why map[string]string
}

// why returns the origin text of a field.
func (p *ModeProfile) why(field string) string {
	if w, ok := p.Why[field]; ok {
		return w
	}
	return "qos roce " + p.Mode + " default"
}

// KB is NVUE's display unit: `146.48 KB` is 150000 bytes / 1024 (RoCE518
// note: "the system-level ECN minimum threshold value intended for
// programming is 150,000 bytes" next to "146.48 KB").
const KB = 1024

// losslessProfile is the "Default RoCE Configuration" table of RoCE514,
// RoCE515 and RoCE518 (identical) with the values of the `nv show qos roce`
// examples of the same pages (which show lossless-single-ipool with exactly
// these tables). The table's "ECN absolute threshold is 1501500 bytes" is a
// typo for min 150000 / max 1500000: the show output prints `146.48 KB` and
// `1.43 MB`, and the Spectrum-4 note says 150,000 bytes.
func losslessProfile(mode string) ModeProfile {
	p := ModeProfile{
		Mode: mode, Trust: "both", PFC: []int{3}, ECN: []int{0, 3},
		ECNMin: 150000, ECNMax: 1500000, ECNProb: 100,
		Why: map[string]string{
			// `trust-mode pcp,dscp`; that this is NVUE's `trust both` is
			// inferred from the change-RoCE recipe's `trust both`.
			"trust": "qos roce " + mode + " default (pcp,dscp, read as trust both: inferred)",
		},
	}
	for d := range p.DSCP {
		p.DSCP[d] = DefaultPriority(d)
	}
	for sp := range p.TC {
		// "Switch priority 3 to traffic class 3 (RoCE)", "Switch priority
		// 6 to traffic class 6 (CNP)", "Other switch priority to traffic
		// class 0".
		if sp != 3 && sp != 6 {
			p.TC[sp] = 0
		} else {
			p.TC[sp] = sp
		}
	}
	for tc := range p.Sched {
		// "Traffic class 6 (CNP) - Strict", "Traffic class 3 (RoCE) - WRR
		// 50%", "Traffic class 0 (Other traffic) - WRR 50%"; the others
		// carry no traffic and get DWRR 0 ("If you do not specify a value
		// for an egress queue, Cumulus Linux uses a DWRR value of 0",
		// QoS518).
		switch tc {
		case 6:
			p.Sched[tc] = "strict"
		case 0, 3:
			p.Sched[tc], p.SchedBW[tc] = "dwrr", 50
		default:
			p.Sched[tc] = "dwrr"
		}
	}
	return p
}

// lossyProfile: the default table's Lossy Mode column differs only in "Enable
// PFC on switch priority 3 (RoCE) | NO" and the lossless pool. No release
// prints `nv show qos roce` in lossy mode, so the ECN classes (0,3 in the
// lossless example; the table names only traffic class 3) are inferred.
func lossyProfile() ModeProfile {
	p := losslessProfile("lossy")
	p.PFC = nil
	p.Why["ecn"] = "qos roce lossy: ECN classes not documented, assumed as lossless (0,3)"
	p.Why["ecn-threshold"] = p.Why["ecn"]
	return p
}

// lossyMultiTC is the lossy-multi-tc profile from its `nv show qos roce`
// example: Trim514 and RoCE515 print the same tables; RoCE518 maps DSCP 41-50
// to switch priority 5 instead of 0. The RoCE518 example's leaf rows are a
// copy of the lossless-single-ipool example (`mode lossless-single-ipool`,
// `pfc-priority 3`, `enabled-tc 0,3`) under a lossy-multi-tc table, so 5.18
// keeps the 5.14/5.15 leaf values (ECN 1,2,3, 163.00 KB / 234.00 KB,
// probability 5, no PFC), noted as inferred.
func lossyMultiTC(release string) ModeProfile {
	src := "CL " + release + " lossy-multi-tc `nv show qos roce` example"
	p := ModeProfile{
		Mode: "lossy-multi-tc", Trust: "both", ECN: []int{1, 2, 3},
		ECNMin: 163 * KB, ECNMax: 234 * KB, ECNProb: 5,
		Why: map[string]string{
			"trust": "qos roce lossy-multi-tc default (pcp,dscp, read as trust both: inferred; " + src + ")",
			"dscp":  "qos roce lossy-multi-tc default (" + src + ")",
			"pfc":   "qos roce lossy-multi-tc default (pfc-priority -, " + src + ")",
			"tc":    "qos roce lossy-multi-tc default (" + src + ")",
			"sched": "qos roce lossy-multi-tc default (" + src + ")",
			"ecn":   "qos roce lossy-multi-tc default (" + src + ")",
			// 163.00 KB and 234.00 KB are rounded displays: ±5 bytes.
			"ecn-threshold": "qos roce lossy-multi-tc default (163.00 KB / 234.00 KB, " + src + ")",
		},
	}
	if release == "5.18" {
		for _, f := range []string{"pfc", "ecn", "ecn-threshold"} {
			p.Why[f] = "qos roce lossy-multi-tc: the CL 5.18 example's leaf rows are a copy of another mode's, assumed as CL 5.15"
		}
	}
	for d := range p.DSCP {
		p.DSCP[d] = 0
	}
	set := func(sp int, ds ...int) {
		for _, d := range ds {
			p.DSCP[d] = sp
		}
	}
	set(1, 1, 2)
	set(2, 3, 4)
	set(3, 5, 6)
	for d := 11; d <= 40; d++ {
		set(4, d)
	}
	if release == "5.18" {
		for d := 41; d <= 50; d++ {
			set(5, d)
		}
	}
	// "DWRR-4% … DWRR-0%" per switch priority, mapped one to one.
	bw := [8]int{4, 8, 18, 22, 22, 22, 4, 0}
	for i := range p.TC {
		p.TC[i] = i
		p.Sched[i], p.SchedBW[i] = "dwrr", bw[i]
	}
	return p
}

// dci1 is documented in one sentence (RoCE518): "DCI‑1 configures the switch
// to run mixed classes: traffic class 3 with PFC (lossless intra‑data center)
// and traffic class 4 with ECN (lossy data center to data center, without
// PFC)". Everything else, including which switch priority reaches traffic
// class 4, is not documented: assumed as lossless, with switch priority 4 in
// traffic class 4.
func dci1() ModeProfile {
	p := losslessProfile("dci-1")
	p.TC[4] = 4
	p.ECN = []int{0, 3, 4}
	p.Sched[4] = "dwrr"
	assumed := "qos roce dci-1: not documented, assumed as lossless"
	p.Why = map[string]string{
		"trust": assumed, "dscp": assumed, "ecn-threshold": assumed, "sched": assumed,
		"tc":  "qos roce dci-1: not documented, assumed as lossless plus switch-priority 4 → traffic-class 4",
		"ecn": "qos roce dci-1 default (traffic class 4 with ECN; 0 and 3 assumed as lossless)",
		"pfc": "qos roce dci-1 default (traffic class 3 with PFC)",
	}
	return p
}

// ModeTable returns the profile of a RoCE mode on a release ("5.15"; "" when
// unknown, which takes the newest documented table and says so).
func ModeTable(mode, release string) (ModeProfile, bool) {
	switch mode {
	case "lossless", "lossless-single-ipool":
		return losslessProfile(mode), true
	case "lossy":
		return lossyProfile(), true
	case "dci-1":
		return dci1(), true
	case "lossy-multi-tc":
		if release == "" {
			p := lossyMultiTC("5.18")
			p.Why["dscp"] = "qos roce lossy-multi-tc default (release unknown: CL 5.18 table assumed)"
			return p, true
		}
		if olderThan(release, 5, 18) {
			return lossyMultiTC("5.15"), true
		}
		return lossyMultiTC("5.18"), true
	}
	return ModeProfile{}, false
}

// Release reads "5.15" out of a version string ("Cumulus Linux 5.15.0");
// "" when there is none.
func Release(version string) string {
	if r, ok := ParseCLRelease(version); ok {
		return r.String()
	}
	return ""
}

// olderThan reports whether release is known and older than major.minor.
func olderThan(release string, major, minor int) bool {
	r, ok := ParseCLRelease(release)
	return ok && r.Before(CLRelease{major, minor})
}
