package nvue

import (
	"reflect"
	"strings"
	"testing"
)

// The docs' examples are the expected values (testdata/README.md names
// each file's source).
func TestParsePacketTrimShowExamples(t *testing.T) {
	elig := func(ifaces string, line int) []TrimEligibility {
		return []TrimEligibility{{1, ifaces, line}, {2, ifaces, line + 1}, {3, ifaces, line + 2}}
	}
	down := map[string]Field{
		"state":                                {"disabled", "enabled", 4},
		"profile":                              {"", "packet-trim-default", 5},
		"service-port":                         {"swp65", "", 6},
		"size":                                 {"253", "", 7},
		"traffic-class":                        {"4", "", 8},
		"switch-priority":                      {"4", "", 9},
		"remark.dscp":                          {"11", "", 11},
		"session-info.session-id":              {"0xffff", "", 13},
		"session-info.trimmed-packet-counters": {"0", "", 14},
		"session-info.session-down-reason":     {"Failed to create/update span session", "", 15},
	}
	shift := func(m map[string]Field, by int) map[string]Field {
		out := map[string]Field{}
		for k, f := range m {
			f.Line += by
			out[k] = f
		}
		return out
	}
	for _, c := range []struct {
		file string
		want PacketTrimShow
	}{
		{"packet_trim_show_global.txt", PacketTrimShow{
			Leaves: map[string]Field{
				"state":                                {"enabled", "enabled", 4},
				"profile":                              {"", "", 5},
				"service-port":                         {"swp65", "", 6},
				"size":                                 {"1024", "", 7},
				"traffic-class":                        {"4", "", 8},
				"switch-priority":                      {"4", "", 9},
				"remark.dscp":                          {"11", "", 11},
				"session-info.session-id":              {"0x0", "", 13},
				"session-info.trimmed-packet-counters": {"166788", "", 14},
			},
			Eligibility:     elig("swp2-16,18-32,34-48,50-64,swp1s0-1,swp17s0-1,swp33s0-1,swp49s0-1", 20),
			EligibilityLine: 16, RemarkLine: 24,
		}},
		{"packet_trim_show_port_level.txt", PacketTrimShow{
			Leaves: map[string]Field{
				"state":                                {"enabled", "enabled", 4},
				"profile":                              {"", "packet-trim-default", 5},
				"service-port":                         {"swp65", "", 6},
				"size":                                 {"256", "", 7},
				"traffic-class":                        {"4", "", 8},
				"switch-priority":                      {"4", "", 9},
				"remark.dscp":                          {"port-level", "port-level", 11},
				"session-info.session-id":              {"0x0", "", 13},
				"session-info.trimmed-packet-counters": {"166788", "", 14},
			},
			Eligibility:     elig("swp2,4-32,34-48,50-64,swp1s0-1,swp3s0-1,swp33s0-1,swp49s0-1", 20),
			EligibilityLine: 16, RemarkLine: 24,
			Remarks: []TrimRemark{
				{"lossy-multi-tc-host-group", "swp1s0", 4, 21, 28},
				{"lossy-multi-tc-network-group", "swp33s0", 4, 11, 29},
			},
		}},
		{"packet_trim_show_session_down.txt", PacketTrimShow{
			Leaves: down, Eligibility: elig("swp1-60,63-64,swp61s0-7", 21),
			EligibilityLine: 17, RemarkLine: 25,
		}},
		// The NVUE reference prints the command a second time below the
		// prompt: the same table, one line further down.
		{"packet_trim_show_reference.txt", PacketTrimShow{
			Leaves: shift(down, 1), Eligibility: elig("swp1-60,63-64,swp61s0-7", 22),
			EligibilityLine: 18, RemarkLine: 26,
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			got, err := ParsePacketTrimShow(c.file, readTestdata(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			c.want.File = c.file
			if !reflect.DeepEqual(*got, c.want) {
				t.Errorf("got  %+v\nwant %+v", *got, c.want)
			}
		})
	}
}

func TestParsePacketTrimShowErrors(t *testing.T) {
	const file = "devices/sw/nv-show-packet-trim.txt"
	for _, c := range []struct{ in, want string }{
		{"", file + ":1: empty"},
		{"\n\nError: packet-trim is not supported\n", file + ":3: not `nv show system forwarding packet-trim` output"},
		{"Egress Eligibility TC-to-Interface Information\n===\n TC  interface\n --  ---\n one  swp1\n", file + `:5: traffic class "one" is not an integer`},
		{"Egress Eligibility TC-to-Interface Information\n===\n TC  interface\n --  ---\n 9   swp1\n", file + ":5: traffic class 9 is not 0-7"},
		{"Port-Level SP to DSCP Remark Information\n===\n Profile  Interface  SP  DSCP\n -------  ---------  --  ----\n p        swp1       4   64\n", file + ":5: switch priority 4 or DSCP 64 out of range"},
		{"Port-Level SP to DSCP Remark Information\n===\n Profile  Interface  SP  DSCP\n -------  ---------  --  ----\n          swp1       4   6\n", file + ":5: remark row without a profile"},
	} {
		_, err := ParsePacketTrimShow(file, []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
		if err != nil {
			checkError(t, err, file)
		}
	}
}

// A long session-down-reason wraps onto rows without a key.
func TestParsePacketTrimShowWrapped(t *testing.T) {
	in := "                           operational  applied\n" +
		"-------------------------  -----------  -------\n" +
		"state                      disabled     enabled\n" +
		"session-info\n" +
		"  session-down-reason      service port\n" +
		"                           is down\n"
	got, err := ParsePacketTrimShow("x", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if f := got.Leaves["session-info.session-down-reason"]; f.Operational != "service port is down" || f.Line != 5 {
		t.Errorf("%+v", f)
	}
}

func TestParseRemarkShow(t *testing.T) {
	const file = "qos_remark_show_lossy_multi_tc.txt"
	got, err := ParseRemarkShow(file, readTestdata(t, file))
	if err != nil {
		t.Fatal(err)
	}
	want := &RemarkShow{File: file, Profiles: []RemarkShowRow{
		{Profile: "lossy-multi-tc-host-group", Summary: []string{"SP->PCP/DSCP mapping configuration: 4"}, Line: 4},
		{Profile: "lossy-multi-tc-network-group", Summary: []string{"SP->PCP/DSCP mapping configuration: 4"}, Line: 5},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	for _, p := range got.Profiles {
		if sps, ok := p.MappedSPs(); !ok || !reflect.DeepEqual(sps, []int{4}) {
			t.Errorf("%s: mapped %v %v", p.Profile, sps, ok)
		}
	}
	cont := "Profile  Rewrite  Summary\n-------  -------  -------\ng1       l3       SP->PCP/DSCP mapping configuration: 0,3\n                  other: x\n"
	got, err = ParseRemarkShow("y", []byte(cont))
	if err != nil || len(got.Profiles) != 1 || got.Profiles[0].Rewrite != "l3" || len(got.Profiles[0].Summary) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	if sps, ok := got.Profiles[0].MappedSPs(); !ok || !reflect.DeepEqual(sps, []int{0, 3}) {
		t.Errorf("mapped %v %v", sps, ok)
	}
	if got, err := ParseRemarkShow("z", []byte("No Data\n")); err != nil || len(got.Profiles) != 0 {
		t.Errorf("No Data: %+v %v", got, err)
	}
	for _, bad := range []string{"", "bash: nv: command not found\n", "Profile  Rewrite\n-------  -------\n         l3\n"} {
		if _, err := ParseRemarkShow("z", []byte(bad)); err == nil {
			t.Errorf("%q parses", bad)
		} else {
			checkError(t, err, "z")
		}
	}
}

// Eligible traffic classes and WJH triggers are collections: each command
// adds one member, as the YAML form lists them.
func TestTrimCollections(t *testing.T) {
	cmds := "nv set interface swp1-3 packet-trim egress-eligibility traffic-class 1\n" +
		"nv set interface swp1-3 packet-trim egress-eligibility traffic-class 2\n" +
		"nv set system wjh channel buffer trigger buffer\n" +
		"nv set system wjh channel forwarding trigger l2\n" +
		"nv set system wjh channel forwarding trigger l3\n" +
		"nv set system forwarding packet-trim profile packet-trim-default\n"
	yml := "- set:\n    interface:\n      swp1-3:\n        packet-trim:\n          egress-eligibility:\n            traffic-class:\n              '1': {}\n              '2': {}\n" +
		"    system:\n      forwarding:\n        packet-trim:\n          profile: packet-trim-default\n" +
		"      wjh:\n        channel:\n          buffer:\n            trigger:\n              buffer: {}\n          forwarding:\n            trigger:\n              l2: {}\n              l3: {}\n"
	c, errs, _ := ParseCommands("c", []byte(cmds))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	y, err := ParseYAML("y", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	if d := treeDiff(c.Root, y.Root); d != "" {
		t.Errorf("command and YAML forms differ:\n%s", d)
	}
}

func TestMentionsPacketTrim(t *testing.T) {
	for src, want := range map[string]bool{
		"nv set qos roce mode lossless\n":                                        false,
		"nv set qos roce mode lossy-multi-tc\n":                                  true,
		"nv set system forwarding packet-trim state enabled\n":                   true,
		"nv set interface swp1 packet-trim egress-eligibility traffic-class 1\n": true,
		"nv set system forwarding ecmp-hash source-port enabled\n":               false,
	} {
		c, errs, _ := ParseCommands("c", []byte(src))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if got := c.MentionsPacketTrim(); got != want {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
	}
	if (*Config)(nil).MentionsPacketTrim() {
		t.Error("nil config trims")
	}
}
