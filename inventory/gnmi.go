package inventory

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultGNMIPort is the Cumulus gNMI agent's port (Cumulus Linux docs,
// "gNMI Streaming").
const DefaultGNMIPort = 9339

// maxGNMITimeout bounds gnmi.timeout: a longer wait is a typo (30m for 30s)
// rather than a switch that slow.
const maxGNMITimeout = time.Hour

// gNMI rules, the same for YAML and HCL:
//
//   - port and every switch's gnmi_port are 1..65535.
//   - ca_file is a path as in the credential rules (creds.go) and, like
//     skip_verify: true, needs tls: true; ca_file and skip_verify: true
//     together are refused, since the CA would never be used.
//   - timeout is a Go duration ("30s", "1m30s"), above 0 and at most 1h.
//   - The switches log in with their SSH username and password_env.
func buildGNMI(raw rawGNMI, p *problems) GNMI {
	var g GNMI
	if f := raw.Port; f.Set && inRange(p, f.Line, "gnmi.port", f.V, 1, 65535) {
		g.Port = f.V
	}
	g.TLS = raw.TLS.Set && raw.TLS.V
	if f := raw.CAFile; f.Set {
		g.CAFile = checkPath("gnmi.ca_file", f, p)
		if !g.TLS {
			p.semantic(f.Line, "gnmi.ca_file needs tls: true")
		}
	}
	if f := raw.SkipVerify; f.Set && f.V {
		switch {
		case !g.TLS:
			p.semantic(f.Line, "gnmi.skip_verify needs tls: true")
		case raw.CAFile.Set:
			p.semantic(f.Line, "gnmi.skip_verify: true makes ca_file useless: set one or the other")
		default:
			g.SkipVerify = true
		}
	}
	if f := raw.Timeout; f.Set {
		d, err := time.ParseDuration(strings.TrimSpace(f.V))
		switch {
		case err != nil:
			p.semantic(f.Line, "gnmi.timeout %s is not a duration (write e.g. 30s or 1m30s)", strconv.Quote(f.V))
		case d <= 0 || d > maxGNMITimeout:
			p.semantic(f.Line, "gnmi.timeout %s out of range (above 0, at most %s)", f.V, maxGNMITimeout)
		default:
			g.Timeout = d
		}
	}
	return g
}

// GNMIPort is the port of s's gNMI server: its gnmi_port, else gnmi.port,
// else DefaultGNMIPort.
func (inv *Inventory) GNMIPort(s Switch) int {
	switch {
	case s.GNMIPort != 0:
		return s.GNMIPort
	case inv.GNMI.Port != 0:
		return inv.GNMI.Port
	}
	return DefaultGNMIPort
}

// GNMICAPath is the CA file to verify the switches' gNMI certificates
// against, a relative gnmi.ca_file taken relative to invDir; "" means the
// system roots. A path starting with '~' is returned as written.
func (inv *Inventory) GNMICAPath(invDir string) string {
	k := inv.GNMI.CAFile
	if k == "" || filepath.IsAbs(k) || strings.HasPrefix(k, "~") {
		return k
	}
	return filepath.Join(invDir, k)
}
