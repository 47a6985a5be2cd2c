package nvuemodel

import (
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/intern"
	"github.com/qoslint/qoslint/model"
)

// Profile semantics, with their sources, are the model's (model/profiles.go):
// a port bound to a named profile gets that profile's feature REPLACING
// default-global's, and default-global's explicit settings only override
// the RoCE mode's individual values.

// globalQoS is default-global: the mode's values, then default-global's
// explicit settings, each overriding one value (the change-RoCE recipes set
// single values such as `nv set qos pfc default-global switch-priority 2`).
// A default-global that no line changes is its mode's alone, the same for
// every switch of that mode and release (sharedGlobal).
func (b *switchBuilder) globalQoS(r model.RoCE, release string, qosRoot *nvue.Node) *model.QoS {
	if !b.setsDefaultGlobal(qosRoot) {
		return sharedGlobal(r, release, func() *model.QoS { return b.buildGlobalQoS(r, release, qosRoot) })
	}
	return b.buildGlobalQoS(r, release, qosRoot)
}

func (b *switchBuilder) buildGlobalQoS(r model.RoCE, release string, qosRoot *nvue.Node) *model.QoS {
	q := model.ModeQoS(r, release)
	def := model.Defaulted(model.DefaultProfile, "no profile binding")
	q.MappingProfile, q.PFCProfile, q.ECNProfile, q.SchedProfile = def, def, def, def
	b.applyMapping(q, b.profile(qosRoot.Child("mapping"), model.DefaultProfile))
	b.roceCableLength(q, r, qosRoot.Child("roce"))
	b.applyPFC(q, b.profile(qosRoot.Child("pfc"), model.DefaultProfile))
	cableFrom(q, model.DefaultProfile)
	b.applyECN(q, b.profile(qosRoot.Child("congestion-control"), model.DefaultProfile))
	// "NVUE only supports the default-global profile." (QoS518, Egress
	// Queues): every port shares this map.
	b.applyQueueMap(q, b.profile(qosRoot.Child("egress-queue-mapping"), model.DefaultProfile))
	b.applySched(q, b.profile(qosRoot.Child("egress-scheduler"), model.DefaultProfile))
	return q
}

// setsDefaultGlobal reports whether the configuration changes
// default-global beside its RoCE mode: a default-global profile of a qos
// feature, or qos roce's cable length (what buildGlobalQoS reads).
func (b *switchBuilder) setsDefaultGlobal(qosRoot *nvue.Node) bool {
	for _, f := range []string{"mapping", "pfc", "congestion-control", "egress-queue-mapping", "egress-scheduler"} {
		if b.profile(qosRoot.Child(f), model.DefaultProfile) != nil {
			return true
		}
	}
	return qosRoot.Get("roce", "cable-length") != nil
}

// sharedGlobals are the default-globals that no line changes, one per RoCE
// state, mode and release for the process (what ModeQoS and
// roceCableLength read): most switches of a fabric run `nv set qos roce`
// alone, and a QoS each was a sixth of a Cumulus switch's model
// (TestLintScale). Their values' origins name no file, so a finding on
// any switch cites the same defaults. A shared QoS is never written: a
// port bound to another profile copies it (portQoS), and its DSCP map is
// sealed, so that a copy's new origins go to a list of its own.
var sharedGlobals = intern.Table[*model.QoS]{Max: 64}

func sharedGlobal(r model.RoCE, release string, build func() *model.QoS) *model.QoS {
	return sharedGlobals.Share(new(intern.Key).Bool(r.Enabled.V).Str(r.Mode.V).Str(release), func() *model.QoS {
		q := build()
		q.DSCP.Seal()
		return q
	})
}

// portQoS is a port's QoS: default-global for the features bound to it, the
// named profile (from its own defaults) for the others.
func (b *switchBuilder) portQoS(global *model.QoS, qosRoot *nvue.Node, bd binding) *model.QoS {
	q := *global
	q.MappingProfile, q.PFCProfile, q.ECNProfile, q.SchedProfile = bd.mapping, bd.pfc, bd.ecn, bd.sched
	if name := bd.mapping.V; name != model.DefaultProfile {
		model.ResetMapping(&q, name, bd.mapping.Origin.Pos())
		b.applyMapping(&q, b.profile(qosRoot.Child("mapping"), name))
	}
	if name := bd.pfc.V; name != model.DefaultProfile {
		model.ResetPFC(&q, name, bd.pfc.Origin.Pos())
		b.applyPFC(&q, b.profile(qosRoot.Child("pfc"), name))
		cableFrom(&q, name)
	}
	if name := bd.ecn.V; name != model.DefaultProfile {
		model.ResetECN(&q, name, bd.ecn.Origin.Pos())
		b.applyECN(&q, b.profile(qosRoot.Child("congestion-control"), name))
	}
	if name := bd.sched.V; name != model.DefaultProfile {
		model.ResetSched(&q, name, bd.sched.Origin.Pos())
		b.applySched(&q, b.profile(qosRoot.Child("egress-scheduler"), name))
	}
	return &q
}
