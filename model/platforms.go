package model

import (
	"strconv"
	"strings"
)

// platformASIC maps each Spectrum switch model that NVIDIA's Cumulus Linux
// pages name to the ASIC the same page states for it, normalised to
// "Spectrum" (the pages also write "Spectrum 1" and "Spectrum-1") and
// "Spectrum-2" .. "Spectrum-6" (the stepping of "Spectrum-3-A1" dropped).
// Every entry quotes its line; all paths are in the public repository
// CumulusNetworks/docs. KB is content/knowledge-base/Support/
// Support-Offerings/Minimum-Cumulus-Linux-Release-for-Each-Switch-Model.md,
// whose table reads "| Switch Model | ASIC | Minimum Cumulus Linux Release |
// Notes |" (two stored revisions: de0ef007 lists SN3700C-S and SN4600C,
// 1da71db SN4600 and SN5600D; both list the rest). WN-x is
// content/cumulus-linux-x/Whats-New/_index.md, its "Platforms" list.
//
// Not in the table, so their ASIC stays unknown (ASICOf returns ""):
// SN5800-LD and SN5810-LD, whose two revisions of WN-518 disagree ("NVIDIA
// SN5800-LD (400G Spectrum-5 Multi-ASIC)" and "NVIDIA SN5800-LD (800G
// Spectrum-6 Multi-ASIC) Beta"), and the final revision drops them;
// SN2700B and SN3510, named without an ASIC; other vendors' boxes without
// an SN model (Penguin Arctica, IBM 02JE062) of the 3.x pages, which
// predate NVUE.
var platformASIC = map[string]string{
	// Spectrum.
	"SN2010": "Spectrum", // KB "| SN2010       | Spectrum   | 3.3.0 | End of Life |"; WN-41 "Mellanox SN2010 with 32G RAM (25G Spectrum)"
	"SN2100": "Spectrum", // KB "| SN2100       | Spectrum   | 3.3.0 | End of Life |"
	"SN2410": "Spectrum", // KB "| SN2410       | Spectrum   | 3.5.0 | End of Life |"
	"SN2700": "Spectrum", // KB "| SN2700       | Spectrum   | 3.3.0 | End of Life |"
	"SN2201": "Spectrum", // KB "| SN2201       | Spectrum   | 5.2.0 | |"; WN-52 "NVIDIA SN2201 (1G and 100G Spectrum-1)"
	// The DC version of the SN2201, spelled both ways.
	"SN2201_M": "Spectrum", // KB "| SN2201_M     | Spectrum   | 5.11.0 | DC version of the switch|"
	"SN2201M":  "Spectrum", // WN-511 "NVIDIA SN2201M (100G Spectrum 1)"
	// HPE's M variants (content/cumulus-linux-40/ and -37/Whats-New/_index.md).
	"SN2745M": "Spectrum", // WN-40 "HPE SN2745M (100G Spectrum)"
	"SN2010M": "Spectrum", // WN-37 "HPE M-series SN2010M (25G Spectrum)"
	"SN2100M": "Spectrum", // WN-37 "HPE SN2100M (100G Mellanox Spectrum)"
	"SN2410M": "Spectrum", // WN-37 "HPE SN2410M (25G Mellanox Spectrum)"
	"SN2700M": "Spectrum", // WN-37 "HPE SN2700M (100G Mellanox Spectrum)"

	// Spectrum-2.
	"SN3420":    "Spectrum-2", // KB "| SN3420       | Spectrum-2 | 4.2.0 | |"; WN-42 "Mellanox SN3420 (25G Spectrum-2)"
	"SN3700":    "Spectrum-2", // KB "| SN3700       | Spectrum-2 | 4.0.0 | End of Life |"; WN-40 "Mellanox SN3700 (200G Spectrum-2)"
	"SN3700C":   "Spectrum-2", // KB "| SN3700C      | Spectrum-2 | 4.0.0 | End of Life |"; WN-40 "Mellanox SN3700C (100G Spectrum-2)"
	"SN3700C-S": "Spectrum-2", // KB "| SN3700C-S    | Spectrum-2 | 5.0.0 | |"; WN-44 "Mellanox SN3700C-S (100G Spectrum-2) with Secure Boot"
	// The pages spell the SN3750-SX both ways.
	"SN3750-SX": "Spectrum-2", // WN-56 "NVIDIA SN3750-SX (200G Spectrum-2) is now generally available"
	"SN3750SX":  "Spectrum-2", // WN-53 "NVIDIA SN3750SX (5G Spectrum-2) available for early access"

	// Spectrum-3.
	"SN4410":  "Spectrum-3", // KB "| SN4410       | Spectrum-3 | 5.1.0 | End of Life |"; WN-43 "Mellanox SN4410 (400G Spectrum-3)"
	"SN4600":  "Spectrum-3", // KB "| SN4600       | Spectrum-3 | 5.1.0 | End of Life |"; WN-43 "Mellanox SN4600 (200G Spectrum-3)"
	"SN4600C": "Spectrum-3", // KB "| SN4600C      | Spectrum-3 | 5.1.0 | |"; WN-51 "NVIDIA SN4600C (100G Spectrum-3-A1) now generally available"
	"SN4700":  "Spectrum-3", // KB "| SN4700       | Spectrum-3 | 5.1.0 | |"; WN-519 "NVIDIA SN4700 (Spectrum-3)"
	"SN4700C": "Spectrum-3", // a revision of WN-42: "Mellanox SN4700C: (400G Spectrum-3)"
	"SN4800":  "Spectrum-3", // WN-43 "Mellanox SN4800 (100G Spectrum-3)"

	// Spectrum-4.
	"SN5400":  "Spectrum-4", // KB "| SN5400       | Spectrum-4 | 5.9.0 | |"; WN-510 "NVIDIA SN5400 (400G Spectrum-4)"
	"SN5600":  "Spectrum-4", // KB "| SN5600       | Spectrum-4 | 5.8.0 | |"; WN-56 "NVIDIA SN5600 (800G Spectrum-4) - does not support 1G"
	"SN5600D": "Spectrum-4", // KB "| SN5600D      | Spectrum-4 | | DC version of the switch|"; WN-513 "NVIDIA SN5600D (200G Spectrum-4)"
	"SN5610":  "Spectrum-4", // KB "| SN5610       | Spectrum-4 | 5.13.1| |"; a revision of WN-512 "SN5610 (800G Spectrum-4)"

	// Spectrum-5.
	"SN5640": "Spectrum-5", // WN-514 "NVIDIA SN5640 (800G Spectrum-5) BETA"

	// Spectrum-6, spelled SN6600-LD (KB) and SN6600_LD (WN-518).
	"SN6600":    "Spectrum-6", // WN-519 "NVIDIA SN6600 (128x800G Spectrum-6)"
	"SN6600-LD": "Spectrum-6", // KB "| SN6600-LD    | Spectrum-6 | 5.18.0 | |"
	"SN6600_LD": "Spectrum-6", // a revision of WN-518: "NVIDIA SN6600_LD (800G Spectrum-6)"
}

// ASICOf is the Spectrum generation of a configuration header's model, ""
// when no NVIDIA page states one. Headers write "MSN" where the pages write
// "SN" (`model: MSN2010` in the Cumulus Linux 5.9.2 capture of
// ytti/oxidized spec/model/data/cumulus#MSN2010_5.9.2_nvue#
// custom_simulation.yaml); the model is compared without case or
// surrounding space. A header of another product (`model: VX`, Cumulus
// VX, in the `nv config show` examples of CumulusNetworks/docs) is no
// Spectrum switch.
func ASICOf(model string) string {
	m := strings.ToUpper(strings.TrimSpace(model))
	if strings.HasPrefix(m, "MSN") {
		m = m[1:]
	}
	return platformASIC[m]
}

// SpectrumGen is the generation number of "Spectrum-4" (1 for "Spectrum"),
// 0 when unknown.
func SpectrumGen(asic string) int {
	if asic == "Spectrum" {
		return 1
	}
	n, err := strconv.Atoi(strings.TrimPrefix(asic, "Spectrum-"))
	if err != nil || !strings.HasPrefix(asic, "Spectrum-") {
		return 0
	}
	return n
}

// MarksECNWithoutWREDEnable reports whether a switch of asic marks ECN from
// a WRED profile's ECN mode alone, without WRED enabled for the colour
// (SONiC's wred_green_enable): an NVIDIA Spectrum. NVIDIA's own Spectrum-4
// SKUs for lossy RoCE mark their queues 1-3 so, "ecn": "ecn_all" beside
// "wred_green_enable": "false" (sonic-net/sonic-buildimage
// device/mellanox/x86_64-nvidia_sn5600-r0/Mellanox-SN5600-C256S1/
// qos.json.j2 and x86_64-nvidia_sn6600_ld-r0/Mellanox-SN6600_LD-P128C2/
// qos.json.j2, AZURE_LOSSY_*_Q1..Q3), and Mellanox's SAI change "allow
// enabling of ecn without wred in wred profile" (opencomputeproject/SAI#112)
// made ECN marking independent of the WRED enables. Elsewhere the SAI
// spec's default holds: SAI_WRED_ATTR_GREEN_ENABLE false leaves green
// packets neither dropped nor marked (sonic-net/sonic-buildimage#4545).
// Not verified on a device.
func MarksECNWithoutWREDEnable(asic string) bool { return SpectrumGen(asic) > 0 }
