package model

import (
	"sync"

	"github.com/qoslint/qoslint/internal/source"
)

// Origin says where an effective value came from: an explicit setting at
// Pos, or, when Default is not empty, a documented default (with the line
// that bound it, if any).
//
// It is 12 bytes, not the 48 of a source.Pos and a string side by side:
// the model of a 10,000-device fabric holds some eight million values, and
// an origin in each was most of its memory (issue 23's 400 MiB bound). The
// file and the default text, which a device's values share by the
// hundred, are kept once per process in originSources; the line and
// column stay in the value. Equal origins compare equal with ==.
type Origin struct {
	src  uint32 // 1-based index in originSources; 0: neither file nor text
	line int32
	col  int32
}

// At is the origin of an explicit setting at pos.
func At(pos source.Pos) Origin { return NewOrigin(pos, "") }

// Because is the origin of a documented default that no line sets.
func Because(why string) Origin { return NewOrigin(source.Pos{}, why) }

// NewOrigin is the origin of a default (why) bound at pos; with why empty,
// of an explicit setting at pos.
func NewOrigin(pos source.Pos, why string) Origin {
	return Origin{src: originSources.id(pos.File, why), line: int32(pos.Line), col: int32(pos.Column)}
}

// Pos is where the value was set or bound; zero for a default no line binds.
func (o Origin) Pos() source.Pos {
	if o.src == 0 {
		return source.Pos{}
	}
	return source.Pos{File: originSources.get(o.src).file, Line: int(o.line), Column: int(o.col)}
}

// Default is the documented default that gave the value; empty for an
// explicit setting.
func (o Origin) Default() string {
	if o.src == 0 {
		return ""
	}
	return originSources.get(o.src).why
}

// WithPos is o moved to pos, its default text kept.
func (o Origin) WithPos(pos source.Pos) Origin { return NewOrigin(pos, o.Default()) }

// IsDefault reports whether no explicit setting produced the value.
func (o Origin) IsDefault() bool { return o.Default() != "" }

// IsZero reports whether the origin names nothing.
func (o Origin) IsZero() bool { return o == Origin{} }

func (o Origin) String() string {
	pos, why := o.Pos(), o.Default()
	switch {
	case why != "" && !pos.IsZero():
		return pos.String() + " (" + why + ")"
	case why != "":
		return why
	}
	return pos.String()
}

type originSource struct{ file, why string }

// sourceTable interns the origins' sources for the process: a file alone
// (most origins: an explicit setting) by its name, a (file, default text)
// pair apart, its id marked with pairID. Files alone are kept in a map of
// strings, half the bytes of one of pairs (at TestLintScale's size, the
// table was the largest thing in use). It only grows: a lint reads a
// fabric's files once, and a long-lived process that lints again reads
// the same names (TestServeOriginsBounded).
type sourceTable struct {
	mu       sync.RWMutex
	files    map[string]uint32
	fileList []string // fileList[id-1]
	pairs    map[originSource]uint32
	pairList []originSource // pairList[id&^pairID-1]
}

const pairID = 1 << 31

var originSources sourceTable

func (t *sourceTable) id(file, why string) uint32 {
	switch {
	case file == "" && why == "":
		return 0
	case why == "":
		return intern(&t.mu, &t.files, &t.fileList, file, 0)
	}
	return intern(&t.mu, &t.pairs, &t.pairList, originSource{file, why}, pairID)
}

// intern is key's id in ids (its place in list, 1-based, with mark),
// added if new; reads take only mu's read lock.
func intern[K comparable](mu *sync.RWMutex, ids *map[K]uint32, list *[]K, key K, mark uint32) uint32 {
	mu.RLock()
	id, ok := (*ids)[key]
	mu.RUnlock()
	if ok {
		return id
	}
	mu.Lock()
	defer mu.Unlock()
	if id, ok := (*ids)[key]; ok {
		return id
	}
	if *ids == nil {
		*ids = map[K]uint32{}
	}
	*list = append(*list, key)
	id = uint32(len(*list)) | mark
	(*ids)[key] = id
	return id
}

func (t *sourceTable) get(id uint32) originSource {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if id&pairID != 0 {
		return t.pairList[id&^pairID-1]
	}
	return originSource{file: t.fileList[id-1]}
}

// OriginSources is how many (file, default text) pairs the process holds:
// a long-lived process (`qoslint serve`) must not add any when it audits
// an unchanged fabric again (TestServeOriginsBounded).
func OriginSources() int {
	originSources.mu.RLock()
	defer originSources.mu.RUnlock()
	return len(originSources.fileList) + len(originSources.pairList)
}
