package nvue

import (
	"reflect"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	for _, c := range []struct {
		name, base, text string
		// diff is treeDiff(before, after): "- " lines gone, "+ " lines new.
		diff []string
	}{
		{
			name: "set a new leaf",
			base: "roce_514.yaml",
			text: "nv set qos roce cable-length 50\n",
			diff: []string{"+  > qos > roce > cable-length = 50"},
		},
		{
			name: "replace a leaf",
			base: "roce_514.yaml",
			text: "nv set qos roce mode lossy\n",
			diff: []string{"-  > qos > roce > mode = lossless", "+  > qos > roce > mode = lossy"},
		},
		{
			name: "add a collection member to a config without qos",
			base: "oxidized_5.9.2.yaml",
			text: "nv set qos pfc default-global switch-priority 3\n",
			diff: []string{
				"+  > qos : {}",
				"+  > qos > pfc : {}",
				"+  > qos > pfc > default-global : {}",
				"+  > qos > pfc > default-global > switch-priority : {}",
				"+  > qos > pfc > default-global > switch-priority > 3 : {}",
			},
		},
		{
			name: "add a second member beside the first",
			base: "roce_514.yaml",
			text: "nv set qos pfc default-global switch-priority 4\n",
			diff: []string{"+  > qos > pfc > default-global > switch-priority > 4 : {}"},
		},
		{
			name: "unset a member",
			base: "roce_515.commands",
			text: "nv unset qos pfc default-global switch-priority 3\n",
			diff: []string{"-  > qos > pfc > default-global > switch-priority > 3 : {}"},
		},
		{
			name: "unset a subtree",
			base: "roce_514.yaml",
			text: "nv unset interface swp12 qos\n",
			diff: []string{
				"-  > interface > swp12 > qos : {}",
				"-  > interface > swp12 > qos > congestion-control : {}",
				"-  > interface > swp12 > qos > congestion-control > profile = ROCE_ECN_PROF",
				"-  > interface > swp12 > qos > mapping : {}",
				"-  > interface > swp12 > qos > mapping > profile = ROCE_MAP",
				"-  > interface > swp12 > qos > pfc : {}",
				"-  > interface > swp12 > qos > pfc > profile = ROCE_PFC_PROF",
			},
		},
		{
			name: "unset a leaf by its value",
			base: "roce_514.yaml",
			text: "nv unset qos roce mode lossless\nnv unset qos roce enable off\n",
			diff: []string{"-  > qos > roce > mode = lossless"},
		},
		{
			name: "CL 5.14 syntax: enable on|off",
			base: "roce_514.yaml",
			text: "nv set qos roce enable off\nnv set router adaptive-routing enable off\n",
			diff: []string{
				"-  > qos > roce > enable = on",
				"-  > router > adaptive-routing > enable = on",
				"+  > qos > roce > enable = off",
				"+  > router > adaptive-routing > enable = off",
			},
		},
		{
			name: "CL 5.15 syntax: state enabled|disabled, ipv4 address",
			base: "roce_515.commands",
			text: "nv set qos roce state disabled\nnv set interface lo ipv4 address 10.10.10.9/32\n",
			diff: []string{
				"-  > qos > roce > state = enabled",
				"+  > interface > lo > ipv4 > address > 10.10.10.9/32 : {}",
				"+  > qos > roce > state = disabled",
			},
		},
		{
			name: "a script: comments, blank lines, nv config apply",
			base: "roce_515.yaml",
			text: "# move RoCE to DSCP 24\n\nnv set qos mapping default-global dscp 24 switch-priority 3\r\n" +
				"nv unset qos mapping default-global dscp 26\nnv config apply -y\nnv config apply\n",
			diff: []string{
				"-  > qos > mapping > default-global > dscp > 26 : {}",
				"-  > qos > mapping > default-global > dscp > 26 > switch-priority = 3",
				"+  > qos > mapping > default-global > dscp > 24 : {}",
				"+  > qos > mapping > default-global > dscp > 24 > switch-priority = 3",
			},
		},
		{
			name: "a multi-line banner, as NVUE prints it",
			base: "roce_514.yaml",
			text: "nv set system message pre-login '####\n# it'\"'\"'s ours\n####'\nnv config apply\n",
			diff: []string{
				"+  > system > message : {}",
				"+  > system > message > pre-login = ####\n# it's ours\n####",
			},
		},
		{
			name: "later line wins, unset of an absent path is a no-op",
			base: "roce_515.commands",
			text: "nv set system hostname a\nnv set system hostname leaf01\nnv unset qos link-pause p\n",
		},
		{
			name: "nothing to apply",
			base: "roce_514.yaml",
			text: "# nothing\n\n",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			parse := ParseYAML
			if strings.HasSuffix(c.base, ".commands") {
				parse = parseCommands
			}
			cfg, err := parse(c.base, readTestdata(t, c.base))
			if err != nil {
				t.Fatal(err)
			}
			before := cfg.Clone()
			if err := cfg.Apply("fix.commands", []byte(c.text)); err != nil {
				t.Fatal(err)
			}
			got := treeDiff(before.Root, cfg.Root)
			if want := strings.Join(c.diff, "\n"); got != want {
				t.Errorf("diff:\n%s\nwant:\n%s", got, want)
			}
			if cfg.File != c.base || cfg.Version != before.Version || cfg.Format != before.Format {
				t.Errorf("config header changed: %q %q %q", cfg.File, cfg.Format, cfg.Version)
			}
		})
	}
}

// A node a command sets takes the command's line; others keep theirs.
func TestApplyLines(t *testing.T) {
	cfg, err := ParseYAML("roce_514.yaml", readTestdata(t, "roce_514.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Apply("fix", []byte("# fix\nnv set qos roce mode lossy\nnv set qos pfc default-global switch-priority 4\n")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path []string
		line int
	}{
		{[]string{"qos", "roce", "mode"}, 2},
		{[]string{"qos", "roce", "enable"}, 80},
		{[]string{"qos", "pfc", "default-global", "switch-priority", "4"}, 3},
		{[]string{"qos", "pfc", "default-global", "switch-priority", "3"}, 75},
	} {
		if n := cfg.Root.Get(c.path...); n == nil || n.Line != c.line {
			t.Errorf("%v = %+v, want line %d", c.path, n, c.line)
		}
	}
}

func TestApplyToEmptyConfig(t *testing.T) {
	var cfg Config
	if err := cfg.Apply("new", []byte(docsCommands)); err != nil {
		t.Fatal(err)
	}
	want, err := parseCommands("c", []byte(docsCommands))
	if err != nil {
		t.Fatal(err)
	}
	if d := sameTree(want.Root, cfg.Root); d != "" {
		t.Error(d)
	}
	if err := (*Config)(nil).Apply("x", []byte("nv set a b c")); err == nil {
		t.Error("Apply on a nil config: no error")
	}
}

func TestApplyErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"prompt line", "nv set qos roce mode lossy\ncumulus@leaf01:mgmt:~$ nv set qos roce\n", 2, "not an `nv set`/`nv unset` command"},
		{"other nv command", "nv set qos roce mode lossy\nnv config save\n", 2, "not an `nv set`"},
		{"show command", "\n\nnv show qos roce\n", 3, "not an `nv set`"},
		{"unterminated quote", "nv set qos roce mode lossy\n# ok\nnv set interface swp1 description 'x\n", 3, "unterminated single quote"},
		{"a quote that pairs with a later one", "nv set system hostname 'leaf01\nnv set qos roce mode lossy\nnv set interface swp1 description 'x'\n", 1, "unterminated single quote"},
		{"garbage after good lines", "nv set qos roce mode lossy\n\nthis is not a command\n", 3, "not an `nv set`/`nv unset` command"},
		{"set without path", "nv set   \n", 1, "without a path"},
		{"unset without path", "nv set a b c\nnv unset\n", 2, "without a path"},
		{"empty key", "nv set qos pfc '' rx enable\n", 1, "empty key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := ParseYAML("roce_514.yaml", readTestdata(t, "roce_514.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			before := cfg.Clone()
			err = cfg.Apply("fix.commands", []byte(c.text))
			if err == nil {
				t.Fatal("no error")
			}
			wantSourceError(t, err, "fix.commands", c.line, c.msg)
			// Lines before the bad one are not applied either.
			if !reflect.DeepEqual(before, cfg) {
				t.Errorf("config changed by a failed Apply: %s", treeDiff(before.Root, cfg.Root))
			}
		})
	}
}

func TestParseCommandsIgnoresConfigApply(t *testing.T) {
	cfg, err := parseCommands("c", []byte("nv set qos roce\nnv config apply -y\n"))
	if err != nil {
		t.Fatal(err)
	}
	object(t, cfg.Root, "qos", "roce")
	// A script with nothing but `nv config apply` holds no configuration.
	_, err = parseCommands("c", []byte("nv config apply\n"))
	wantSourceError(t, err, "c", 1, "empty configuration")
}

func TestClone(t *testing.T) {
	cfg, err := ParseYAML("roce_514.yaml", readTestdata(t, "roce_514.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cp := cfg.Clone()
	if !reflect.DeepEqual(cfg, cp) {
		t.Fatal("clone differs")
	}
	if err := cp.Apply("fix", []byte("nv set qos roce mode lossy\nnv unset interface\nnv set system hostname x\n")); err != nil {
		t.Fatal(err)
	}
	cp.Version = "Cumulus Linux 5.15.0"
	if n := leaf(t, cfg.Root, "qos", "roce", "mode"); n.Value != "lossless" {
		t.Errorf("original mode = %q", n.Value)
	}
	if cfg.Root.Child("interface") == nil || cfg.Version != "Cumulus Linux 5.14.0" {
		t.Error("original changed through the clone")
	}
	if leaf(t, cfg.Root, "system", "hostname").Value != "leaf01" {
		t.Error("original hostname changed")
	}
	if (*Config)(nil).Clone() != nil || (&Config{}).Clone().Root != nil {
		t.Error("clone of nil/empty")
	}
}
