package sonicmodel

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/model"
)

// buffers reads the checked ports' BUFFER_PG entries and the priority
// groups their PFC priorities use.
//
// Which buffer model: DEVICE_METADATA|localhost buffer_model, traditional
// or dynamic (src/sonic-yang-models/yang-models/sonic-device_metadata.yang,
// whose description calls traditional the default; NVIDIA's images write
// dynamic: platform/mellanox/rules.mk `SONIC_BUFFER_MODEL=dynamic` into
// files/build_templates/init_cfg.json.j2). In the dynamic model a BUFFER_PG
// entry with profile "NULL" (or none) asks buffermgrd to compute the
// lossless headroom from the port's speed, cable length and MTU
// (sonic-net/SONiC doc/qos/dynamically-headroom-calculation.md); in the
// traditional model buffermgrd writes `pg_lossless_<speed>_<cable>_profile`
// into CONFIG_DB itself (sonic-net/sonic-swss cfgmgr/buffermgr.cpp,
// doSpeedUpdateTask), so a switch's saved configuration has it.
func (b *builder) buffers(sw *model.Switch) *model.SwitchBuffers {
	// Lossless is made at the number of ports once, as the other
	// per-port maps are (Switch): most ports of a RoCE switch have
	// lossless priorities.
	bs := &model.SwitchBuffers{Lossless: make(map[string][]model.LosslessPG, len(sw.Ports))}
	if f := b.meta.Get("buffer_model"); f != nil {
		bs.Model = model.Explicit(own(f.Value), f.Pos())
	} else {
		pos := b.rowPos(b.meta)
		bs.Model = model.Value[string]{V: "traditional", Origin: model.NewOrigin(pos, "DEVICE_METADATA sets no buffer_model: traditional, the YANG default"), Known: true}
	}
	// The entries are gathered at their number once.
	n := 0
	for _, port := range sw.Ports {
		n += len(b.ports[port].pgs)
	}
	if n > 0 {
		bs.PGs = make([]model.BufferPG, 0, n)
	}
	// The lossless PGs of every port are cut from one block: a port has
	// one or two.
	lossless := make([]model.LosslessPG, 0, len(sw.Ports))
	for _, port := range sw.Ports {
		pr := b.ports[port]
		b.portPGs(bs, pr, port)
		m := b.portMaps(port, pr)
		if m.pfc == nil {
			continue
		}
		// classify reported a map that is not defined.
		var tcPG *configdb.Row
		if m.tcPG != nil {
			_, name := configdb.Ref(m.tcPG.Value)
			tcPG = pr.tables.tcPG.Row(name)
		}
		start := len(lossless)
		for s := range strings.SplitSeq(m.pfc.Value, ",") {
			p, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || p < 0 || p > 7 {
				continue
			}
			// Traffic of TC p waits in priority group tc_to_pg_map[p]; an
			// unbound or unlisted TC is read as its own PG.
			pg := p
			if f := tcPG.Get(strconv.Itoa(p)); f != nil {
				if n, err := strconv.Atoi(f.Value); err == nil && n >= 0 && n <= 7 {
					pg = n
				}
			}
			lossless = append(lossless, model.LosslessPG{Priority: p, PG: pg, Pos: m.pfc.Pos()})
		}
		if len(lossless) > start {
			bs.Lossless[port] = lossless[start:len(lossless):len(lossless)]
		}
	}
	return bs
}

// sizedRe is the name buffermgrd gives the lossless profile it computes in
// the traditional model, pg_lossless_<speed>_<cable>_profile
// (sonic-net/sonic-swss cfgmgr/buffermgr.cpp, doSpeedUpdateTask:
// "pg_lossless_" + speed + "_" + cable + "_profile"; the dynamic model's
// names add _mtu, _th or _8lane, cfgmgr/buffermgrdyn.cpp).
var sizedRe = regexp.MustCompile(`^pg_lossless_(\d+)_(\d+)m(?:_[a-z0-9]+)*_profile$`)

// portPGs adds the BUFFER_PG entries of port, whose rows are pr.
func (b *builder) portPGs(bs *model.SwitchBuffers, pr *portRows, port string) {
	dynamic := bs.Model.V == "dynamic"
	for _, r := range pr.pgs {
		_, idx, _ := strings.Cut(r.Key, "|")
		e := model.BufferPG{Port: port, PGs: b.pgRange(idx), Pos: r.Pos()}
		pf := r.Get("profile")
		name := ""
		if pf != nil {
			_, name = configdb.Ref(pf.Value)
			e.Pos = pf.Pos()
		}
		switch {
		case name == "" || name == "NULL":
			e.Dynamic, e.Lossless = dynamic, dynamic
			if !dynamic {
				e.LossyWhy = "no profile, and the traditional buffer model computes none"
			}
		default:
			e.Profile = own(name)
			pi := b.profileOf(name)
			e.SizedSpeed, e.SizedCable = pi.speed, pi.cable
			if f := pr.row.Get("speed"); f != nil {
				e.PortSpeed, _ = strconv.Atoi(f.Value)
			}
			prof := pr.tables.bufferProfile.Row(name)
			switch {
			case prof == nil:
				e.ProfileMissing = true
			case prof.Get("xoff") != nil && prof.Get("xoff").Value != "0":
				e.Lossless = true
			case dynamic && prof.Get("headroom_type").ValueOr("") == "dynamic":
				// "headroom_type: dynamic" with only dynamic_th: dynamic
				// headroom with its own alpha (dynamically-headroom-
				// calculation.md).
				e.Lossless, e.Dynamic = true, true
			default:
				e.LossyWhy = pi.noXoff
			}
		}
		bs.PGs = append(bs.PGs, e)
	}
}

// pgRange is indexRange(idx), one slice per distinct idx: the entries
// share it, and nothing changes a BufferPG's PGs.
func (b *builder) pgRange(idx string) []int {
	if r, ok := b.pgRanges[idx]; ok {
		return r
	}
	if b.pgRanges == nil {
		b.pgRanges = map[string][]int{}
	}
	r := indexRange(idx)
	b.pgRanges[idx] = r
	return r
}

// profileInfo is what an entry reads of its profile's name alone: the
// speed and cable length a name buffermgrd gives says (sizedRe; zeros for
// another name), and the reason a profile without xoff is lossy.
type profileInfo struct {
	speed, cable int
	noXoff       string
}

// profileOf is name's profileInfo, read once per distinct name: a
// switch's ports share a few profiles.
func (b *builder) profileOf(name string) profileInfo {
	if pi, ok := b.profiles[name]; ok {
		return pi
	}
	pi := profileInfo{noXoff: "BUFFER_PROFILE|" + name + " has no xoff: no headroom for the frames in flight after a pause"}
	if m := sizedRe.FindStringSubmatch(name); m != nil {
		pi.speed, _ = strconv.Atoi(m[1])
		pi.cable, _ = strconv.Atoi(m[2])
	}
	if b.profiles == nil {
		b.profiles = map[string]profileInfo{}
	}
	b.profiles[name] = pi
	return pi
}
