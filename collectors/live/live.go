// Package live collects a whole pod over SSH into the fabric-directory
// files the offline linter reads (collectors/offline): the same names, the
// same layout, and the bytes exactly as each device printed them.
//
// Every device gets one interactive shell through scrapligo's generic
// driver on a transport of our own (bounded handshake, ssh-agent, the
// known_hosts check, a raw copy of the stream). Every command goes through
// devcmd.Check first, so a collection can only read.
package live

import (
	"context"
	"errors"
	"fmt"
	"github.com/qoslint/qoslint/collectors/nvue"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/names"
	"github.com/qoslint/qoslint/inventory"
)

// Options tune a collection; the zero value is usable.
type Options struct {
	Workers        int           // bounded pool; default 32
	DeviceTimeout  time.Duration // whole device, default 2m
	CommandTimeout time.Duration // one command (and the login), default 30s
	// MaxOutput is what one command may print (default DefaultMaxOutput);
	// a command printing more fails its device.
	MaxOutput int64
	// InsecureSkipHostKeyCheck is the explicit opt-out; by default host keys
	// are verified against the inventory's known_hosts file.
	InsecureSkipHostKeyCheck bool
	InventoryDir             string              // resolves relative key_file / known_hosts
	Getenv                   func(string) string // default os.Getenv (password_env, SSH_AUTH_SOCK)
	// OnEvent reports progress; it may be nil and is called from workers.
	OnEvent func(Event)
	// Counters also collects runtime counters: `ethtool -S` of every RoCE
	// NIC over SSH and, for every Cumulus switch, gnmi-counters.json over
	// gNMI (the inventory's gnmi section). A gNMI failure is a note, and
	// so is a SONiC switch, whose gNMI is not read (counters.go).
	Counters bool
	// Interval, with Counters, takes the counters twice, Interval apart:
	// the first sample is kept as the .before files and the gap in
	// counters-interval.txt, so the checks judge the interval's deltas.
	Interval time.Duration
	// JobEnv also reads the job environment of running NCCL processes
	// into nccl-env.txt (jobenv.go); off by default, since it looks into
	// other users' processes.
	JobEnv bool
	// RoCEPorts picks, from a switch's collected configuration and the
	// inventory's ports, the ports asked for `nv show interface <port> qos
	// roce status`: the ports lint will check, which only the NVUE builder
	// knows (nvuemodel.CheckedPorts). The caller passes it so that
	// collection does not depend on the model; nil asks no port.
	RoCEPorts func(cfg *nvue.Config, inventoryPorts []string) []string
}

// EventKind is what happened to a device.
type EventKind int

// Event kinds.
const (
	Started EventKind = iota
	Done
	Failed
)

func (k EventKind) String() string {
	switch k {
	case Started:
		return "started"
	case Done:
		return "done"
	case Failed:
		return "failed"
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is one device's progress: Started, then Done or Failed (Err
// set, the same text as the status's Err). A device still queued when the
// collection is cancelled gets Failed alone.
type Event struct {
	Device string
	Kind   EventKind
	Err    error
}

// DeviceStatus is how one device's collection went.
type DeviceStatus struct {
	Name string
	Kind string // "switch" or "host"
	// Err is why the device could not be (fully) collected, "" when it was.
	// It names the device and the cause; files collected before the failure
	// are kept.
	Err string
	// Notes list what was not collected although the device answered (a
	// missing command or file, sudo refusing, an unreadable output).
	Notes    []string
	Commands int // commands sent
	Elapsed  time.Duration
}

// Result is a collection: the files and each device's status.
type Result struct {
	Files map[string][]byte // "devices/<name>/<file>" → content
	// Commands are what each file came from: the command sent to the
	// device, the gNMI subscription, or capture.ComputedPrefix and what
	// qoslint computed. The capture manifest records them.
	Commands map[string]string
	Status   []DeviceStatus // sorted by name
	// Started and Finished bound the whole collection; Interrupted is
	// true when its context ended first (Ctrl-C, SIGTERM, a deadline).
	Started, Finished time.Time
	Interrupted       bool
}

func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = 32
	}
	if o.DeviceTimeout <= 0 {
		o.DeviceTimeout = 2 * time.Minute
	}
	if o.CommandTimeout <= 0 {
		o.CommandTimeout = 30 * time.Second
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = DefaultMaxOutput
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	return o
}

// device is one inventory device to collect.
type device struct {
	name, kind string
	addr       string
	port       int
	creds      inventory.Credentials
	nics       []string
	// os is a switch's operating system (inventory.Switch.OS): "" or
	// inventory.OSCumulus runs the NVUE commands, inventory.OSSONiC the
	// SONiC ones (sonic.go).
	os string
	// ports is a switch's inventory ports list (NVUE ranges), which picks
	// the ports whose own RoCE status is read; empty means every RoCE port
	// of its configuration.
	ports []string
	// ib and ethernet say which host files the fabric type asks for
	// (the offline reader's choice, collectors/offline hostCapture).
	ib, ethernet bool
	// firstIB is the inventory's first host on an InfiniBand fabric: it
	// reads the switches even without opensm.conf (internal/layout/ib.go).
	firstIB bool
}

func (d *device) hostPort() string { return net.JoinHostPort(d.addr, strconv.Itoa(d.port)) }

func devices(inv *inventory.Inventory) []*device {
	var out []*device
	for _, s := range inv.Switches {
		out = append(out, &device{name: s.Name, kind: layout.KindSwitch, addr: s.Address, creds: inv.SwitchCredentials(s), ports: s.Ports, os: s.OS})
	}
	for i, h := range inv.Hosts {
		out = append(out, &device{name: h.Name, kind: layout.KindHost, addr: h.Address, creds: inv.HostCredentials(h), nics: h.NICs,
			ib: inv.HasIB(), ethernet: inv.FabricType != inventory.FabricInfiniBand, firstIB: i == 0 && inv.HasIB()})
	}
	for _, d := range out {
		if d.addr == "" {
			d.addr = d.name // as ssh does: the name is looked up in DNS
		}
		d.port = d.creds.Port
		if d.port == 0 {
			d.port = 22
		}
	}
	return out
}

// Collect collects every inventory device in parallel. It always returns
// a Result: a device that fails is reported in its status and the others
// are unaffected. When ctx ends, devices stop at once, keep what they
// collected, and the ones not done are marked "cancelled".
func Collect(ctx context.Context, inv *inventory.Inventory, opt Options) *Result {
	opt = opt.withDefaults()
	start := time.Now()
	var res *Result
	if opt.Counters && opt.Interval > 0 {
		res = collectTwice(ctx, inv, opt)
	} else {
		res = collectOnce(ctx, inv, opt)
	}
	res.Started, res.Finished = start, time.Now()
	res.Interrupted = ctx.Err() != nil
	return res
}

func collectOnce(ctx context.Context, inv *inventory.Inventory, opt Options) *Result {
	devs := devices(inv)
	res := &Result{Files: map[string][]byte{}, Commands: map[string]string{}, Status: make([]DeviceStatus, len(devs))}
	if len(devs) == 0 {
		return res
	}
	keys := loadHostKeys(inv, opt)
	// gNMI runs beside the SSH sessions: a switch's counters do not wait
	// for its configuration, and a gNMI failure never fails the device.
	var gnmiFiles map[string][]byte
	var gnmiNotes map[string]string
	gnmiDone := make(chan struct{})
	if opt.Counters && len(inv.Switches) > 0 {
		go func() {
			defer close(gnmiDone)
			gnmiFiles, gnmiNotes = collectGNMI(ctx, inv, opt)
		}()
	} else {
		close(gnmiDone)
	}
	jobs := make(chan int, len(devs))
	for i := range devs {
		jobs <- i
	}
	close(jobs)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(opt.Workers, len(devs)) {
		wg.Go(func() {
			for i := range jobs {
				st, files, cmds := collectDevice(ctx, devs[i], keys, opt)
				mu.Lock()
				res.Status[i] = st
				for k, v := range files {
					res.Files[k], res.Commands[k] = v, cmds[k]
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	<-gnmiDone
	for k, v := range gnmiFiles {
		res.Files[k], res.Commands[k] = v, gnmiCommand
	}
	for i := range res.Status {
		if n, ok := gnmiNotes[res.Status[i].Name]; ok {
			res.Status[i].Notes = append(res.Status[i].Notes, n)
		}
	}
	sort.Slice(res.Status, func(a, b int) bool { return res.Status[a].Name < res.Status[b].Name })
	return res
}

func collectDevice(ctx context.Context, dv *device, keys *hostKeys, opt Options) (DeviceStatus, map[string][]byte, map[string]string) {
	start := time.Now()
	r := &devRun{dev: dv, files: map[string][]byte{}, cmds: map[string]string{}, st: DeviceStatus{Name: dv.name, Kind: dv.kind}, counters: opt.Counters, jobEnv: opt.JobEnv, rocePorts: opt.RoCEPorts}
	emit := func(k EventKind, err error) {
		if opt.OnEvent != nil {
			opt.OnEvent(Event{Device: dv.name, Kind: k, Err: err})
		}
	}
	if ctx.Err() != nil {
		r.st.Err = dv.name + ": cancelled"
		emit(Failed, errors.New(r.st.Err))
		return r.st, nil, nil
	}
	emit(Started, nil)
	dctx, cancel := context.WithTimeout(ctx, opt.DeviceTimeout)
	defer cancel()
	err := r.collect(dctx, keys, opt)
	if err != nil {
		cause := err.Error()
		switch {
		case ctx.Err() != nil:
			cause = "cancelled"
			if r.current != "" {
				cause += " during `" + r.current + "`"
			}
		case dctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
			cause = fmt.Sprintf("not finished within the device timeout (%s)", opt.DeviceTimeout)
			if r.current != "" {
				cause += " during `" + r.current + "`"
			}
		}
		r.st.Err = r.redact(dv.name + ": " + cause)
	}
	r.st.Elapsed = time.Since(start)
	if r.st.Err != "" {
		emit(Failed, errors.New(r.st.Err))
	} else {
		emit(Done, nil)
	}
	return r.st, r.files, r.cmds
}

func (r *devRun) collect(ctx context.Context, keys *hostKeys, opt Options) error {
	dv := r.dev
	// The inventory's device-name rule, checked again here because the
	// name becomes a folder.
	if !names.Device(dv.name) {
		return fmt.Errorf("device name %q cannot be a folder name", dv.name)
	}
	if keys.err != nil {
		return keys.err
	}
	l, err := newLogin(dv.creds, keys, opt)
	if err != nil {
		return err
	}
	r.secrets = l.secrets
	s, err := openSession(ctx, dv, l, opt.CommandTimeout, opt.MaxOutput)
	if err != nil {
		return err
	}
	defer s.close()
	r.sess = s
	if dv.kind == layout.KindSwitch {
		if dv.os == inventory.OSSONiC {
			return r.collectSONiC()
		}
		return r.collectSwitch()
	}
	return r.collectHost()
}

// redact removes the device's secrets from a message. Nothing is known to
// put a password into one (auth happens out of band, errors name only the
// environment variable), so this is a second line of defence.
func (r *devRun) redact(s string) string {
	for _, sec := range r.secrets {
		if len(sec) > 0 {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return s
}
