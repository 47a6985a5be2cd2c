package model_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestNoGRPC holds the layers that judge a fabric to what they are: the
// model, the checks and the renderers read files, so they must not link
// the gNMI client's transport. The gNMI counters format lives in
// collectors/gnmifile for that reason; a type of the generated gNMI
// package (which carries the gRPC service stubs) reaching the model
// would bring gRPC back, and this test would name the path.
func TestNoGRPC(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if errors.Is(err, exec.ErrNotFound) {
		t.Skip("the go command is not on PATH; cannot list the import graph")
	}
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"google.golang.org/grpc", "github.com/openconfig/gnmi/proto"}
	for _, pkg := range []string{"model", "checks", "render"} {
		path := "github.com/qoslint/qoslint/" + pkg
		out, err := exec.Command(goCmd, "list", "-deps", path).Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				t.Fatalf("go list -deps %s: %v\n%s", path, err, ee.Stderr)
			}
			t.Fatalf("go list -deps %s: %v", path, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 2 {
			t.Fatalf("go list -deps %s listed %d packages: %q", path, len(deps), out)
		}
		for _, d := range deps {
			for _, f := range forbidden {
				if d == f || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s links %s; see `go list -deps %s` for the path", path, d, path)
				}
			}
		}
	}
}
