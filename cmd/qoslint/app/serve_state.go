package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/qoslint/qoslint/model/snapshot"
)

// stateDir keeps one snapshot per run, snapshot-<UTC start>.json, the
// newest keep of them: the names sort by time, so a restarted serve finds
// the last two runs for /drift where it left them.
type stateDir struct {
	dir  string
	keep int
	mu   sync.Mutex
}

const (
	snapPrefix = "snapshot-"
	snapSuffix = ".json"
	// snapTime sorts as a string in time order (fixed width, UTC).
	snapTime = "20060102T150405.000000000Z"
)

func openStateDir(dir string, keep int) (*stateDir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	return &stateDir{dir: dir, keep: keep}, nil
}

// list gives the kept snapshots' file names, oldest first.
func (s *stateDir) list() ([]string, error) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if n := e.Name(); e.Type().IsRegular() && strings.HasPrefix(n, snapPrefix) && strings.HasSuffix(n, snapSuffix) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names, nil
}

// add writes the snapshot of the run that started at start (beside its
// place, then renamed: a reader never sees half of it) and removes the
// oldest beyond keep.
func (s *stateDir) add(start time.Time, snap *snapshot.Snapshot) error {
	var b bytes.Buffer
	if err := snapshot.Write(&b, snap); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	name := snapPrefix + start.UTC().Format(snapTime) + snapSuffix
	tmp, err := os.CreateTemp(s.dir, ".tmp-snapshot-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b.Bytes()); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(s.dir, name)); err != nil {
		return err
	}
	names, err := s.list()
	if err != nil {
		return err
	}
	for len(names) > s.keep {
		if err := os.Remove(filepath.Join(s.dir, names[0])); err != nil {
			return err
		}
		names = names[1:]
	}
	return nil
}

// lastTwo reads the two newest snapshots; n is how many there are (fewer
// than 2: nothing to compare yet).
func (s *stateDir) lastTwo() (old, cur *snapshot.Snapshot, oldName, curName string, n int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	names, err := s.list()
	if err != nil || len(names) < 2 {
		return nil, nil, "", "", len(names), err
	}
	oldName, curName = names[len(names)-2], names[len(names)-1]
	if old, err = s.read(oldName); err != nil {
		return nil, nil, "", "", len(names), err
	}
	cur, err = s.read(curName)
	return old, cur, oldName, curName, len(names), err
}

func (s *stateDir) read(name string) (*snapshot.Snapshot, error) {
	data, err := os.ReadFile(filepath.Join(s.dir, name))
	if err != nil {
		return nil, err
	}
	return snapshot.Read(name, data)
}
