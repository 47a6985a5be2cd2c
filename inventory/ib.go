package inventory

import (
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/internal/source"
)

// Fabric types (fabric_type).
const (
	FabricEthernet   = "ethernet"
	FabricInfiniBand = "infiniband"
	FabricMixed      = "mixed"
)

// HasIB reports whether the fabric has InfiniBand ports to check.
func (inv *Inventory) HasIB() bool {
	return inv.FabricType == FabricInfiniBand || inv.FabricType == FabricMixed
}

func buildFabricType(f field[string], p *problems) string {
	if !f.Set {
		return "" // ethernet, and no new field in an Ethernet inventory
	}
	switch f.V {
	case FabricEthernet, FabricInfiniBand, FabricMixed:
		return f.V
	}
	p.semantic(f.Line, "fabric_type %q: want infiniband, ethernet or mixed", f.V)
	return FabricEthernet
}

// buildIB checks ib.sl (0-15) and ib.vl (0-14: VL 15 is the management
// lane, and an SL mapped to it is dropped, IBA 7.6.6 as OpenSM's
// doc/QoS_management_in_OpenSM.txt §7 says) and records their positions.
func buildIB(file string, r *rawPolicy, pos map[string]source.Pos, p *problems) policy.IBPolicy {
	ib := policy.IBPolicy{}
	if r.IBSL.Set {
		if r.IBSL.V < 0 || r.IBSL.V > 15 {
			p.semantic(r.IBSL.Line, "ib.sl %d: want 0-15", r.IBSL.V)
		}
		ib.SL = r.IBSL.V
		pos["ib.sl"] = source.Pos{File: file, Line: r.IBSL.Line}
	}
	if r.IBVL.Set {
		if r.IBVL.V < 0 || r.IBVL.V > 14 {
			p.semantic(r.IBVL.Line, "ib.vl %d: want 0-14 (VL 15 drops data)", r.IBVL.V)
		}
		ib.VL, ib.HasVL = r.IBVL.V, true
		pos["ib.vl"] = source.Pos{File: file, Line: r.IBVL.Line}
	}
	if f := r.IBAdaptiveRouting; f.Set {
		ib.AdaptiveRouting, ib.HasAdaptiveRouting = f.V, true
		pos["ib.adaptive_routing"] = source.Pos{File: file, Line: f.Line}
	}
	return ib
}
