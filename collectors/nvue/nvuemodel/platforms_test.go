package nvuemodel

import "testing"

// TestPlatformFromHeader: the model as the YAML header carries it, read
// through the collector; the first header is the oxidized capture's,
// verbatim.
func TestPlatformFromHeader(t *testing.T) {
	for _, c := range []struct{ header, platform, asic string }{
		{"- header:\n    model: MSN2010\n    nvue-api-version: nvue_v1\n    rev-id: 1.0\n    version: Cumulus Linux 5.9.2\n",
			"MSN2010", "Spectrum"},
		{"- header:\n    model: VX\n    nvue-api-version: nvue_v1\n    rev-id: 1.0\n    version: Cumulus Linux 5.7.0\n",
			"VX", ""},
		{"- header:\n    model: SN5640\n    version: Cumulus Linux 5.15.0\n", "SN5640", "Spectrum-5"},
		{"- header:\n    version: Cumulus Linux 5.15.0\n", "", ""},
	} {
		sw, problems := yamlSwitch(t, c.header+"- set: {}\n")
		if problems != "" {
			t.Fatal(problems)
		}
		if sw.Flow.Platform != c.platform || sw.Flow.ASIC != c.asic {
			t.Errorf("%q: platform %q ASIC %q, want %q %q", c.header, sw.Flow.Platform, sw.Flow.ASIC, c.platform, c.asic)
		}
	}
}
