package judge

import "testing"

func TestSeverityZeroIsInvalid(t *testing.T) {
	var s Severity
	if s.Valid() || s.String() == "info" {
		t.Errorf("the zero severity is %q", s)
	}
	if _, err := s.MarshalText(); err == nil {
		t.Error("the zero severity marshals")
	}
	for _, v := range []Severity{Info, Warning, Error} {
		got, err := ParseSeverity(v.String())
		if err != nil || got != v {
			t.Errorf("%s parses as %s, %v", v, got, err)
		}
	}
}
