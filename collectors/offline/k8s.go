package offline

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/k8s"
	"github.com/qoslint/qoslint/internal/source"
)

// K8sDir is the fabric directory's folder of Kubernetes manifests.
const K8sDir = "k8s"

// ReadK8s reads every *.yaml and *.yml file below root in fsys (in
// lexical order, subfolders included) into c.K8s; display is how reports
// name root. A file that cannot be read is an input error at its line; the
// other files are still read. Kinds qoslint does not judge are listed in a
// note.
func ReadK8s(c *collectors.Capture, fsys fs.FS, root, display string) {
	if c.K8s == nil {
		c.K8s = &k8s.Manifests{}
	}
	m := c.K8s
	problems := len(m.Problems)
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		rel := p
		if root != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		}
		name := path.Join(display, rel)
		if err != nil {
			c.Errors = append(c.Errors, source.Errorf(name, 0, "cannot read: %v", unwrapPathError(err)))
			return nil
		}
		ext := path.Ext(p)
		if d.IsDir() || ext != ".yaml" && ext != ".yml" {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		switch {
		case err != nil:
			c.Errors = append(c.Errors, source.Errorf(name, 0, "cannot read: %v", unwrapPathError(err)))
		case len(data) > maxDeviceFileBytes:
			c.Errors = append(c.Errors, source.Errorf(name, 0, "larger than %d bytes", maxDeviceFileBytes))
		default:
			var se *source.Error
			if err := m.Parse(name, data); errors.As(err, &se) {
				c.Errors = append(c.Errors, se)
			} else if err != nil {
				c.Errors = append(c.Errors, source.Errorf(name, 0, "%v", err))
			}
		}
		return nil
	})
	if err != nil {
		c.Errors = append(c.Errors, source.Errorf(display, 0, "cannot read: %v", unwrapPathError(err)))
	}
	// A profile that does not parse leaves its ConfigMap read: the error
	// is an input error all the same.
	c.Errors = append(c.Errors, m.Problems[problems:]...)
	if k := m.IgnoredKinds(); len(k) > 0 {
		c.Notes = append(c.Notes, source.Errorf(display, 0, "Kubernetes kinds seen and ignored (qoslint reads NicConfigurationTemplate, its CustomResourceDefinition, ConfigMap and pod templates): %s", strings.Join(k, ", ")))
	}
}
