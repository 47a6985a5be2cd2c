package model

import (
	"github.com/qoslint/qoslint/internal/layout"
)

// The layers that can decide a NIC's ToS, strongest first. NCCL reads a
// parameter with getenv after initEnv has loaded its files with
// setenv(name, value, 0), which never overwrites (NVIDIA/nccl
// src/misc/param.cc initEnvFunc/setEnvFile/ncclGetEnv, src/os/linux.cc
// ncclOsSetEnv): so the process environment beats every file, then
// $NCCL_CONF_FILE when the environment sets it (2.23+) or else
// $HOME/.nccl.conf, then /etc/nccl.conf. A forced traffic_class beats NCCL
// altogether, at the NIC.
const (
	LayerForced   = "traffic_class"
	LayerEnv      = "environment"
	LayerHome     = "~/.nccl.conf"
	LayerConfFile = "$NCCL_CONF_FILE"
	LayerEtc      = layout.NCCLConfPath
	LayerDefault  = "NCCL default"
)

// NCCLParam is one NCCL integer parameter as NCCL reads it from its
// layers: Layer is the one that decided, Unknown the uncollected layers
// above it that may still override it.
type NCCLParam struct {
	Value[int]
	Layer   string
	Unknown []string
}
