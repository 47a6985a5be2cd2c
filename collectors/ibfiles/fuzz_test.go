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
	seed(f, "sl2vl-hca.txt", "sl2vl-switch.txt")
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
	f.Add([]byte("# Port info: Lid 5 port 2\nLinkState:.......................Down\n"))
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParsePortInfo("f", b) })
}

func FuzzIBStat(f *testing.F) {
	seed(f, "ibstat.txt")
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseIBStat("f", b) })
}

func FuzzDBCSV(f *testing.F) {
	seed(f, "ibdiagnet/ibdiagnet2.db_csv")
	f.Add([]byte("START_X\nA,\"B\"\n\"1, 2\" , 3\nEND_X\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseDBCSV("f", b)
		if err != nil {
			return
		}
		for _, s := range d.Sections {
			for _, r := range s.Rows {
				if len(r.Fields) != len(s.Header) {
					t.Fatalf("row %d has %d fields, header %d", r.Line, len(r.Fields), len(s.Header))
				}
			}
		}
		// Accessors must fail cleanly or return what they read.
		_, _ = FromIBDiagnet(d, nil)
		_, _ = d.Links()
		_, _ = d.VLArbitration()
	})
}

func FuzzSLVL(f *testing.F) {
	seed(f, "ibdiagnet/ibdiagnet2.slvl")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSLVL("f", b)
		if err != nil {
			return
		}
		for _, r := range s.Rows {
			for _, v := range r.VL {
				if v < 0 || v > 15 {
					t.Fatalf("VL %d out of range", v)
				}
			}
		}
		_ = SL2VLFromSLVL(s, nil)
	})
}

func FuzzQoSPolicy(f *testing.F) {
	seed(f, "qos-policy-ulps.conf", "qos-policy-full.conf")
	f.Add([]byte("qos-levels\n qos-level\n  name: DEFAULT\n end-qos-level\nend-qos-levels\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseQoSPolicy("f", b)
		if err != nil {
			return
		}
		for _, l := range p.Levels {
			if l.SL < -1 || l.SL > 15 {
				t.Fatalf("level SL %d", l.SL)
			}
		}
		for _, r := range p.ULPs {
			if r.SL < 0 || r.SL > 15 {
				t.Fatalf("ULP SL %d", r.SL)
			}
		}
	})
}
