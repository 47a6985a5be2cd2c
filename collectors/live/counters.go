package live

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/gnmi"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// gnmiCommand is what a gnmi-counters.json came from, for the capture
// manifest: one Subscribe of these paths (collectors/gnmi Collect).
var gnmiCommand = "gNMI Subscribe " + strings.Join(gnmi.SubscribePaths, " ")

// gnmiWorkers bounds the concurrent gNMI subscriptions: each holds a
// gRPC connection and a whole counter snapshot in memory.
const gnmiWorkers = 8

// gnmiJob is one switch's gNMI collection: a target, or why there is none.
type gnmiJob struct {
	target  gnmi.Target
	skip    string // the cause when the switch cannot be asked
	secrets []string
}

// gnmiTargets builds a target per switch from the inventory's gnmi
// section and the switch's SSH username and password_env.
func gnmiTargets(inv *inventory.Inventory, opt Options) map[string]gnmiJob {
	out := map[string]gnmiJob{}
	cfg, cfgErr := gnmiTLS(inv, opt)
	for _, s := range inv.Switches {
		c := inv.SwitchCredentials(s)
		addr := s.Address
		if addr == "" {
			addr = s.Name
		}
		j := gnmiJob{target: gnmi.Target{
			Name:     s.Name,
			Addr:     net.JoinHostPort(addr, strconv.Itoa(inv.GNMIPort(s))),
			Username: c.Username,
			TLS:      cfg,
			Timeout:  inv.GNMI.Timeout,
		}}
		pw := ""
		if c.PasswordEnv != "" {
			pw = opt.Getenv(c.PasswordEnv)
		}
		switch {
		case s.OS == inventory.OSSONiC:
			// SONiC's gNMI serves redis tables (COUNTERS_DB paths such
			// as COUNTERS/Ethernet*/Queues, sonic-net/SONiC doc/
			// system-telemetry/grpc_telemetry.md), not the OpenConfig
			// paths collectors/gnmi subscribes to.
			j.skip = "gNMI counters of a SONiC switch are not collected by this version (its gNMI serves COUNTERS_DB tables, not the OpenConfig paths qoslint reads)"
		case c.JumpHost != "":
			// The gNMI client dials the switch itself (collectors/gnmi):
			// it has no way through a jump host yet, and says so.
			j.skip = "gNMI through a jump host (jump_host " + c.JumpHost + ") is not supported: reach the switch's gNMI port directly, or collect without --counters"
		case cfgErr != nil:
			j.skip = cfgErr.Error()
		case c.PasswordEnv == "":
			j.skip = "gNMI logs in with a password and the switch has no password_env"
		case pw == "":
			j.skip = "$" + c.PasswordEnv + " is empty or unset"
		default:
			j.target.Password = pw
			j.secrets = []string{pw}
		}
		out[s.Name] = j
	}
	return out
}

// gnmiTLS is the TLS configuration of every switch, from gnmi.tls,
// ca_file and skip_verify (nil for plaintext).
func gnmiTLS(inv *inventory.Inventory, opt Options) (*tls.Config, error) {
	if !inv.GNMI.TLS {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: inv.GNMI.SkipVerify} //nolint:gosec // the inventory's explicit skip_verify
	if file := inv.GNMICAPath(opt.InventoryDir); file != "" {
		file, err := expandHome(file)
		if err != nil {
			return nil, fmt.Errorf("gnmi.ca_file: %v", err)
		}
		pem, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("gnmi.ca_file: %v", unwrapPath(err))
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("gnmi.ca_file %s: no PEM certificate in it", file)
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// collectGNMI collects gnmi-counters.json of every switch. It returns the
// files and, per switch, the note saying why its counters are missing.
func collectGNMI(ctx context.Context, inv *inventory.Inventory, opt Options) (map[string][]byte, map[string]string) {
	jobs := gnmiTargets(inv, opt)
	files := map[string][]byte{}
	notes := map[string]string{}
	var targets []gnmi.Target
	for name, j := range jobs {
		if j.skip != "" {
			notes[name] = j.skip
			continue
		}
		targets = append(targets, j.target)
	}
	for name, r := range gnmi.CollectAll(ctx, targets, gnmiWorkers) {
		if r.Err != nil {
			msg := r.Err.Error()
			// The note is the switch's own: its name goes before it once.
			if ge := (*gnmi.Error)(nil); errors.As(r.Err, &ge) {
				msg = ge.Cause()
			}
			for _, sec := range jobs[name].secrets {
				msg = strings.ReplaceAll(msg, sec, "[redacted]")
			}
			notes[name] = msg
			continue
		}
		files[path.Join(layout.DevicesDir, name, layout.GNMIFile)] = r.Data
	}
	for name, n := range notes {
		notes[name] = "gNMI counters not collected: " + n
	}
	return files, notes
}
