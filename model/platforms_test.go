package model

import (
	"regexp"
	"strings"
	"testing"
)

// platformQuotes are the lines of NVIDIA's Cumulus Linux pages that state
// a model's ASIC, one per model, as the pages print them (KB and WN-x as
// in platforms.go). The ASIC a line names is the expected value.
var platformQuotes = []struct{ model, quote string }{
	{"SN2010", "| SN2010       | Spectrum   | 3.3.0 | End of Life |"},
	{"SN2100", "| SN2100       | Spectrum   | 3.3.0 | End of Life |"},
	{"SN2410", "| SN2410       | Spectrum   | 3.5.0 | End of Life |"},
	{"SN2700", "| SN2700       | Spectrum   | 3.3.0 | End of Life |"},
	{"SN2201", "NVIDIA SN2201 (1G and 100G Spectrum-1)"},
	{"SN2201_M", "| SN2201_M     | Spectrum   | 5.11.0 | DC version of the switch|"},
	{"SN2201M", "NVIDIA SN2201M (100G Spectrum 1)"},
	{"SN2745M", "HPE SN2745M (100G Spectrum)"},
	{"SN2010M", "HPE M-series SN2010M (25G Spectrum)"},
	{"SN2100M", "HPE SN2100M (100G Mellanox Spectrum)"},
	{"SN2410M", "HPE SN2410M (25G Mellanox Spectrum)"},
	{"SN2700M", "HPE SN2700M (100G Mellanox Spectrum)"},
	{"SN3420", "Mellanox SN3420 (25G Spectrum-2)"},
	{"SN3700", "Mellanox SN3700 (200G Spectrum-2)"},
	{"SN3700C", "Mellanox SN3700C (100G Spectrum-2)"},
	{"SN3700C-S", "Mellanox SN3700C-S (100G Spectrum-2) with Secure Boot"},
	{"SN3750-SX", "NVIDIA SN3750-SX (200G Spectrum-2) is now generally available"},
	{"SN3750SX", "NVIDIA SN3750SX (5G Spectrum-2) available for early access"},
	{"SN4410", "| SN4410       | Spectrum-3 | 5.1.0 | End of Life |"},
	{"SN4600", "Mellanox SN4600 (200G Spectrum-3)"},
	{"SN4600C", "NVIDIA SN4600C (100G Spectrum-3-A1) now generally available"},
	{"SN4700", "NVIDIA SN4700 (Spectrum-3)"},
	{"SN4700C", "Mellanox SN4700C: (400G Spectrum-3)"},
	{"SN4800", "Mellanox SN4800 (100G Spectrum-3)"},
	{"SN5400", "NVIDIA SN5400 (400G Spectrum-4)"},
	{"SN5600", "NVIDIA SN5600 (800G Spectrum-4) - does not support 1G"},
	{"SN5600D", "NVIDIA SN5600D (200G Spectrum-4)"},
	{"SN5610", "| SN5610       | Spectrum-4 | 5.13.1| |"},
	{"SN5640", "NVIDIA SN5640 (800G Spectrum-5) BETA"},
	{"SN6600", "NVIDIA SN6600 (128x800G Spectrum-6)"},
	{"SN6600-LD", "| SN6600-LD    | Spectrum-6 | 5.18.0 | |"},
	{"SN6600_LD", "NVIDIA SN6600_LD (800G Spectrum-6)"},
}

// asicIn reads the ASIC a quoted line names, in the table's spelling.
func asicIn(t *testing.T, quote string) string {
	t.Helper()
	m := regexp.MustCompile(`Spectrum(?:[- ]([1-6]))?`).FindStringSubmatch(quote)
	if m == nil {
		t.Fatalf("no ASIC in %q", quote)
	}
	if m[1] == "" || m[1] == "1" {
		return "Spectrum"
	}
	return "Spectrum-" + m[1]
}

func TestPlatformASICQuotes(t *testing.T) {
	quoted := map[string]bool{}
	for _, q := range platformQuotes {
		want := asicIn(t, q.quote)
		if !strings.Contains(q.quote, q.model) {
			t.Errorf("%q does not name %s", q.quote, q.model)
		}
		if got := ASICOf(q.model); got != want {
			t.Errorf("ASICOf(%q) = %q, want %q (%q)", q.model, got, want, q.quote)
		}
		quoted[q.model] = true
	}
	// No entry without its quoted line here.
	for m := range platformASIC {
		if !quoted[m] {
			t.Errorf("platformASIC[%q] has no quoted line in platformQuotes", m)
		}
	}
}

// TestASICOfHeaders: the spellings configuration headers use.
func TestASICOfHeaders(t *testing.T) {
	for _, c := range []struct{ model, want string }{
		// ytti/oxidized spec/model/data/cumulus#MSN2010_5.9.2_nvue#
		// custom_simulation.yaml, a Cumulus Linux 5.9.2 header.
		{"MSN2010", "Spectrum"},
		// examples/clean-pod leaf01 and spine01.
		{"MSN4700", "Spectrum-3"},
		{"SN5600", "Spectrum-4"},
		{"msn3700c", "Spectrum-2"},
		{" MSN2201M\t", "Spectrum"},
		{"sn6600_ld", "Spectrum-6"},
		// Other products' headers: Cumulus VX, HBN on BlueField, NVOS.
		{"VX", ""}, {"vx", ""}, {"BLUEFIELD", ""}, {"q3400", ""},
		// Named by NVIDIA with contradicting ASICs: not guessed.
		{"SN5800-LD", ""}, {"SN5810-LD", ""},
		// Named without an ASIC, or not at all.
		{"SN2700B", ""}, {"SN3510", ""}, {"SN9999", ""}, {"MSN", ""}, {"", ""},
	} {
		if got := ASICOf(c.model); got != c.want {
			t.Errorf("ASICOf(%q) = %q, want %q", c.model, got, c.want)
		}
	}
}

func TestSpectrumGen(t *testing.T) {
	for asic, want := range map[string]int{"Spectrum": 1, "Spectrum-2": 2, "Spectrum-3": 3, "Spectrum-4": 4, "Spectrum-5": 5,
		"Spectrum-6": 6, "": 0, "Quantum-2": 0, "Spectrum-": 0, "Spectrum-x": 0} {
		if got := SpectrumGen(asic); got != want {
			t.Errorf("SpectrumGen(%q) = %d, want %d", asic, got, want)
		}
	}
	// Every ASIC of the table has a generation.
	for m, asic := range platformASIC {
		if SpectrumGen(asic) == 0 {
			t.Errorf("%s: %q has no generation", m, asic)
		}
	}
}
