package ibmodel

import (
	"testing"

	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/model"
)

// The inputs are doc/QoS_management_in_OpenSM.txt's shortest policy files
// (linux-rdma/opensm, §5 full and §6 simplified), then variations.
func TestPolicyDefaultSL(t *testing.T) {
	for _, tc := range []struct {
		in       string
		sl, line int
		ok       bool
	}{
		// doc §5's shortest policy file.
		{"qos-levels\n    qos-level\n        name: DEFAULT\n        sl: 0\n    end-qos-level\nend-qos-levels\n", 0, 4, true},
		// doc §6's shortest simplified one.
		{"qos-ulps\n    default  : 0 #default SL\nend-qos-ulps\n", 0, 2, true},
		{"qos-ulps\n  default : 2\n  default : 5\nend-qos-ulps\n", 5, 3, true},
		{"qos-levels\n qos-level\n  name: DEFAULT\n end-qos-level\nend-qos-levels\nqos-ulps\n default : 4\nend-qos-ulps\n", -1, 2, true},
		{"qos-ulps\n  ipoib : 2\nend-qos-ulps\n", 0, 0, false},
		{"", 0, 0, false},
	} {
		p, err := ibfiles.ParseQoSPolicy("f", []byte(tc.in))
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if sl, line, ok := policyDefaultSL(p); sl != tc.sl || line != tc.line || ok != tc.ok {
			t.Errorf("%q: DefaultSL = %d, %d, %v; want %d, %d, %v", tc.in, sl, line, ok, tc.sl, tc.line, tc.ok)
		}
	}
}

// The DEFAULT qos-level wins over the qos-ulps default, whatever their
// order and the case of its name.
func TestPolicyDefaultLevelFirst(t *testing.T) {
	p, err := ibfiles.ParseQoSPolicy("f", []byte("qos-ulps\n default : 1\nend-qos-ulps\nqos-levels\n qos-level\n  name: Default\n  sl: 3\n end-qos-level\nend-qos-levels\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sl, line, ok := policyDefaultSL(p); sl != 3 || line != 7 || !ok {
		t.Errorf("= %d, %d, %v; want 3, 7, true", sl, line, ok)
	}
}

// SMIntent.Config is keyed by ibfiles' class names, which checks look up
// by the model's.
func TestSMClassesAgree(t *testing.T) {
	for _, c := range [][2]string{{model.SMClassCA, ibfiles.ClassCA}, {model.SMClassSW0, ibfiles.ClassSW0}, {model.SMClassSWE, ibfiles.ClassSWE}} {
		if c[0] != c[1] {
			t.Errorf("model class %q, ibfiles %q", c[0], c[1])
		}
	}
}
