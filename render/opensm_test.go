package render

import (
	"reflect"
	"testing"

	"github.com/qoslint/qoslint/checks"
)

// An opensm.conf fix edits the option in place (or appends it), makes
// OpenSM re-read it once (SIGHUP: linux-rdma/opensm opensm/main.c), and
// rolls back the same way.
func TestOpenSMCommands(t *testing.T) {
	fix, rb := Commands([]checks.Change{
		{Kind: checks.OpenSMConf, Device: "sm01", Target: "/etc/opensm/opensm.conf", Path: []string{"qos_ca_sl2vl"},
			Value: "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7", Old: "0,15,2,3,4,5,6,7,8,9,10,11,12,13,14,7", HasOld: true},
		{Kind: checks.OpenSMConf, Device: "sm01", Target: "/etc/opensm/opensm.conf", Path: []string{"qos_ca_vlarb_low"}, Value: "0:0,1:64"},
		{Kind: checks.OpenSMReload, Device: "sm01"},
	})
	wantFix := []string{
		`sed -i 's/^qos_ca_sl2vl[[:space:]].*/qos_ca_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7/' /etc/opensm/opensm.conf`,
		`sed -i -e '$a\' /etc/opensm/opensm.conf && echo 'qos_ca_vlarb_low 0:0,1:64' >> /etc/opensm/opensm.conf`,
		`kill -HUP $(pidof opensm)`,
	}
	wantRB := []string{
		`sed -i '/^qos_ca_vlarb_low[[:space:]]/d' /etc/opensm/opensm.conf`,
		`sed -i 's/^qos_ca_sl2vl[[:space:]].*/qos_ca_sl2vl 0,15,2,3,4,5,6,7,8,9,10,11,12,13,14,7/' /etc/opensm/opensm.conf`,
		`kill -HUP $(pidof opensm)`,
	}
	if !reflect.DeepEqual(fix, wantFix) || !reflect.DeepEqual(rb, wantRB) {
		t.Errorf("fix:\n%q\nrollback:\n%q", fix, rb)
	}
	for _, bad := range []checks.Change{
		{Kind: checks.OpenSMConf, Target: "/etc/opensm/opensm.conf", Path: []string{"qos_ca_sl2vl"}, Value: "0/;reboot"},
		{Kind: checks.OpenSMConf, Target: "/tmp/x", Path: []string{"qos_ca_sl2vl"}, Value: "0"},
		{Kind: checks.OpenSMConf, Target: "/etc/opensm/opensm.conf", Path: []string{"sweep_interval"}, Value: "0"},
	} {
		if validate("sm01", bad) == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
