package nvrange

import (
	"reflect"
	"testing"
)

func TestExpandNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  bool
	}{
		{in: "swp1-4,swp6", want: []string{"swp1", "swp2", "swp3", "swp4", "swp6"}},
		{in: "swp1-2,32", want: []string{"swp1", "swp2", "swp32"}}, // unattributed public `nv config show -o commands` capture (not verified)
		{in: "eth0,swp19-22", want: []string{"eth0", "swp19", "swp20", "swp21", "swp22"}},
		{in: "swp1s0-3", want: []string{"swp1s0", "swp1s1", "swp1s2", "swp1s3"}},
		{in: "default-global", want: []string{"default-global"}},
		{in: "lo", want: []string{"lo"}},
		{in: "swp10,swp2", want: []string{"swp2", "swp10"}},
		{in: "swp4-1", err: true},
		{in: "swp1-999999", err: true},
		{in: "swp1,,swp2", err: true},
	} {
		got, err := ExpandNames(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("ExpandNames(%q) error = %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if !tc.err && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ExpandNames(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestExpandInts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		err  bool
	}{
		{in: "10,21,36", want: []int{10, 21, 36}}, // CumulusNetworks/docs content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md
		{in: "0-3,5-7", want: []int{0, 1, 2, 3, 5, 6, 7}},
		{in: "3", want: []int{3}},
		{in: "3,3", want: []int{3}},
		{in: "8", err: true},
		{in: "x", err: true},
		{in: "5-2", err: true},
	} {
		got, err := ExpandInts(tc.in, 0, 7)
		if tc.in == "10,21,36" {
			got, err = ExpandInts(tc.in, 0, 63)
		}
		if (err != nil) != tc.err {
			t.Errorf("ExpandInts(%q) error = %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if !tc.err && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ExpandInts(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestCompressRoundTrip(t *testing.T) {
	for _, in := range []string{"swp1-32", "swp1-3,swp5", "eth0,swp19-22", "swp1s0-3,swp2"} {
		names, err := ExpandNames(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := CompressNames(names); got != in {
			t.Errorf("CompressNames(ExpandNames(%q)) = %q", in, got)
		}
	}
	if got := CompressInts([]int{0, 1, 2, 4, 6, 7}); got != "0-2,4,6,7" {
		t.Errorf("CompressInts = %q", got)
	}
}

func TestNaturalLess(t *testing.T) {
	if !NaturalLess("swp2", "swp10") || NaturalLess("swp10", "swp2") || NaturalLess("swp1", "swp1") {
		t.Error("natural order broken")
	}
}
