package live

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// The QoS policy file is read with `cat` of the path opensm.conf's
// qos_policy_file names, in the one allowlisted form; any other path is a
// note and no command.
func TestQoSPolicy(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		sent       string // the cat sent, "" for none
		saved      bool
		note       string
	}{
		{name: "default path", path: layout.QoSPolicyPath, sent: "cat /etc/opensm/qos-policy.conf", saved: true},
		{name: "UFM's conf directory", path: "/opt/ufm/files/conf/opensm/qos-policy.conf", sent: "cat /opt/ufm/files/conf/opensm/qos-policy.conf"},
		{name: "outside the form", path: "/srv/qos.conf", note: `qos-policy.conf not collected: QoS policy file "/srv/qos.conf": qoslint reads only`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "pod")
			if err := os.CopyFS(src, os.DirFS("../../examples/ib-pod")); err != nil {
				t.Fatal(err)
			}
			conf := filepath.Join(src, layout.DevicesDir, "sm01", layout.OpenSMConfFile)
			b, err := os.ReadFile(conf)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, conf, bytes.Replace(b, []byte("qos_policy_file /etc/opensm/qos-policy.conf"), []byte("qos_policy_file "+tc.path), 1))
			p := startPod(t, src, sim.Options{})
			r := Collect(context.Background(), p.inv, p.options())
			got, saved := r.Files["devices/sm01/"+layout.QoSPolicyFile]
			if saved != tc.saved {
				t.Errorf("saved = %v, want %v", saved, tc.saved)
			}
			if want, _ := os.ReadFile(filepath.Join(src, layout.DevicesDir, "sm01", layout.QoSPolicyFile)); tc.saved && !bytes.Equal(got, want) {
				t.Errorf("qos-policy.conf = %q, want %q", got, want)
			}
			seen := p.fab.Seen("sm01")
			cats := slices.DeleteFunc(slices.Clone(seen), func(c string) bool { return !strings.Contains(c, "qos") })
			if tc.sent == "" && len(cats) != 0 || tc.sent != "" && !slices.Equal(cats, []string{tc.sent}) {
				t.Errorf("sent %q, want %q", cats, tc.sent)
			}
			for _, c := range seen {
				if err := devcmd.Check(c); err != nil {
					t.Errorf("sent %q: %v", c, err)
				}
			}
			notes := strings.Join(status(t, r, "sm01").Notes, "\n")
			if tc.note == "" && strings.Contains(notes, "qos-policy") || tc.note != "" && !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q, want %q", notes, tc.note)
			}
			if _, ok := r.Files["devices/gpu01/"+layout.QoSPolicyFile]; ok {
				t.Error("a host without opensm.conf read a policy file")
			}
		})
	}
}
