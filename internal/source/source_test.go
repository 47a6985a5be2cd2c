package source

import "testing"

func TestSorted(t *testing.T) {
	in := []*Error{
		{Pos: Pos{File: "b.yaml", Line: 2}, Msg: "second\nline"},
		{Pos: Pos{File: "a.yaml", Line: 9}, Msg: "z"},
		{Pos: Pos{File: "b.yaml", Line: 2}, Msg: "first"},
		{Pos: Pos{File: "a.yaml", Line: 9}, Msg: "z"},
		{Pos: Pos{File: "a.yaml", Line: 1}, Device: "sw", Msg: "device last"},
	}
	got := Sorted(in)
	want := "a.yaml:9: z\nb.yaml:2: second line\nb.yaml:2: first\nsw: a.yaml:1: device last"
	if got.Error() != want {
		t.Errorf("Sorted =\n%s\nwant\n%s", got.Error(), want)
	}
	if in[0].File != "b.yaml" {
		t.Error("Sorted reordered its argument")
	}
	if Compare(got[1], got[2]) <= 0 || ComparePos(got[1], got[2]) != 0 {
		t.Errorf("Compare orders by message after the position")
	}
}
