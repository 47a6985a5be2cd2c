package model

import (
	"fmt"

	"github.com/qoslint/qoslint/internal/layout"
)

// Applications besides NCCL that mark RoCE from the host, by the name the
// report gives them.
const (
	AppNCCL    = "NCCL"
	AppNVSHMEM = "NVSHMEM"
	AppRDMACM  = "RDMA-CM"
	AppUCX     = "UCX"
)

// LayerUCXEtc is the system-wide ucx.conf; UCX's other files are never
// collected.
const LayerUCXEtc = layout.UCXConfPath

// UCXAutoToS is what UCX_IB_TRAFFIC_CLASS=auto, its default, puts in the
// GRH of a RoCE v2 QP when the port forces no traffic_class: "auto" uses
// the port's "Global tclass=N" if any, else UCT_IB_DEFAULT_ROCEV2_DSCP 106
// (openucx/ucx src/uct/ib/base/ib_iface.c uct_ib_iface_t init,
// src/uct/ib/base/ib_device.c uct_ib_device_query_roce_tclass,
// ib_device.h), and 0 on a RoCE v1 or IB port.
const UCXAutoToS = 106

// AppSetting is one application's marking knob (its ToS or its SL) as
// the application reads it on a host.
type AppSetting struct {
	App string
	// Var is the variable that sets it ("UCX_IB_TRAFFIC_CLASS").
	Var string
	// Value is what the QPs get; Auto says the variable is "auto" or
	// unset with an automatic default, Default that it is unset or empty
	// and the application's default applies.
	Value         Value[int]
	Auto, Default bool
	// Layer is the layer that decided (LayerEnv, LayerUCXEtc,
	// LayerDefault); File the file it was read from, Line its line.
	Layer string
	// Plain says the deciding line is the bare NAME=value a sed rewrites;
	// Raw is that line's value.
	Plain bool
	Raw   string
	// Unknown names uncollected layers above Layer that may override it.
	Unknown []string
}

// Knob is how a finding names the setting: "UCX_IB_TRAFFIC_CLASS=26",
// "UCX_IB_TRAFFIC_CLASS auto → 106", "NVSHMEM_IB_SL unset, NVSHMEM's
// default 0".
func (s AppSetting) Knob() string {
	switch {
	case s.Auto && s.Default:
		return fmt.Sprintf("%s unset, %s's auto → %d", s.Var, s.App, s.Value.V)
	case s.Auto:
		return fmt.Sprintf("%s=%s → %d", s.Var, s.Raw, s.Value.V)
	case s.Default:
		return fmt.Sprintf("%s unset, %s's default %d", s.Var, s.App, s.Value.V)
	}
	return fmt.Sprintf("%s=%d", s.Var, s.Value.V)
}
