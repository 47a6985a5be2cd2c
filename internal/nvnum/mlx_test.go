package nvnum

import "testing"

func TestMlxNum(t *testing.T) {
	for v, want := range map[string]int{"48": 48, "True(1)": 1, "False(0)": 0, "ETH(2)": 2, "_256KB(1)": 1, "0x20": 32} {
		if got, ok := MlxNum(v); !ok || got != want {
			t.Errorf("MlxNum(%q) = %d, %v; want %d", v, got, ok, want)
		}
	}
	for _, v := range []string{"Array[0..7]", "", "True", "ETH(x)"} {
		if _, ok := MlxNum(v); ok {
			t.Errorf("MlxNum(%q) ok", v)
		}
	}
}
