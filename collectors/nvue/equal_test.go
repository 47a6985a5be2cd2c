package nvue

import (
	"slices"
	"strings"
	"testing"
)

// TreeDiff finds nothing between the YAML and the command form of one
// configuration (the pairs TestYAMLAndCommandsAgree reads), and names each
// setting one side changed, added or lacks.
func TestTreeDiff(t *testing.T) {
	for _, pair := range [][2]string{{"roce_514.yaml", "roce_514.commands"}, {"roce_515.yaml", "roce_515.commands"}, {"oxidized_5.9.2.yaml", "oxidized_5.9.2.commands"}} {
		y, err := ParseYAML(pair[0], readTestdata(t, pair[0]))
		if err != nil {
			t.Fatal(err)
		}
		cmds := string(readTestdata(t, pair[1]))
		c, err := parseCommands(pair[1], []byte(cmds))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := TreeDiff(y.Root, c.Root); len(a)+len(b) != 0 {
			t.Errorf("%s: %v %v", pair[0], a, b)
		}
		if pair[0] != "roce_514.yaml" {
			continue
		}
		changed := strings.Replace(cmds, "nv set qos roce mode lossless", "nv set qos roce mode lossy", 1) + "nv set system hostname other\n"
		c2, err := parseCommands(pair[1], []byte(changed))
		if err != nil {
			t.Fatal(err)
		}
		a, b := TreeDiff(y.Root, c2.Root)
		if !slices.Equal(a, []string{"qos > roce > mode = lossless", "system > hostname = leaf01"}) ||
			!slices.Equal(b, []string{"qos > roce > mode = lossy", "system > hostname = other"}) {
			t.Errorf("only yaml %q, only commands %q", a, b)
		}
	}
	if a, b := TreeDiff(nil, nil); a != nil || b != nil {
		t.Errorf("nil trees differ: %v %v", a, b)
	}
}
