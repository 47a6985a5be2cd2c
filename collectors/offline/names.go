package offline

import (
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/names"
	"github.com/qoslint/qoslint/internal/source"
)

// refuseInterfaces takes out of cfg every interface whose name the live
// audit and the renderer refuse (internal/names), each an input error at
// its line: such a name cannot have come from a switch qoslint audited, and
// must never reach a rendered `nv set interface` command.
func (r *reader) refuseInterfaces(cfg *nvue.Config) {
	ifs := cfg.Root.Child("interface")
	if ifs == nil {
		return
	}
	var kept []*nvue.Node
	for _, c := range ifs.Children {
		if names.NVUEInterface(c.Key) {
			kept = append(kept, c)
			continue
		}
		r.fail(source.Pos{File: cfg.File, Line: c.Line}, "interface %q refused: %s; it is not checked", clip(c.Key), names.NVUERule)
	}
	ifs.Children = kept
}

// refuseLinks does the same for the interfaces of ip -j link: a name there
// becomes the argument of `ip link set dev <name> mtu`.
func (r *reader) refuseLinks(file string, links []hostfiles.Link) []hostfiles.Link {
	var kept []hostfiles.Link
	for _, l := range links {
		if names.Netdev(l.Name) {
			kept = append(kept, l)
			continue
		}
		r.fail(source.Pos{File: file, Line: l.Line}, "interface %q refused: want %s; it is not checked", clip(l.Name), names.NetdevRule)
	}
	return kept
}

// clip keeps a hostile name from making one error line megabytes long.
func clip(s string) string {
	const max = 60
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}
