package model

import (
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

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
// (most origins: an explicit setting), or a (file, default text) pair
// apart, its id marked with pairID. It only grows: a lint reads a
// fabric's files once, and a long-lived process that lints again reads
// the same names (TestServeOriginsBounded).
//
// A file is kept as its device folder and the path below it, each string
// once: a fabric's devices hold the same files (every host a sysfs tree of
// some forty), so at TestLintScale's size 375,233 names are 10,496
// folders and a few hundred paths below them. Kept whole, the names and
// their map were 44 MB, the model's largest item. The two parts' ids make
// the file's (packedID): a table of the files themselves, the folders
// times the paths below, was still 1.4 kB a host (a map entry and a list
// entry for each of its sixty files). Only a fabric past packedHeads
// folders or packedTails paths below them lists its files.
type sourceTable struct {
	mu    sync.RWMutex
	heads parts // device folders: the name up to its second slash
	tails parts // the paths below them
	// files and fileList are the files whose parts' ids are too large
	// to pack.
	files    map[filePath]uint32
	fileList []filePath // fileList[id-1]
	// A pair is its file's id and its default text's in whys: the same
	// few texts come with every device's files, and a pair of the two
	// strings, in the map and the list, was 0.3 kB a host.
	whys     parts
	pairs    map[sourcePair]uint32
	pairList []sourcePair // pairList[id&^pairID-1]
	// recent are the files last interned, by where their text is: a
	// builder makes its device's origins file by file (a SONiC switch's
	// hundreds from one config_db.json), and cutting and hashing the
	// name for each was a tenth of a SONiC lint.
	recent [64]atomic.Pointer[recentFile]
	// recentPairs are the same for (file, default text) pairs.
	recentPairs [64]atomic.Pointer[recentPair]
}

// parts interns strings: id 0 is "", the others 1-based in list.
type parts struct {
	ids  map[string]uint32
	list []string // list[id-1]
}

type recentFile struct {
	file string
	id   uint32
}

type recentPair struct {
	key originSource
	id  uint32
}

// slotOf is the recent slot of strings at these addresses: equal strings
// a builder passes again are most often the same text.
func slotOf(a, b string) uintptr {
	h := uintptr(unsafe.Pointer(unsafe.StringData(a)))>>4 ^ uintptr(unsafe.Pointer(unsafe.StringData(b)))>>3
	return h % 64
}

// sourcePair is a file's id (0: none) and a default text's id in whys.
type sourcePair struct{ file, why uint32 }

// filePath is a file name cut after its second slash
// ("devices/gpu01/" + "sysfs/class/net/..."): its head's id in heads and
// its tail's in tails.
type filePath struct{ head, tail uint32 }

// An id with pairID set is a pair's; one with packedID set, a file's
// head and tail ids (packedTailBits of tail); any other one past 0 is a
// file's place in fileList.
const (
	pairID         = 1 << 31
	packedID       = 1 << 30
	packedTailBits = 14
	packedTails    = 1 << packedTailBits        // paths below a folder
	packedHeads    = 1 << (30 - packedTailBits) // device folders
)

var originSources sourceTable

func (t *sourceTable) id(file, why string) uint32 {
	switch {
	case file == "" && why == "":
		return 0
	case why == "":
		return t.fileID(file)
	}
	key := originSource{file, why}
	slot := &t.recentPairs[slotOf(file, why)]
	if r := slot.Load(); r != nil && r.key == key {
		return r.id
	}
	var pair sourcePair
	if file != "" {
		pair.file = t.fileID(file)
	}
	t.mu.RLock()
	w, ok := t.whys.ids[why]
	t.mu.RUnlock()
	if !ok {
		t.mu.Lock()
		w = t.whys.id(why)
		t.mu.Unlock()
	}
	pair.why = w
	id := intern(&t.mu, &t.pairs, &t.pairList, pair, pairID)
	slot.Store(&recentPair{key, id})
	return id
}

// splitFile cuts file after its second slash, or not at all.
func splitFile(file string) (head, tail string) {
	i := strings.IndexByte(file, '/')
	if i < 0 {
		return "", file
	}
	j := strings.IndexByte(file[i+1:], '/')
	if j < 0 {
		return "", file
	}
	cut := i + 1 + j + 1
	return file[:cut], file[cut:]
}

// fileID is file's id, added if new: from recent when the same text was
// interned last in its slot, else by lookupFile.
func (t *sourceTable) fileID(file string) uint32 {
	slot := &t.recent[slotOf(file, "")]
	if r := slot.Load(); r != nil && r.file == file {
		return r.id
	}
	id := t.lookupFile(file)
	slot.Store(&recentFile{file, id})
	return id
}

// lookupFile is file's id, its parts added if new; known parts take only
// mu's read lock.
func (t *sourceTable) lookupFile(file string) uint32 {
	head, tail := splitFile(file)
	t.mu.RLock()
	h, hok := t.heads.ids[head]
	tl, tok := t.tails.ids[tail]
	id, ok := packFile(filePath{h, tl}), true
	if id == 0 {
		id, ok = t.files[filePath{h, tl}]
	}
	t.mu.RUnlock()
	if (hok || head == "") && (tok || tail == "") && ok {
		return id
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fp := filePath{t.heads.id(head), t.tails.id(tail)}
	if id := packFile(fp); id != 0 {
		return id
	}
	if id, ok := t.files[fp]; ok {
		return id
	}
	if t.files == nil {
		t.files = map[filePath]uint32{}
	}
	t.fileList = append(t.fileList, fp)
	id = uint32(len(t.fileList))
	t.files[fp] = id
	return id
}

// packFile is fp as a packedID id; 0 when its ids are too large.
func packFile(fp filePath) uint32 {
	if fp.head >= packedHeads || fp.tail >= packedTails {
		return 0
	}
	return packedID | fp.head<<packedTailBits | fp.tail
}

// id is s's id, added if new (a copy: s is cut from a longer name, which
// must not stay alive for it); the table's mu must be held.
func (p *parts) id(s string) uint32 {
	if s == "" {
		return 0
	}
	if id, ok := p.ids[s]; ok {
		return id
	}
	if p.ids == nil {
		p.ids = map[string]uint32{}
	}
	p.list = append(p.list, strings.Clone(s))
	id := uint32(len(p.list))
	p.ids[p.list[id-1]] = id
	return id
}

func (p *parts) str(id uint32) string {
	if id == 0 {
		return ""
	}
	return p.list[id-1]
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
		p := t.pairList[id&^pairID-1]
		return originSource{file: t.file(p.file), why: t.whys.str(p.why)}
	}
	return originSource{file: t.file(id)}
}

// file is the name of file id id ("" for 0); mu must be held.
func (t *sourceTable) file(id uint32) string {
	var fp filePath
	switch {
	case id == 0:
		return ""
	case id&packedID != 0:
		fp = filePath{id &^ packedID >> packedTailBits, id & (packedTails - 1)}
	default:
		fp = t.fileList[id-1]
	}
	return t.heads.str(fp.head) + t.tails.str(fp.tail)
}

// OriginSources is how many names and (file, default text) pairs the
// process holds (device folders, the paths below them, the files whose
// parts' ids do not pack, the default texts, the pairs): a long-lived process (`qoslint
// serve`) must not add any when it audits an unchanged fabric again
// (TestServeOriginsBounded).
func OriginSources() int {
	t := &originSources
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.heads.list) + len(t.tails.list) + len(t.fileList) + len(t.whys.list) + len(t.pairList)
}
