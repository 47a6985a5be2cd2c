package model

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/hostfiles"
)

func lspci(t *testing.T, edit func(string) string) []*hostfiles.PCIDevice {
	t.Helper()
	data, err := os.ReadFile("../collectors/hostfiles/testdata/lspci/constructed_plx_switch.txt")
	if err != nil {
		t.Fatal(err)
	}
	devs, err := hostfiles.ParseLspci("lspci.txt", []byte(edit(string(data))))
	if err != nil {
		t.Fatal(err)
	}
	return devs
}

func TestACSBetween(t *testing.T) {
	const dspCtl = "ACSCtl:\tSrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-"
	const dspOn = "ACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-"
	for _, c := range []struct {
		name   string
		edit   func(string) string
		want   string
		paired bool
	}{
		// The root port above the switch redirects, but NIC and GPU meet
		// in the switch: it is not on their path.
		{"switch ports off", func(s string) string { return s }, "", true},
		{"first downstream port on", func(s string) string { return strings.Replace(s, dspCtl, dspOn, 1) },
			"0000:3c:08.0 ReqRedir,CmpltRedir 0000:3d:00.0 0000:3e:00.0 word 0x11", true},
		{"no GPU: every switch port", func(s string) string {
			return strings.Replace(strings.Replace(s, dspCtl, dspOn, 1), "3D controller: NVIDIA", "3D controller: Other", 1)
		}, "0000:3c:08.0 ReqRedir,CmpltRedir   word 0x11", false},
	} {
		got, paired := ACSBetween(lspci(t, c.edit))
		var s []string
		for _, b := range got {
			s = append(s, b.Dev.Addr+" "+strings.Join(b.On, ",")+" "+b.NIC+" "+b.GPU+" word "+hex16(b.Word()))
		}
		if strings.Join(s, "; ") != c.want || paired != c.paired {
			t.Errorf("%s: got %q paired %v, want %q %v", c.name, strings.Join(s, "; "), paired, c.want, c.paired)
		}
	}
}

func hex16(w uint16) string { return fmt.Sprintf("%#x", w) }
