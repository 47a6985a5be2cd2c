package k8smodel

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/k8s"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// buildManifests builds the Kubernetes model of files (name, then text),
// fixtures of the collector read by their testdata name.
func buildManifests(t *testing.T, files ...string) *model.Fabric {
	t.Helper()
	inv, err := inventory.Parse("inventory.yaml", []byte("fabric: f\nhosts:\n  - {name: gpu01, address: 192.0.2.1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := &k8s.Manifests{}
	for i := 0; i+1 < len(files); i += 2 {
		data := files[i+1]
		if data == "" {
			b, err := os.ReadFile("../testdata/" + files[i])
			if err != nil {
				t.Fatal(err)
			}
			data = string(b)
		}
		if err := m.Parse(files[i], []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	f := &model.Fabric{}
	Build(f, inv, m)
	return f
}

func spx(version, extra string) string {
	return "apiVersion: configuration.net.nvidia.com/v1alpha1\nkind: NicConfigurationTemplate\nmetadata: {name: sx, namespace: nvidia-network-operator}\nspec:\n" +
		"  nicSelector: {nicType: \"1023\"}\n  template:\n    numVfs: 1\n    linkType: Ethernet\n    spectrumXOptimized:\n      enabled: true\n      version: " + version + "\n" + extra
}

func fabricNotes(f *model.Fabric) string {
	var out []string
	for _, n := range f.Notes {
		out = append(out, n.Error())
	}
	return strings.Join(out, "\n")
}

// The operator's RA2.2 profile as a ConfigMap: trust dscp and PFC on
// priority 3 at their lines in the ConfigMap, no ToS, and the runtime
// CNP DSCP 48; nothing is left unverified, so there is no note.
func TestSpectrumXFromProfileConfigMap(t *testing.T) {
	f := buildManifests(t, "k8s/nic.yaml", spx("RA2.2", ""), "spectrum-x-profile-ra2.2.yaml", "")
	kt := f.K8s.Templates[0]
	if kt.SpectrumX == nil || kt.SpectrumX.Profile != "the Spectrum-X profile ConfigMap nvidia-network-operator/RA2.2" {
		t.Fatalf("%+v", kt.SpectrumX)
	}
	if kt.Trust.V != "dscp" || kt.Trust.NotSet != "" || kt.Trust.Pos.Line != 456 || !slices.Equal(kt.PFC.V, []int{3}) || kt.PFC.Pos.Line != 461 {
		t.Errorf("trust %+v pfc %+v", kt.Trust, kt.PFC)
	}
	if kt.ToS.NotSet == "" || !strings.Contains(kt.ToS.NotSet, "sets no ToS") {
		t.Errorf("tos %+v", kt.ToS)
	}
	if c := kt.CNP[model.CNPSysfs]; c.V != 48 || c.NotSet != "" || len(kt.CNP) != 1 {
		t.Errorf("cnp %+v", kt.CNP)
	}
	// RA2.2 is also a built-in name: without a CRD the release is not
	// known, and up to 26.4 the built-in profile would apply.
	if n := fabricNotes(f); !strings.Contains(n, `k8s/nic.yaml:11: NicConfigurationTemplate nvidia-network-operator/sx: no NicConfigurationTemplate CRD in k8s/ shows the operator's release: from Network Operator 26.7 "RA2.2" is the profile ConfigMap`) {
		t.Errorf("notes %s", n)
	}
}

// Parameters for another device, number of planes or multiplane mode are
// not the template's (filterParameters); a later one of a path wins.
func TestSpectrumXProfileFilter(t *testing.T) {
	profile := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sx\n  labels: {" + k8s.ProfileLabel + ": \"\"}\ndata:\n  profile: |\n" +
		"    runtimeConfig:\n      roce:\n" +
		"        - {name: Trust, value: pcp, dmsPath: " + dmsTrust + ", deviceId: \"a2dc\"}\n" +
		"        - {name: PFC, value: \"00001000\", dmsPath: " + dmsPFC + ", breakout: 2}\n" +
		"        - {name: PFC, value: \"00000100\", dmsPath: " + dmsPFC + ", multiplane: hwplb}\n" +
		"        - {name: ToS, value: 104, dmsPath: " + dmsToS + "}\n" +
		"        - {name: ToS, value: 106, dmsPath: " + dmsToS + ", deviceId: \"1023\"}\n" +
		"    mlxConfig:\n      none:\n        \"1023\":\n          postBreakout: {CNP_802P_PRIO_P1: \"5\"}\n"
	f := buildManifests(t, "k8s/nic.yaml", spx("sx", "    rawNvConfig:\n      - {name: CNP_802P_PRIO_P2, value: \"6\"}\n"), "k8s/p.yaml", profile)
	kt := f.K8s.Templates[0]
	if kt.Trust.NotSet == "" || kt.PFC.NotSet == "" || kt.ToS.V != 106 || kt.ToS.Pos.Line != 14 {
		t.Errorf("trust %+v pfc %+v tos %+v", kt.Trust, kt.PFC, kt.ToS)
	}
	if kt.CNP["CNP_802P_PRIO_P1"].V != 5 || kt.CNP["CNP_802P_PRIO_P1"].Pos.Line != 18 || kt.CNP["CNP_802P_PRIO_P2"].V != 6 || kt.CNP["CNP_802P_PRIO_P2"].Default != "" {
		t.Errorf("cnp %+v", kt.CNP)
	}
	if n := fabricNotes(f); n != "" {
		t.Errorf("notes %s", n)
	}
}

// What cannot be resolved is a note at the template's version, never a
// silent pass: nothing of it is judged.
func TestSpectrumXUnresolvedNotes(t *testing.T) {
	two := strings.Replace(string(must(os.ReadFile("../testdata/spectrum-x-profile-ra2.2.yaml"))), "namespace: nvidia-network-operator", "namespace: other", 1)
	for _, tc := range []struct {
		name  string
		files []string
		note  string
	}{
		{"26.7 without the ConfigMap", []string{"k8s/crd.yaml", k8sFile(t, "crd-nicconfigurationtemplates-v26.7.0-rc.2.yaml"), "k8s/nic.yaml", spx("spectrum-x-ra2.3-profile", "")},
			`resolves spectrumXOptimized.version "spectrum-x-ra2.3-profile" to a ConfigMap named "spectrum-x-ra2.3-profile" labelled ` + k8s.ProfileLabel + ", and k8s/ holds none"},
		{"not in the 26.4.1 enum", []string{"k8s/crd.yaml", k8sFile(t, "crd-nicconfigurationtemplates-v26.4.1.yaml"), "k8s/nic.yaml", spx("RA2.3", "")},
			`spectrumXOptimized.version "RA2.3" is not in the enum of the CRD at k8s/crd.yaml:4 (RA1.3, RA2.0, RA2.1, RA2.2)`},
		{"no profile at all", []string{"k8s/nic.yaml", spx("site-profile", "")}, `names no profile k8s/ holds`},
		{"two ConfigMaps of one name", []string{"k8s/nic.yaml", spx("RA2.2", ""), "spectrum-x-profile-ra2.2.yaml", "", "k8s/two.yaml", two},
			`2 ConfigMaps labelled ` + k8s.ProfileLabel + ` are named "RA2.2", and "the latest-reconciled ConfigMap silently wins"`},
	} {
		f := buildManifests(t, tc.files...)
		kt := f.K8s.Templates[0]
		if kt.Trust.NotSet == "" || kt.PFC.NotSet == "" || kt.ToS.NotSet == "" || kt.CNP[model.CNPSysfs].NotSet == "" {
			t.Errorf("%s: judged %+v", tc.name, kt)
		}
		if n := fabricNotes(f); !strings.Contains(n, "k8s/nic.yaml:11: NicConfigurationTemplate nvidia-network-operator/sx: ") || !strings.Contains(n, tc.note) || !strings.Contains(n, "are not verified") {
			t.Errorf("%s: notes %s", tc.name, n)
		}
	}
}

// A built-in name without a CRD: trust and PFC, which every release's
// built-in profile sets alike, are judged; the ToS and CNP DSCP, which
// differ between releases, are not, and the note says so. With the CRD
// the release's own values apply.
func TestSpectrumXBuiltin(t *testing.T) {
	f := buildManifests(t, "k8s/nic.yaml", spx("RA2.0", ""))
	kt := f.K8s.Templates[0]
	if kt.Trust.V != "dscp" || kt.Trust.NotSet != "" || !slices.Equal(kt.PFC.V, []int{3}) || kt.ToS.NotSet == "" || kt.CNP[model.CNPSysfs].NotSet == "" {
		t.Errorf("%+v", kt)
	}
	if n := fabricNotes(f); !strings.Contains(n, `"RA2.0" is judged as the built-in profile of Network Operator 25.10 to 26.4`) || !strings.Contains(n, "are not verified") {
		t.Errorf("notes %s", n)
	}
	for _, tc := range []struct {
		release, mode string
		tos, cnp      int // -1: not set
	}{
		{"25.10.0", "", 96, -1},
		{"26.4.1", "", -1, 48},
		{"26.4.1", "hwplb", -1, 48},
	} {
		extra := ""
		if tc.mode != "" {
			extra = "      multiplaneMode: " + tc.mode + "\n      numberOfPlanes: 2\n"
		}
		f := buildManifests(t, "k8s/crd.yaml", k8sFile(t, "crd-nicconfigurationtemplates-v"+tc.release+".yaml"), "k8s/nic.yaml", spx("RA2.0", extra))
		kt := f.K8s.Templates[0]
		if got := setOr(kt.ToS); got != tc.tos {
			t.Errorf("%s: tos %+v", tc.release, kt.ToS)
		}
		if got := setOr(kt.CNP[model.CNPSysfs]); got != tc.cnp {
			t.Errorf("%s: cnp %+v", tc.release, kt.CNP)
		}
		if n := fabricNotes(f); n != "" {
			t.Errorf("%s: notes %s", tc.release, n)
		}
	}
}

// The 25.7 CRD has no tos, rawNvConfig or spectrumXOptimized: written
// anyway, they are pruned; the operator sets no ToS and its own CNP
// marking, and notes say so.
func TestK8sCRDWithoutFields(t *testing.T) {
	tmpl := "apiVersion: configuration.net.nvidia.com/v1alpha1\nkind: NicConfigurationTemplate\nmetadata: {name: r}\nspec:\n  nicSelector: {nicType: \"1021\"}\n  template:\n" +
		"    numVfs: 0\n    linkType: Ethernet\n    roceOptimized:\n      enabled: true\n      qos: {trust: dscp, pfc: \"0,0,0,1,0,0,0,0\", tos: 106}\n" +
		"    rawNvConfig:\n      - {name: CNP_DSCP_P1, value: \"48\"}\n    spectrumXOptimized: {enabled: true, version: RA2.0}\n"
	f := buildManifests(t, "k8s/crd.yaml", k8sFile(t, "crd-nicconfigurationtemplates-v25.7.0.yaml"), "k8s/nic.yaml", tmpl)
	kt := f.K8s.Templates[0]
	if kt.Conflict || kt.SpectrumX != nil || kt.ToS.NotSet == "" || kt.CNP["CNP_DSCP_P1"].V != 4 {
		t.Fatalf("%+v", kt)
	}
	n := fabricNotes(f)
	for _, want := range []string{
		"k8s/nic.yaml:11: spec.template.roceOptimized.qos.tos is not in the NicConfigurationTemplate CRD at k8s/crd.yaml:4",
		"k8s/nic.yaml:13: spec.template.rawNvConfig is not in the NicConfigurationTemplate CRD",
		"k8s/nic.yaml:14: NicConfigurationTemplate default/r: the NicConfigurationTemplate CRD (k8s/crd.yaml:4) has no spectrumXOptimized",
	} {
		if !strings.Contains(n, want) {
			t.Errorf("notes %s\nlack %s", n, want)
		}
	}
}

func setOr(s model.K8sSetting[int]) int {
	if s.NotSet != "" {
		return -1
	}
	return s.V
}

func k8sFile(t *testing.T, name string) string {
	t.Helper()
	return string(must(os.ReadFile("../testdata/" + name)))
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
