// Package templates holds the text/template sources render/ executes to
// produce corrective commands and their rollback. They are embedded so the
// binary needs no files beside it.
package templates

import "embed"

// FS holds every template file.
//
//go:embed *.tmpl
var FS embed.FS

// Required are the templates render/ executes; an override folder may
// redefine any of them.
var Required = []string{
	"nvue-set", "nvue-unset", "nvue-apply", "mlnx_qos", "sysfs", "nccl-set", "nccl-add", "nccl-del", "ip-mtu", "mlxconfig", "setpci-acs",
	"opensm-set", "opensm-add", "opensm-del", "opensm-reload", "kubectl-patch",
	"script", "switch-commands", "switch-script", "switch-yaml", "host-config", "host-commands",
}
