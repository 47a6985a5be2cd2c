package ibfiles

import (
	"os"
	"testing"
)

func seed(f *testing.F, names ...string) {
	for _, n := range names {
		b, err := os.ReadFile("testdata/" + n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

func FuzzOpenSMConf(f *testing.F) {
	seed(f, "opensm.conf")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseOpenSMConf("f", b) })
}

func FuzzSL2VL(f *testing.F) {
	seed(f, "sl2vl-hca.txt")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseSL2VL("f", b) })
}

func FuzzVLArb(f *testing.F) {
	seed(f, "vlarb-hca.txt")
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := ParseVLArb("f", b)
		if err == nil {
			for _, e := range append(v.Low, v.High...) {
				if e.VL > 15 || e.Weight > 255 {
					t.Fatalf("out of range %+v", e)
				}
			}
		}
	})
}

func FuzzPortInfo(f *testing.F) {
	seed(f, "portinfo-hca.txt")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParsePortInfo("f", b) })
}

func FuzzIBStat(f *testing.F) {
	seed(f, "ibstat.txt")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseIBStat("f", b) })
}
