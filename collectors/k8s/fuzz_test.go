package k8s

import (
	"os"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, n := range []string{"nictemplate-readme.yaml", "workloads.yaml", "bad.yaml", "nictemplate-spectrum-x.yaml",
		"spectrum-x-profile-ra2.2.yaml", "spectrum-x-profile-example.yaml", "crd-nicconfigurationtemplates-v26.4.1.yaml"} {
		b, err := os.ReadFile("testdata/" + n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m := &Manifests{}
		_ = m.Parse("f.yaml", b)
		for _, w := range m.Workloads {
			for _, p := range w.Pods {
				for _, c := range p.Containers {
					m.Env(w.Namespace, c)
				}
			}
		}
	})
}
