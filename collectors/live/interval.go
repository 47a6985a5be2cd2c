package live

import (
	"context"
	"path"
	"strings"
	"time"

	"github.com/qoslint/qoslint/collectors/capture"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// collectTwice collects the pod, waits opt.Interval and collects it again.
// The second collection is the capture; the counters of the first become
// its .before files. Both are whole collections with the same allowlisted
// commands, so each counter sample sits at the same point of its device's
// session and the gap between the two starts is the gap between samples.
// Cancelled during the wait, it returns the first collection alone: a
// single sample, linted as cumulative counters.
func collectTwice(ctx context.Context, inv *inventory.Inventory, opt Options) *Result {
	start := time.Now()
	first := collectOnce(ctx, inv, opt)
	t := time.NewTimer(opt.Interval)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return first
	case <-t.C:
	}
	interval := time.Since(start)
	second := collectOnce(ctx, inv, opt)
	paired := map[string]bool{}
	for name, data := range first.Files {
		before, ok := beforeName(name)
		if _, again := second.Files[name]; !ok || !again {
			continue
		}
		second.Files[before], second.Commands[before] = data, first.Commands[name]
		paired[deviceDir(name)] = true
	}
	// Millisecond precision is plenty next to seconds-long intervals and
	// keeps the file short.
	iv := []byte(interval.Round(time.Millisecond).String() + "\n")
	for dir := range paired {
		name := path.Join(dir, layout.IntervalFile)
		second.Files[name], second.Commands[name] = iv, intervalCommand
	}
	return second
}

// intervalCommand is what counters-interval.txt came from, for the capture
// manifest: qoslint measured it, no device printed it.
const intervalCommand = capture.ComputedPrefix + "time between the starts of the first and the second counter sample"

// beforeName is the .before name of a counters file, ok false for a file
// that is not counters.
func beforeName(file string) (string, bool) {
	dir, base := path.Split(file)
	if base == layout.GNMIFile {
		return dir + layout.GNMIBeforeFile, true
	}
	if nd, ok := layout.EthtoolNetdev(base); ok {
		return dir + layout.EthtoolBeforeFile(nd), true
	}
	// devices/<host>/sysfs/class/infiniband/<ibdev>/ports/<port>/hw_counters/<name>
	// → devices/<host>/sysfs.before/... (the QoS sysfs files are
	// configuration and get no earlier sample).
	if el := strings.SplitN(file, "/", 4); len(el) == 4 && el[0] == layout.DevicesDir && el[2] == layout.SysfsDir {
		if _, _, _, ok := layout.HWCounter(el[3]); ok {
			return layout.DeviceFile(el[1], path.Join(layout.SysfsBeforeDir, el[3])), true
		}
	}
	return "", false
}

// deviceDir is devices/<device> of a file anywhere in its folder.
func deviceDir(file string) string {
	el := strings.SplitN(file, "/", 3)
	if len(el) < 3 {
		return path.Dir(file)
	}
	return el[0] + "/" + el[1]
}
