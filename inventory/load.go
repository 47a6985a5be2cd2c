package inventory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// fileNames are the inventory files Load looks for in a fabric directory, in
// order of preference.
var fileNames = []string{"inventory.yaml", "inventory.yml", "inventory.hcl"}

// Load reads the inventory of the fabric in dir: inventory.yaml,
// inventory.yml or inventory.hcl. More than one of them is an error (which
// one the user edits would be a guess). Inventory.File is the base name, the
// path relative to the fabric directory, so evidence does not depend on where
// the fabric was checked out.
//
// Problems with the file's content come back as Errors; a missing or
// unreadable file as an error wrapping the fs error.
func Load(dir string) (*Inventory, error) {
	var found []string
	for _, name := range fileNames {
		st, err := os.Stat(filepath.Join(dir, name))
		switch {
		case err == nil && !st.IsDir():
			found = append(found, name)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%s: no %s: %w", dir, strings.Join(fileNames, ", "), fs.ErrNotExist)
	case 1:
	default:
		return nil, fmt.Errorf("%s: ambiguous inventory: found %s; keep only one", dir, strings.Join(found, " and "))
	}
	data, err := os.ReadFile(filepath.Join(dir, found[0]))
	if err != nil {
		return nil, err
	}
	return Parse(found[0], data)
}

// LoadFile reads the inventory at path; Inventory.File and error positions
// use path as given.
func LoadFile(path string) (*Inventory, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads an inventory from data; name's suffix (.yaml, .yml or .hcl,
// any case) picks the format and name is used as Inventory.File and in
// errors. Every problem found is returned at once, as Errors.
func Parse(name string, data []byte) (inv *Inventory, err error) {
	// Neither parser should panic, but a panic on a user's file must still
	// be an error naming the file, never a crash.
	defer func() {
		if r := recover(); r != nil {
			inv, err = nil, Errors{source.Errorf(name, 1, "internal error parsing inventory: %v", r)}
		}
	}()
	// YAML 1.2 §5.2 and the HCL native syntax specification (hashicorp/hcl
	// hclsyntax/spec.md, "Source Code Representation") both require UTF-8:
	// a byte that is not is reported at its own line, which the YAML and
	// HCL parsers do not do (line 1, or the line after). That HCL section
	// also forbids a byte order mark; qoslint drops one instead, as in
	// every file it reads, because it carries nothing and Windows editors
	// write it.
	data = source.StripBOM(data)
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml":
		if e := source.CheckUTF8(name, data, "YAML"); e != nil {
			return nil, Errors{e}
		}
		return parseYAML(name, data)
	case ".hcl":
		if e := source.CheckUTF8(name, data, "HCL"); e != nil {
			return nil, Errors{e}
		}
		return parseHCL(name, data)
	}
	return nil, Errors{source.Errorf(name, 1, "unknown inventory format %q: want .yaml, .yml or .hcl", filepath.Ext(name))}
}
