package hostfiles

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/internal/source"
)

// MlxConfig is one `mlxconfig -d <dev> q` (or mstflint's `mstconfig -d
// <dev> q`) output: the firmware's persistent (NVCONFIG) parameters.
//
// Two table layouts exist (Mellanox/mstflint mlxconfig/mlxcfg_ui.cpp; real
// outputs: the ConnectX-5 DCQCN walk-through "Enable DCQCN on 5-Generation
// Mellanox Adapter" and the CX-4 SR-IOV note on skyao.io print the first,
// Mellanox/nic-configuration-operator pkg/host/utils_test.go and HPE's
// Slingshot docs print the second):
//
//	Configurations:                              Next Boot
//	         CNP_DSCP_P1                         48
//
//	Configurations:                              Default         Current         Next Boot
//	*        KEEP_IB_LINK_UP_P2                  False(0)        True(1)         True(1)
//	The '*' shows parameters with next value different from default/current value.
//
// Values are numbers (`48`) or enum names with their number (`True(1)`,
// `ETH(2)`, `ECN(0)`); arrays print as `Array[0..7]`.
type MlxConfig struct {
	File string
	// Device is the "Device:" header line's value ("" when absent).
	Device string
	// HasCurrent is true for the Default/Current/Next Boot layout.
	HasCurrent bool
	Params     map[string]MlxParam
}

// MlxParam is one parameter row.
type MlxParam struct {
	Name string
	// Next is the Next Boot column as printed; Default and Current are ""
	// in the one-column layout.
	Default, Current, Next string
	Line                   int
}

var (
	mlxNameRe  = regexp.MustCompile(`^[A-Z][A-Z0-9_]*(\[[0-9.]+\])?$`)
	mlxHeadRe  = regexp.MustCompile(`^(Device type|Name|Description|Device|PCI device|FW Version|Device #\d+):`)
	mlxTrailer = "The '*' shows parameters"
)

// ParseMlxConfig parses `mlxconfig -d <dev> q`. A line it cannot place is
// an error at that line; so is output without a Configurations table
// (mlxconfig printed only its error, e.g. "-E- Failed to open device").
func ParseMlxConfig(file string, data []byte) (*MlxConfig, error) {
	c := &MlxConfig{File: file, Params: map[string]MlxParam{}}
	cols, devices := 0, 0
	for i, raw := range splitLines(data) {
		n := i + 1
		s := normSpace(raw)
		switch {
		case s == "", strings.Trim(s, "-") == "", strings.HasPrefix(s, mlxTrailer):
			continue
		case strings.HasPrefix(s, "-E-"):
			return nil, source.Errorf(file, n, "mlxconfig failed: %q", clip(s))
		case strings.HasPrefix(s, "Configurations:"):
			hdr := strings.TrimSpace(strings.TrimPrefix(s, "Configurations:"))
			switch hdr {
			case "Next Boot":
				cols = 1
			case "Default Current Next Boot":
				cols, c.HasCurrent = 3, true
			default:
				return nil, source.Errorf(file, n, "unknown Configurations columns %q (want \"Next Boot\" or \"Default Current Next Boot\")", clip(hdr))
			}
			continue
		case cols == 0 && mlxHeadRe.MatchString(s):
			if strings.HasPrefix(s, "Device #") {
				if devices++; devices > 1 {
					return nil, source.Errorf(file, n, "a second device: qoslint reads one `mlxconfig -d <dev> q` per file")
				}
			}
			if v, ok := strings.CutPrefix(s, "Device:"); ok {
				c.Device = strings.TrimSpace(v)
			}
			continue
		case cols == 0:
			return nil, source.Errorf(file, n, "not mlxconfig query output before the Configurations table: %q", clip(s))
		}
		if err := c.row(s, n, cols); err != "" {
			return nil, source.Errorf(file, n, "%s: %q", err, clip(s))
		}
	}
	if cols == 0 {
		return nil, source.Errorf(file, 1, "no Configurations table: not `mlxconfig -d <dev> q` output")
	}
	return c, nil
}

// row reads one parameter row; the reason it is not one otherwise.
func (c *MlxConfig) row(s string, n, cols int) string {
	f := strings.Fields(s)
	if len(f) > 0 && f[0] == "*" {
		f = f[1:]
	}
	if len(f) != cols+1 {
		return "want a parameter name and " + strconv.Itoa(cols) + " " + english.Plural(cols, "value", "values")
	}
	if !mlxNameRe.MatchString(f[0]) {
		return "not a parameter name"
	}
	if _, dup := c.Params[f[0]]; dup {
		return "parameter printed twice"
	}
	p := MlxParam{Name: f[0], Next: f[cols], Line: n}
	if cols == 3 {
		p.Default, p.Current = f[1], f[2]
	}
	c.Params[f[0]] = p
	return ""
}
