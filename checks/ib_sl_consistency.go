package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/collectors/layout"
	"github.com/qoslint/qoslint/inventory/source"
	"github.com/qoslint/qoslint/model"
)

var ibSLConsistency = &Check{
	ID:       "ib-sl-consistency",
	Kind:     KindConfig,
	Devices:  Hosts,
	Severity: Error,
	Title:    "Every host's jobs send on the policy's Service Level",
	Doc: `All ranks of a job should send on one SL, the one the fabric's SL2VL and VL arbitration tables
were built for (policy ib.sl, default 0). NCCL takes it from NCCL_IB_SL (default 0,
NVIDIA/nccl src/transport/net_ib.cc), read like NCCL_IB_TC: the job environment, then
~/.nccl.conf (or $NCCL_CONF_FILE), then /etc/nccl.conf (NVIDIA/nccl src/misc/param.cc). A host
on another SL puts its traffic on another VL, with another arbitration weight, or on a lane the
ports drop. The fix sets NCCL_IB_SL in /etc/nccl.conf; the job environment, when it sets the
variable, still overrides the file.`,
	Inputs: []Input{NCCL},
	Run:    runIBSLConsistency,
}

func runIBSLConsistency(f *model.Fabric) []Finding {
	if f.IB == nil {
		return nil
	}
	want := f.Policy.IB.SL
	var out []Finding
	for _, h := range f.IB.Hosts {
		if !h.SL.Known {
			out = append(out, notCollected(h.Name, []string{"nccl.conf not collected"}, "NCCL_IB_SL"))
			continue
		}
		if h.SL.V == want {
			continue
		}
		out = append(out, Finding{
			Severity: Error, Device: h.Name,
			Message:  fmt.Sprintf("jobs send on SL %d (%s, %s), the policy's SL is %d", h.SL.V, h.SLLayer, h.SL.Origin, want),
			Expected: fmt.Sprintf("SL %d", want), Actual: fmt.Sprintf("SL %d", h.SL.V),
			Source:  slSource(h),
			Changes: slChange(f, h),
		})
	}
	return out
}

// slSource is the line that set the SL, or the nccl.conf NCCL's default
// was read past.
func slSource(h *model.IBHost) source.Pos {
	if p := h.SL.Origin.Pos; !p.IsZero() {
		return p
	}
	return source.Pos{File: layout.DeviceFile(h.Name, layout.NCCLConfFile)}
}

// slChange sets NCCL_IB_SL to the policy's in /etc/nccl.conf.
func slChange(f *model.Fabric, h *model.IBHost) []Change {
	old, hasOld := strconv.Itoa(h.SL.V), !h.SL.Origin.IsDefault() && h.SLLayer == model.LayerEtc
	return []Change{{Kind: NCCLConf, Target: model.NCCLConfPath, Path: []string{"NCCL_IB_SL"}, Value: strconv.Itoa(f.Policy.IB.SL), Old: old, HasOld: hasOld}}
}
