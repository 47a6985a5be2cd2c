package hostmodel

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/model"
)

func lspci(t *testing.T, edit func(string) string) []*model.PCIDevice {
	t.Helper()
	data, err := os.ReadFile("../testdata/lspci/constructed_plx_switch.txt")
	if err != nil {
		t.Fatal(err)
	}
	devs, err := hostfiles.ParseLspci("lspci.txt", []byte(edit(string(data))))
	if err != nil {
		t.Fatal(err)
	}
	return pciDevices(devs)
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
		got, paired := model.ACSBetween(lspci(t, c.edit))
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

// TestPCIPath reads the tree of a constructed PLX switch holding a
// ConnectX and a GPU (testdata of hostfiles' TestParseLspci): the ACS
// Control word and each function's bridges up to the root.
func TestPCIPath(t *testing.T) {
	devs := lspci(t, func(s string) string { return s })
	if len(devs) != 6 {
		t.Fatalf("%d devices", len(devs))
	}
	rp, nic, gpu := devs[0], devs[4], devs[5]
	if rp.ACSCtlWord() != 0x1d {
		t.Errorf("root port %+v word %#x", rp, rp.ACSCtlWord())
	}
	path := func(d *model.PCIDevice) string {
		var s []string
		for _, b := range model.PCIPath(devs, d) {
			s = append(s, b.Addr)
		}
		return strings.Join(s, " ")
	}
	if got := path(nic); got != "0000:3c:08.0 0000:3b:00.0 0000:3a:00.0" {
		t.Errorf("nic path %q", got)
	}
	if got := path(gpu); got != "0000:3c:10.0 0000:3b:00.0 0000:3a:00.0" {
		t.Errorf("gpu path %q", got)
	}
}

// The model numbers the ACS Control bits by the flags lspci prints.
func TestACSFlagOrderAgrees(t *testing.T) {
	if !slices.Equal(model.ACSFlagOrder, hostfiles.ACSFlagOrder) {
		t.Errorf("model %v, hostfiles %v", model.ACSFlagOrder, hostfiles.ACSFlagOrder)
	}
}

// FuzzPCIPath holds PCIPath to its bound on any tree lspci output can
// describe, cycles included.
func FuzzPCIPath(f *testing.F) {
	files, err := filepath.Glob("../testdata/lspci/*")
	if err != nil || len(files) == 0 {
		f.Fatal("no lspci seeds", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := hostfiles.ParseLspci("lspci.txt", data)
		if err != nil {
			return
		}
		devs := pciDevices(in)
		for _, d := range devs {
			if len(model.PCIPath(devs, d)) > len(devs) {
				t.Fatalf("path longer than the device list")
			}
		}
	})
}

// Hosts whose lspci prints the same functions share one list, equal to
// the one each would build; a host whose tree differs in any field (an
// ACS flag, a line) builds its own.
func TestPCIDevicesShared(t *testing.T) {
	same := func(s string) string { return s }
	a, b := lspci(t, same), lspci(t, same)
	data, err := os.ReadFile("../testdata/lspci/constructed_plx_switch.txt")
	if err != nil {
		t.Fatal(err)
	}
	in, err := hostfiles.ParseLspci("lspci.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	own := newPCIDevices(in)
	if &a[0] != &b[0] || !reflect.DeepEqual(a, own) {
		t.Error("two hosts printing the same lspci do not share one list equal to their own")
	}
	for name, edit := range map[string]func(string) string{
		"ACS flag": func(s string) string { return strings.Replace(s, "ReqRedir-", "ReqRedir+", 1) },
		"line":     func(s string) string { return "\n" + s },
	} {
		if c := lspci(t, edit); &c[0] == &a[0] {
			t.Errorf("%s changed: the host shares the unchanged list", name)
		}
	}
}
