package sim

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"golang.org/x/crypto/ssh"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/qoslint/qoslint/collectors/gnmi"
	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/internal/layout"
)

// copyPod copies the clean pod so a test can add files to it.
func copyPod(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(cleanPod, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(cleanPod, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func gnmiClient(t *testing.T, addr string) (gpb.GNMIClient, context.Context) {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return gpb.NewGNMIClient(conn), metadata.AppendToOutgoingContext(ctx, "username", DefaultUser, "password", testPassword)
}

func TestGNMIServesCountersFile(t *testing.T) {
	dir := copyPod(t)
	// A jsonVal leaf, an unsubscribed leaf (filtered out) and a non-QoS path.
	file := `[
  {"timestamp":"42","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":"swp51"}},{"name":"output"},{"name":"queues"},{"name":"queue","key":{"name":"3"}},{"name":"state"}]},"update":[{"path":{"elem":[{"name":"transmit-pkts"}]},"val":{"jsonVal":"OTk="}},{"path":{"elem":[{"name":"dropped-pkts"}]},"val":{"uintVal":"5"}}]},
  {"timestamp":"42","prefix":{"elem":[{"name":"interfaces"}]},"update":[{"path":{"elem":[{"name":"mtu"}]},"val":{"uintVal":"9216"}}]}
]
`
	if err := os.WriteFile(filepath.Join(dir, "devices", "leaf01", layout.GNMIFile), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startSim(t, dir, Options{GNMI: true})
	d := devByName(t, f, "leaf01")
	data, err := gnmi.Collect(context.Background(), gnmi.Target{Name: d.Name, Addr: d.GNMIAddr, Username: DefaultUser, Password: testPassword, Timeout: testTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"name":"dropped-pkts"`) || strings.Contains(string(data), "mtu") {
		t.Errorf("unsubscribed paths served:\n%s", data)
	}
	c, err := gnmifile.ParseCounters("x", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Queues) != 1 || c.Queues[gnmifile.IfQueue{Interface: "swp51", Queue: "3"}].TransmitPkts != 99 {
		t.Errorf("counters = %+v", c)
	}
	// Advance does not touch JSON values, but moves the timestamp.
	f.Advance()
	data2, err := gnmi.Collect(context.Background(), gnmi.Target{Name: d.Name, Addr: d.GNMIAddr, Username: DefaultUser, Password: testPassword, Timeout: testTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data2), `"timestamp":"10000000042"`) {
		t.Errorf("timestamp did not move:\n%s", data2)
	}
}

func TestGNMIBadCountersFile(t *testing.T) {
	dir := copyPod(t)
	if err := os.WriteFile(filepath.Join(dir, "devices", "leaf01", layout.GNMIFile), []byte("[\n  {\"bogus\":1}\n]"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startSim(t, dir, Options{GNMI: true})
	_, err := gnmi.Collect(context.Background(), gnmi.Target{Name: "leaf01", Addr: devByName(t, f, "leaf01").GNMIAddr, Username: DefaultUser, Password: testPassword, Timeout: testTimeout})
	if status.Code(err) != codes.Internal || !strings.Contains(err.Error(), layout.GNMIFile+":2") {
		t.Errorf("err = %v, want Internal naming the file and line", err)
	}
}

func TestGNMIOnlySwitchesAndOff(t *testing.T) {
	f := startSim(t, cleanPod, Options{})
	for _, d := range f.Devices() {
		if d.GNMIAddr != "" {
			t.Errorf("%s has gNMI without Options.GNMI", d.Name)
		}
	}
	f.Advance() // harmless without gNMI
	if f.GNMICAPEM() != nil {
		t.Error("CA without TLS")
	}
	g := startSim(t, cleanPod, Options{GNMI: true})
	for _, d := range g.Devices() {
		if (d.GNMIAddr != "") != (d.Kind == layout.KindSwitch) || d.GNMIAddr == d.Addr {
			t.Errorf("%s (%s): gNMI address %q", d.Name, d.Kind, d.GNMIAddr)
		}
	}
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := Start(cleanPod, Options{GNMI: true, AuthorizedKeys: []ssh.PublicKey{key}}); err == nil {
		_ = h.Close()
		t.Error("gNMI without a password started")
	} else if !strings.Contains(err.Error(), "gNMI") {
		t.Errorf("err = %v", err)
	}
}

func TestGNMIRPCs(t *testing.T) {
	f := startSim(t, cleanPod, Options{GNMI: true})
	c, ctx := gnmiClient(t, devByName(t, f, "spine01").GNMIAddr)
	caps, err := c.Capabilities(ctx, &gpb.CapabilityRequest{})
	if err != nil || len(caps.GetSupportedEncodings()) != 3 {
		t.Errorf("Capabilities: %v %v", caps, err)
	}
	if _, err := c.Get(ctx, &gpb.GetRequest{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("Get: %v, want Unimplemented as on Cumulus", err)
	}
	for _, mode := range []gpb.SubscriptionList_Mode{gpb.SubscriptionList_POLL} {
		s, err := c.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_ = s.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{Mode: mode, Subscription: []*gpb.Subscription{{Path: &gpb.Path{}}}}}})
		if _, err := s.Recv(); status.Code(err) != codes.Unimplemented {
			t.Errorf("%v: %v", mode, err)
		}
	}
}

// TestGNMIStreamSamplesAndClose: STREAM keeps sampling after
// sync_response, and Close ends a live stream promptly.
func TestGNMIStreamSamplesAndClose(t *testing.T) {
	f, err := Start(cleanPod, Options{GNMI: true, Password: testPassword})
	if err != nil {
		t.Fatal(err)
	}
	c, ctx := gnmiClient(t, devByName(t, f, "leaf01").GNMIAddr)
	s, err := c.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := gnmi.ParsePath(gnmi.SubscribePaths[0])
	_ = s.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
		Mode:         gpb.SubscriptionList_STREAM,
		Subscription: []*gpb.Subscription{{Path: p, Mode: gpb.SubscriptionMode_SAMPLE, SampleInterval: uint64(20 * time.Millisecond)}},
	}}})
	var updates, syncs int
	for updates < 24 { // 12 queues, two samples
		r, err := s.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if r.GetSyncResponse() {
			syncs++
		} else {
			updates++
		}
	}
	if syncs != 1 {
		t.Errorf("%d sync_responses", syncs)
	}
	done := make(chan struct{})
	go func() { _ = f.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(testTimeout):
		t.Fatal("Close hung on a live stream")
	}
	for {
		if _, err := s.Recv(); err != nil {
			if err == io.EOF || status.Code(err) == codes.Unavailable {
				return
			}
			t.Fatalf("after Close: %v", err)
		}
	}
}
