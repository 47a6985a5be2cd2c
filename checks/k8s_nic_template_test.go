package checks

import (
	"strings"
	"testing"
)

var _ = register(k8sNicTemplate, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "tos 106, trust dscp", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, rawCNP))}},
		{name: "default ToS 0", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, "", ""))},
			want: []string{"error " + k8sTmplID}, msg: "RoCE leaves with ToS 0 (roceOptimized.qos.tos unset or 0"},
		{name: "DSCP as ToS on mapped hosts", edits: []edit{mapNodes(), write("k8s/nic.yaml", nicTemplate(gpuSelector, strings.Replace(goodQoS, "106", "26", 1), ""))},
			want: []string{"error gpu01", "error gpu02"}, msg: "is the DSCP, not the ToS"},
		{name: "trust pcp and PFC moved", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, "        trust: pcp\n        pfc: \"0,0,0,0,1,0,0,0\"\n        tos: 106\n", ""))},
			want: []string{"error " + k8sTmplID, "error " + k8sTmplID}, msg: "PFC is on priority 4 instead of 3"},
		{name: "roceMode 1", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, "")+"      roceMode: 1\n")},
			want: []string{"error " + k8sTmplID}, msg: "RoCE v1"},
		{name: "disabled roceOptimized is not judged", edits: []edit{write("k8s/nic.yaml", strings.Replace(nicTemplate(anySelector, "", ""), "enabled: true", "enabled: false", 1))}},
	}
})

const (
	raPFC = "          value: \"00010000\"\n          dmsPath: /interfaces/interface/nvidia/qos/config/pfc\n          valueType: string\n"
	// raToS is the "Type of Service" entry RA1.3 and RA2.0 carried in
	// Network Operator 25.10 (bindata/spectrum-x/RA2.0.yaml at
	// network-operator-v25.10.0), indented as a profile ConfigMap has it.
	raToS = raPFC + "        - name: Type of Service\n          value: 96\n          dmsPath: /interfaces/interface/nvidia/roce/config/tos\n          valueType: int\n"
)

var _ = register(k8sNicTemplate, func(t testing.TB) []checkCase {
	return []checkCase{
		{name: "Spectrum-X RA2.2 profile ConfigMap", edits: []edit{write("k8s/nic.yaml", spxTemplate("spectrum-x-ra2.2-profile", "")), write("k8s/profile.yaml", spxProfile(t, "spectrum-x-ra2.2-profile"))}},
		{name: "Spectrum-X built in, CRD of 26.4.1", edits: []edit{crd(t, "26.4.1"), write("k8s/nic.yaml", spxTemplate("RA2.2", ""))}},
		{name: "Spectrum-X without its profile is a note", edits: []edit{crd(t, "26.7.0-rc.2"), write("k8s/nic.yaml", spxTemplate("spectrum-x-ra2.3-profile", ""))}},
		{name: "Spectrum-X with roceOptimized", edits: []edit{write("k8s/nic.yaml", spxTemplate("spectrum-x-ra2.2-profile", "    roceOptimized:\n      enabled: true\n")), write("k8s/profile.yaml", spxProfile(t, "spectrum-x-ra2.2-profile"))},
			want: []string{"error " + spxID}, msg: `both spectrumXOptimized and roceOptimized are enabled: "When Spectrum-X optimizations are enabled, roceOptimized must not be enabled`},
		{name: "Spectrum-X profile with PFC on priority 4", edits: []edit{mapNodes(), write("k8s/nic.yaml", strings.Replace(spxTemplate("sx", ""), anySelector, gpuSelector, 1)),
			write("k8s/profile.yaml", spxProfile(t, "sx", `value: "00010000"`, `value: "00001000"`))},
			want: []string{"error gpu01", "error gpu02"}, msg: "PFC is on priority 4 instead of 3"},
		{name: "Spectrum-X profile with Type of Service 96", edits: []edit{write("k8s/nic.yaml", spxTemplate("sx", "")), write("k8s/profile.yaml", spxProfile(t, "sx", raPFC, raToS))},
			want: []string{"error " + spxID}, msg: "the ToS 96 of the Spectrum-X profile ConfigMap nvidia-network-operator/sx puts DSCP 24 on the wire, not the RoCE DSCP 26"},
		{name: "Spectrum-X built-in RA2.0 of 25.10 sets ToS 96", edits: []edit{crd(t, "25.10.0"), write("k8s/nic.yaml", spxTemplate("RA2.0", ""))},
			want: []string{"error " + spxID}, msg: "the ToS 96 of the operator's built-in RA2.0 profile (bindata/spectrum-x/RA2.0.yaml, Network Operator 25.10)"},
		{name: "the Spectrum-X preset takes the 25.10 RA2.0's ToS 96", edits: []edit{replace("inventory.hcl", `preset = "cumulus-default"`, `preset = "spectrum-x-ra2.0"`), crd(t, "25.10.0"), write("k8s/nic.yaml", spxTemplate("RA2.0", ""))}},
		{name: "a CRD without tos: the operator sets no ToS", edits: []edit{crd(t, "25.7.0"), write("k8s/nic.yaml", nicTemplate(anySelector, "", ""))}},
		{name: "a CRD without spectrumXOptimized: not judged", edits: []edit{crd(t, "25.7.0"), write("k8s/nic.yaml", spxTemplate("RA2.0", ""))}},
	}
})
