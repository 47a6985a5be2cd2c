package model

import "github.com/qoslint/qoslint/internal/source"

// SwitchBuffers is a switch's ingress priority-group buffers as its
// configuration writes them, where the switch OS configures them per port
// and priority group (SONiC's BUFFER_PG; nil for NVUE, whose buffers follow
// the RoCE mode and the traffic pools).
type SwitchBuffers struct {
	// Model is SONiC's DEVICE_METADATA buffer_model: "traditional" (the
	// profiles are in the configuration) or "dynamic" (buffermgrd computes
	// the lossless headroom at run time).
	Model Value[string]
	// PGs are the checked ports' priority-group entries, by port and
	// priority group.
	PGs []BufferPG
	// Lossless lists, per checked port, the priority groups that carry a
	// PFC priority: those need a lossless profile.
	Lossless map[string][]LosslessPG
}

// LosslessPG is a PFC priority and the ingress priority group its traffic
// uses on a port; Pos is where the priority is enabled.
type LosslessPG struct {
	Priority, PG int
	Pos          source.Pos
}

// BufferPG is one port's priority-group buffer entry.
type BufferPG struct {
	Port string
	// PGs are the priority groups the entry covers ("3-4": 3 and 4).
	PGs []int
	// Profile is the profile named; "" for none or SONiC's "NULL" (in the
	// dynamic model: calculate the headroom).
	Profile string
	Pos     source.Pos
	// ProfileMissing is a profile the configuration does not define.
	ProfileMissing bool
	// Lossless is a profile with headroom for in-flight frames (an xoff),
	// or, in the dynamic model, one buffermgrd computes; LossyWhy says why a
	// profile is not.
	Lossless bool
	LossyWhy string
	// Dynamic is headroom buffermgrd computes at run time.
	Dynamic bool
	// SizedSpeed and SizedCable are the port speed (Mb/s) and cable length
	// (m) the profile's name says it was sized for, as buffermgrd names
	// the profiles it writes (pg_lossless_<speed>_<cable>m_profile); 0 when
	// the name says neither. PortSpeed is the port's PORT speed (Mb/s).
	SizedSpeed, SizedCable, PortSpeed int
}

// PG returns the entry covering priority group pg of port, nil when none.
func (b *SwitchBuffers) PG(port string, pg int) *BufferPG {
	if b == nil {
		return nil
	}
	for i := range b.PGs {
		e := &b.PGs[i]
		if e.Port != port {
			continue
		}
		for _, g := range e.PGs {
			if g == pg {
				return e
			}
		}
	}
	return nil
}
