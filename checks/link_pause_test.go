package checks

import (
	"fmt"
	"testing"
)

var _ = register(linkPause, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean: no link pause"},
		{name: "link pause on lossless ports (commands)", edits: []edit{appendTo(spine02C,
			"nv set qos link-pause my_pause_ports tx enable\nnv set interface swp1-4,swp6 qos link-pause profile my_pause_ports\n")},
			want: []string{"error spine02 swp1-4,swp6"}, msg: "link pause (qos link-pause profile my_pause_ports) and PFC on switch-priority 3"},
		{name: "link pause on lossless ports (5.14 YAML)", edits: []edit{replace(leaf01Y, "        qos:\n          pfc-watchdog:\n",
			"        qos:\n          link-pause:\n            profile: my_pause_ports\n          pfc-watchdog:\n")},
			want: []string{"error leaf01 swp1-32"}},
		{name: "link pause where RoCE is lossy", edits: []edit{appendTo(spine02C,
			"nv set qos roce mode lossy\nnv set qos link-pause my_pause_ports tx enable\nnv set interface swp5 qos link-pause profile my_pause_ports\n")}},
	}
})

func TestLinkPauseFix(t *testing.T) {
	f := fabric(t, appendTo(spine02C, "nv set qos link-pause P tx enable\nnv set interface swp5 qos link-pause profile P\n"))
	fs := linkPause.Run(f)
	want := []Change{{Kind: NVUEUnset, Path: []string{"interface", "swp5", "qos", "link-pause", "profile"}, Old: "P", HasOld: true}}
	if len(fs) != 1 || fmt.Sprint(fs[0].Changes) != fmt.Sprint(want) {
		t.Fatalf("findings %+v", fs)
	}
}
