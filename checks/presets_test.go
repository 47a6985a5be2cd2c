package checks

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/collectors/nvue/nvuemodel"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// TestPresetsMatchTheirSwitchProfile: each preset passes the switch checks
// on the NVUE configuration its document gives, and the lossy-multi-tc
// preset shows where CL 5.15's table differs from the 5.18 one it follows.
func TestPresetsMatchTheirSwitchProfile(t *testing.T) {
	base := "nv set interface swp1-4 type swp\nnv set qos roce state enabled\n"
	for _, c := range []struct {
		preset, mode, version string
		want                  string // the findings, one a line
	}{
		{"cumulus-default", "lossless", "5.15.0", ""},
		{"spectrum-x-ra2.0", "lossless", "5.15.0", ""},
		{"cumulus-lossy-multi-tc", "lossy-multi-tc", "5.18.0", ""},
		// The 5.15 example maps DSCP 41-50 to switch priority 0: the CNP's
		// DSCP 48 is not on the preset's priority 5 there.
		{"cumulus-lossy-multi-tc", "lossy-multi-tc", "5.15.0", "switch-cnp error swp1-4: CNP DSCP 48 maps to switch-priority 0, not the CNP priority 5"},
		// qos roce's lossless map (DSCP 0-7 on switch priority 0) does not
		// carry the lossy-multi-tc preset's RoCE.
		{"cumulus-lossy-multi-tc", "lossless", "5.18.0", "switch-roce-mode error : RoCE mode is lossless, not lossy-multi-tc: the switch uses another DSCP map, other traffic classes and no packet trimming\n" +
			"switch-dscp-map error swp1-4: DSCP 5 maps to switch-priority 0, not the RoCE priority 3\n" +
			"switch-dscp-map error swp1-4: DSCP 6 maps to switch-priority 0, not the RoCE priority 3\n" +
			"switch-cnp error swp1-4: CNP DSCP 48 maps to switch-priority 6, not the CNP priority 5"},
	} {
		t.Run(c.preset+"/"+c.mode+"/"+c.version, func(t *testing.T) {
			p, ok := policy.Preset(c.preset)
			if !ok {
				t.Fatalf("no preset %s", c.preset)
			}
			cfg, errs, _ := nvue.ParseCommands("leaf01/nv-config-commands.txt", []byte(base+"nv set qos roce mode "+c.mode+"\n"))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			cfg.Version = "Cumulus Linux " + c.version
			sw, probs := nvuemodel.Switch("leaf01", "leaf", cfg, nil, nil)
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			f := &model.Fabric{Policy: p, Switches: []*model.Switch{sw}}
			got := strings.Join(switchFindings(f), "\n")
			if got != c.want {
				t.Errorf("findings:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}
