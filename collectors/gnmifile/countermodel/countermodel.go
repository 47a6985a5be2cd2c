// Package countermodel fills the model's switch counters from the gNMI
// counters file (collectors/gnmifile): the format is gNMI's, whichever
// switch OS streams it, so its builder is apart from each OS's.
package countermodel

import (
	"strconv"

	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/model"
)

// SwitchCounters turns the gNMI view into the model's. Cumulus names its
// egress queues by traffic class ("0".."7", CumulusNetworks/docs content/
// cumulus-linux-518/Monitoring-and-Troubleshooting/gNMI Streaming.md); other names are
// not queues the model knows and are left out. in-pause counts PFC frames
// received, out-pause frames sent.
func SwitchCounters(file string, c *gnmifile.Counters) *model.SwitchCounters {
	if c == nil {
		return nil
	}
	sc := &model.SwitchCounters{File: file, Ports: map[string]*model.SwitchPortCounters{}}
	port := func(name string) *model.SwitchPortCounters {
		p, ok := sc.Ports[name]
		if !ok {
			p = &model.SwitchPortCounters{}
			sc.Ports[name] = p
		}
		return p
	}
	for _, k := range c.QueueKeys() {
		tc, err := strconv.Atoi(k.Queue)
		if err != nil || tc < 0 || tc > 7 {
			continue
		}
		q := c.Queues[k]
		p := port(k.Interface)
		p.ECNMarked[tc] = model.Explicit(q.ECNMarkedPkts, q.Pos)
		p.Drops[tc] = model.Explicit(q.NoBufferDroppedPkts, q.Pos)
		p.Transmit[tc] = model.Explicit(q.TransmitPkts, q.Pos)
	}
	for _, k := range c.PrioKeys() {
		v := c.Priorities[k]
		pc := &port(k.Interface).Prio[k.Priority] // ParseCounters keeps 0..7
		pc.RxPause = model.Explicit(v.InPausePkts, v.Pos)
		pc.TxPause = model.Explicit(v.OutPausePkts, v.Pos)
		pc.RxPauseDuration = model.Explicit(v.InPauseDuration, v.Pos)
		pc.TxPauseDuration = model.Explicit(v.OutPauseDuration, v.Pos)
	}
	return sc
}
