package checks

import (
	"testing"
)

var _ = register(k8sCNPConflict, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "rawNvConfig sets CNP DSCP 48", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, rawCNP))}},
		{name: "operator's CNP DSCP 4", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, ""))},
			want: []string{"error " + k8sTmplID}, msg: "CNPs leave with DSCP 4, not the CNP DSCP 48"},
		{name: "on the mapped hosts", edits: []edit{mapNodes(), write("k8s/nic.yaml", nicTemplate(gpuSelector, goodQoS, ""))},
			want: []string{"error gpu01", "error gpu02"}},
	}
})

var _ = register(k8sCNPConflict, func(t testing.TB) []checkCase {
	cnp40 := replace("inventory.hcl", `preset = "cumulus-default"`, "preset = \"cumulus-default\"\n\n  cnp {\n    dscp = 40\n  }")
	return []checkCase{
		{name: "Spectrum-X writes cnp_dscp 48", edits: []edit{write("k8s/nic.yaml", spxTemplate("sx", "")), write("k8s/profile.yaml", spxProfile(t, "sx"))}},
		{name: "Spectrum-X's cnp_dscp 48 under a CNP DSCP 40 policy", edits: []edit{cnp40, write("k8s/nic.yaml", spxTemplate("sx", "")), write("k8s/profile.yaml", spxProfile(t, "sx"))},
			want: []string{"error " + spxID}, msg: "spectrumXOptimized sets the NICs' CNP marking: CNPs leave with DSCP 48, not the CNP DSCP 40"},
		{name: "Spectrum-X 25.10 writes no CNP DSCP", edits: []edit{cnp40, crd(t, "25.10.0"), write("k8s/nic.yaml", spxTemplate("RA1.3", ""))}},
		{name: "a CRD without rawNvConfig: the CNP cannot be overridden", edits: []edit{crd(t, "25.7.0"), write("k8s/nic.yaml", nicTemplate(anySelector, "        trust: dscp\n        pfc: \"0,0,0,1,0,0,0,0\"\n", rawCNP))},
			want: []string{"error " + k8sTmplID}, msg: "has no spec.template.rawNvConfig (it came with Network Operator 25.10"},
	}
})
