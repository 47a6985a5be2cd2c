package gnmi

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// DefaultTimeout bounds a collection when Target.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// sampleInterval is what the STREAM fallback asks for; only the first
// sample (up to sync_response) is kept, so it barely matters.
const sampleInterval = 10 * time.Second

// Target is one switch's gNMI server.
type Target struct {
	Name     string // the inventory name, used in errors and as the key of CollectAll
	Addr     string // host:port
	Username string
	Password string // sent as metadata, never printed
	TLS      *tls.Config
	Timeout  time.Duration // whole collection; 0 means DefaultTimeout
}

// String names the target without its password, so %v and %+v of a
// Target never print it.
func (t Target) String() string {
	return fmt.Sprintf("gnmi.Target{Name:%q Addr:%q Username:%q Password:<redacted> TLS:%t Timeout:%v}",
		t.Name, t.Addr, t.Username, t.TLS != nil, t.Timeout)
}

// GoString is String, for %#v.
func (t Target) GoString() string { return t.String() }

// Result is one target's outcome in CollectAll.
type Result struct {
	Data []byte // the gnmi-counters.json bytes, nil on error
	Err  error
}

// Collect subscribes to SubscribePaths and returns the gnmi-counters.json
// bytes. Errors name the target and keep the gRPC status code
// (status.Code(err)): Unauthenticated for bad credentials, DeadlineExceeded
// when no sync_response came in time.
func Collect(ctx context.Context, t Target) ([]byte, error) {
	timeout := t.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	creds := insecure.NewCredentials()
	if t.TLS != nil {
		creds = credentials.NewTLS(t.TLS)
	}
	// NewClient is lazy: address and TLS problems surface on the first RPC
	// (google.golang.org/grpc v1.85.0 clientconn.go NewClient), inside ctx's deadline.
	conn, err := grpc.NewClient(t.Addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, t.errorf(err, "gNMI client: %v", err)
	}
	defer conn.Close()
	c := gpb.NewGNMIClient(conn)
	if t.Username != "" || t.Password != "" {
		// The de-facto gNMI metadata keys (openconfig/gnmi client passCred,
		// client/gnmi/credentials.go).
		ctx = metadata.AppendToOutgoingContext(ctx, "username", t.Username, "password", t.Password)
	}

	ns, err := subscribe(ctx, c, gpb.SubscriptionList_ONCE)
	if err != nil && len(ns) == 0 {
		if code := status.Code(err); code == codes.Unimplemented || code == codes.InvalidArgument {
			// Cumulus' own agent documents STREAM only (CumulusNetworks/docs content/
			// cumulus-linux-518/Monitoring-and-Troubleshooting/gNMI Streaming.md).
			ns, err = subscribe(ctx, c, gpb.SubscriptionList_STREAM)
		}
	}
	if err != nil {
		return nil, t.explain(ctx, err, len(ns), timeout)
	}
	data, err := MarshalFile(ns)
	if err != nil {
		return nil, t.errorf(err, "encoding notifications: %v", err)
	}
	return data, nil
}

// errNoSync marks a stream that ended cleanly before sync_response.
var errNoSync = errors.New("stream ended before sync_response")

// subscribe runs one Subscribe and returns the notifications received
// before the first sync_response. It cancels the stream on return, so a
// STREAM subscription stops there.
func subscribe(ctx context.Context, c gpb.GNMIClient, mode gpb.SubscriptionList_Mode) ([]*gpb.Notification, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sl := &gpb.SubscriptionList{Mode: mode, Encoding: gpb.Encoding_PROTO}
	for _, s := range SubscribePaths {
		p, err := ParsePath(s)
		if err != nil {
			return nil, err
		}
		sub := &gpb.Subscription{Path: p}
		if mode == gpb.SubscriptionList_STREAM {
			sub.Mode = gpb.SubscriptionMode_SAMPLE
			sub.SampleInterval = uint64(sampleInterval.Nanoseconds())
		}
		sl.Subscription = append(sl.Subscription, sub)
	}
	stream, err := c.Subscribe(ctx)
	if err != nil {
		return nil, err
	}
	if err := stream.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: sl}}); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	// On io.EOF from Send the real status comes from Recv.
	var out []*gpb.Notification
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return out, errNoSync
		}
		if err != nil {
			return out, err
		}
		switch r := resp.GetResponse().(type) {
		case *gpb.SubscribeResponse_Update:
			out = append(out, r.Update)
		case *gpb.SubscribeResponse_SyncResponse:
			return out, nil
		}
	}
}

// Error is a failed collection. It keeps the gRPC code, so status.Code
// works on it, and never holds the password.
type Error struct {
	Device string
	Addr   string
	Code   codes.Code
	Msg    string
	Err    error // the cause, for errors.Is / errors.As
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Device, e.Cause()) }

// Cause is the error without the device name, for messages that name the
// device already.
func (e *Error) Cause() string { return fmt.Sprintf("gNMI %s: %s", e.Addr, e.Msg) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// GRPCStatus lets status.Code and status.FromError see the code.
func (e *Error) GRPCStatus() *status.Status { return status.New(e.Code, e.Error()) }

func (t Target) errorf(cause error, format string, a ...any) *Error {
	return &Error{Device: t.Name, Addr: t.Addr, Code: status.Code(cause), Msg: fmt.Sprintf(format, a...), Err: cause}
}

// explain turns a Subscribe failure into an error a user can act on.
func (t Target) explain(ctx context.Context, err error, got int, timeout time.Duration) error {
	st, _ := status.FromError(err)
	switch {
	case errors.Is(err, errNoSync):
		e := t.errorf(err, "stream closed after %d notification(s) without sync_response", got)
		e.Code = codes.Unavailable
		return e
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || st.Code() == codes.DeadlineExceeded:
		e := t.errorf(err, "no sync_response within %v (%d notification(s) received; last error: %s)", timeout, got, st.Message())
		e.Code = codes.DeadlineExceeded
		return e
	case st.Code() == codes.Unauthenticated || st.Code() == codes.PermissionDenied:
		return t.errorf(err, "authentication failed for user %q: %s", t.Username, st.Message())
	case st.Code() == codes.Canceled:
		return t.errorf(err, "cancelled after %d notification(s)", got)
	case got > 0:
		return t.errorf(err, "stream broke after %d notification(s) without sync_response: %s: %s", got, st.Code(), st.Message())
	default:
		return t.errorf(err, "subscribe failed: %s: %s", st.Code(), st.Message())
	}
}

// CollectAll runs Collect on every target with at most workers at a time
// (default 8) and returns the results by target name. Names must be
// unique: a later target with a name already seen is skipped.
func CollectAll(ctx context.Context, targets []Target, workers int) map[string]Result {
	if workers <= 0 {
		workers = 8
	}
	out := make(map[string]Result, len(targets))
	var mu sync.Mutex
	jobs := make(chan Target)
	var wg sync.WaitGroup
	for range min(workers, len(targets)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range jobs {
				data, err := Collect(ctx, t)
				mu.Lock()
				out[t.Name] = Result{Data: data, Err: err}
				mu.Unlock()
			}
		}()
	}
	// Dispatch in name order (stable logs); a duplicate name is collected
	// once, from its first target.
	sorted := make([]Target, 0, len(targets))
	seen := map[string]bool{}
	for _, t := range targets {
		if !seen[t.Name] {
			seen[t.Name] = true
			sorted = append(sorted, t)
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, t := range sorted {
		jobs <- t
	}
	close(jobs)
	wg.Wait()
	return out
}
