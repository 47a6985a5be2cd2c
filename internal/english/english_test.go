package english

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "ports"}, {1, "port"}, {2, "ports"}, {-1, "ports"}} {
		if got := Plural(c.n, "port", "ports"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
