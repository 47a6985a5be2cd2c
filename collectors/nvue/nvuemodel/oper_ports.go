package nvuemodel

import (
	"reflect"
	"slices"
	"sync"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/nvrange"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// OperPorts gives the checked ports their per-port operational views. A
// file of a port the switch does not check is not compared, and a note
// says so rather than dropping it silently.
func OperPorts(sw *model.Switch, status map[string]*nvue.RoceShow) {
	if status == nil {
		return
	}
	sw.OperPorts = map[string]*model.Operational{}
	var unchecked []string
	var shared tables
	thresholds := false
	for port, show := range status {
		if !slices.Contains(sw.Ports, port) {
			unchecked = append(unchecked, port)
			continue
		}
		if show == nil {
			sw.OperPorts[port] = nil
			continue
		}
		o := operational(show)
		// The file's place says what it is, whatever rows it printed.
		o.PerInterface = true
		shared.share(o)
		sw.OperPorts[port] = o
		thresholds = thresholds || o.ECNMin.Known || o.ECNMax.Known
	}
	dir := layout.DeviceFile(sw.Name, layout.RoceStatusDir)
	if len(unchecked) > 0 {
		sw.Notes = append(sw.Notes, source.Errorf(dir, 0, "status of ports the switch does not check, not compared: %s", nvrange.CompressNames(unchecked)))
	}
	if thresholds {
		// RoCE pages of CL 5.15 and 5.18, of `nv show interface <id> qos
		// congestion-control`: "the interface-level command reflects the
		// actual hardware-programmed value, which is 159,744 bytes (156
		// KB)" for a configured 150,000; the same pages' `qos roce status`
		// example prints 153.00 KB (156,672 bytes) for that default. How
		// the ASIC rounds is not published, so no tolerance can be derived.
		sw.Notes = append(sw.Notes, source.Errorf(dir, 0, "the ports' ECN thresholds are not compared: an interface-level view shows the hardware-programmed value (NVIDIA's RoCE page: 159,744 bytes, and 153.00 KB in its status example, for 150,000 configured), whose rounding is not published"))
	}
}

// CheckedPorts are the ports Switch checks for a configuration and the
// inventory's ports list: the ports a live collection asks for their own
// status, so that it asks for exactly the ports lint then compares.
func CheckedPorts(cfg *nvue.Config, ports []string) []string {
	sw, _ := Switch("", "", cfg, nil, ports)
	return sw.Ports
}

// tables are the distinct pool tables and states of a switch's port views
// so far (the row tables are the process's: rowTables). A switch prints
// the same rows at the same lines for each of its ports, and a row names
// no file: the views share them (at TestLintScale's size, a spine's 32
// ports' tables were a tenth of the model, and then their rows' Values
// another).
type tables struct {
	pools  [][]model.RocePool
	states []*model.OperState
}

// share gives o the pools and the state of a view before it that prints
// the same; pools first, so that equal states hold the same pools (the
// row tables are shared as they are read: operTables).
func (ts *tables) share(o *model.Operational) {
	ts.sharePools(o.OperState)
	for _, s := range ts.states {
		if reflect.DeepEqual(s, o.OperState) {
			o.OperState = s
			return
		}
	}
	if len(ts.states) < maxShared {
		ts.states = append(ts.states, o.OperState)
	}
}

func (ts *tables) sharePools(o *model.OperState) {
	if o.Pools == nil {
		return
	}
	for _, ps := range ts.pools {
		if slices.EqualFunc(ps, o.Pools, samePool) {
			o.Pools = ps
			return
		}
	}
	if len(ts.pools) < maxShared {
		ts.pools = append(ts.pools, o.Pools)
	}
}

// maxShared bounds the tables compared with each new one: a switch whose
// ports print different tables keeps them apart, in linear time.
const maxShared = 4

// The row tables of the views read so far, process-wide: the switches of
// a fabric print the same tables for the same configuration, and a row
// names no file (at TestLintScale's size, one switch-wide view's tables
// per switch were 13 MB, and the copies made before sharing a fifth of
// the views' garbage).
var (
	dscpTables  rowTables[[64]model.OperRow[int]]
	tcTables    rowTables[[8]model.OperRow[int]]
	schedTables rowTables[[8]model.OperRow[string]]
	bwTables    rowTables[[8]int]
)

// maxTables bounds each rowTables: past it, a table is kept as it is.
const maxTables = 256

// rowTables are the distinct tables of one kind read by the process,
// each kept once; read only.
type rowTables[T comparable] struct {
	mu sync.Mutex
	m  map[T]*T
}

// of is t as the process keeps it: the copy read before, or a new one.
func (rt *rowTables[T]) of(t T) *T {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if s, ok := rt.m[t]; ok {
		return s
	}
	p := new(T)
	*p = t
	if len(rt.m) < maxTables {
		if rt.m == nil {
			rt.m = map[T]*T{}
		}
		rt.m[t] = p
	}
	return p
}

func samePool(a, b model.RocePool) bool {
	return a.Name == b.Name && a.Mode == b.Mode && a.Size == b.Size && a.Line == b.Line &&
		slices.Equal(a.SPs, b.SPs) && slices.Equal(a.TCs, b.TCs)
}
