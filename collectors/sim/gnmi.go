package sim

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/qoslint/qoslint/collectors/gnmi"
	"github.com/qoslint/qoslint/internal/layout"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// minSampleInterval keeps a STREAM subscription with a tiny (or no)
// sample_interval from spinning.
const (
	minSampleInterval     = 10 * time.Millisecond
	defaultSampleInterval = time.Second
)

// gnmiFabric is the gNMI side of a fabric: one gRPC server per switch,
// Subscribe only (ONCE and STREAM), as on Cumulus Linux
// (CumulusNetworks/docs content/cumulus-linux-518/Monitoring-and-Troubleshooting/gNMI Streaming.md).
type gnmiFabric struct {
	tls   *tls.Config // nil: plaintext
	caPEM []byte
	devs  map[string]*gnmiDev

	mu    sync.Mutex
	epoch int // Advance count
}

// gnmiDev serves one switch.
type gnmiDev struct {
	gpb.UnimplementedGNMIServer // Get and Set answer Unimplemented, as on Cumulus
	f                           *Fabric
	d                           *device
	srv                         *grpc.Server
	addr                        string

	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

func (f *Fabric) startGNMI() error {
	g := &gnmiFabric{devs: map[string]*gnmiDev{}}
	if f.opt.GNMITLS {
		cfg, ca, err := gnmiTLS(f.hostIP)
		if err != nil {
			return fmt.Errorf("sim: gNMI TLS: %w", err)
		}
		g.tls, g.caPEM = cfg, ca
	}
	f.gnmi = g
	for _, d := range f.devs {
		if d.kind != layout.KindSwitch {
			continue
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(f.hostIP.String(), "0"))
		if err != nil {
			return fmt.Errorf("sim: gNMI listen for %s: %w", d.name, err)
		}
		gd := &gnmiDev{f: f, d: d, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
		opts := []grpc.ServerOption{
			grpc.StreamInterceptor(gd.streamAuth),
			grpc.UnaryInterceptor(gd.unaryAuth),
			grpc.WaitForHandlers(true), // Close waits for every handler
		}
		if g.tls != nil {
			opts = append(opts, grpc.Creds(credentials.NewTLS(g.tls)))
		}
		gd.srv = grpc.NewServer(opts...)
		gpb.RegisterGNMIServer(gd.srv, gd)
		g.devs[d.name] = gd
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			_ = gd.srv.Serve(&cutListener{Listener: ln, g: gd})
		}()
	}
	return nil
}

// stopGNMI ends every gNMI server; handlers see their context cancelled.
func (f *Fabric) stopGNMI() {
	if f.gnmi == nil {
		return
	}
	for _, gd := range f.gnmi.devs {
		gd.srv.Stop()
	}
}

// gnmiPort is a switch's gNMI port, 0 without gNMI.
func (f *Fabric) gnmiPort(name string) int {
	_, port, err := net.SplitHostPort(f.gnmiAddr(name))
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(port)
	return n
}

// gnmiAddr is a switch's gNMI host:port, "" without gNMI.
func (f *Fabric) gnmiAddr(name string) string {
	if f.gnmi == nil || f.gnmi.devs[name] == nil {
		return ""
	}
	return f.gnmi.devs[name].addr
}

// GNMICAPEM is the PEM certificate of the CA that signed every switch's
// gNMI certificate (generated per run), nil without Options.GNMITLS. The
// certificates name the listen IP and localhost.
func (f *Fabric) GNMICAPEM() []byte {
	if f.gnmi == nil {
		return nil
	}
	return append([]byte(nil), f.gnmi.caPEM...)
}

// Advance moves every switch's gNMI counters one sample on: transmit and
// pause counters grow, timestamps move 10 s. Subscriptions opened (or
// sampled) afterwards see the new values. The synthetic `ethtool -S`
// counters of hosts without an ethtool file grow too (syntheticEthtoolAt).
func (f *Fabric) Advance() {
	f.samples.Add(1)
	if f.gnmi == nil {
		return
	}
	f.gnmi.mu.Lock()
	f.gnmi.epoch++
	f.gnmi.mu.Unlock()
}

func (g *gnmiFabric) currentEpoch() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.epoch
}

// auth checks the "username"/"password" metadata (the de-facto gNMI keys,
// openconfig/gnmi client/gnmi/credentials.go passCred) against Options.User/Password.
func (gd *gnmiDev) auth(ctx context.Context) error {
	md, _ := metadata.FromIncomingContext(ctx)
	user, pass := first(md.Get("username")), first(md.Get("password"))
	okUser := subtle.ConstantTimeCompare([]byte(user), []byte(gd.f.opt.User)) == 1
	okPass := subtle.ConstantTimeCompare([]byte(pass), []byte(gd.f.opt.Password)) == 1
	if gd.d.fault.AuthFail || !okUser || !okPass {
		return status.Error(codes.Unauthenticated, "invalid username or password")
	}
	return nil
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func (gd *gnmiDev) streamAuth(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	if err := gd.auth(ss.Context()); err != nil {
		return err
	}
	return h(srv, ss)
}

func (gd *gnmiDev) unaryAuth(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	if err := gd.auth(ctx); err != nil {
		return nil, err
	}
	return h(ctx, req)
}

// Capabilities lists the encodings Cumulus advertises
// (CumulusNetworks/docs content/cumulus-linux-518/Monitoring-and-Troubleshooting/gNMI Streaming.md).
func (gd *gnmiDev) Capabilities(context.Context, *gpb.CapabilityRequest) (*gpb.CapabilityResponse, error) {
	return &gpb.CapabilityResponse{
		SupportedEncodings: []gpb.Encoding{gpb.Encoding_JSON, gpb.Encoding_JSON_IETF, gpb.Encoding_PROTO},
		GNMIVersion:        "0.10.0",
	}, nil
}

// Subscribe answers ONCE (unless Fault.GNMIOnceUnimplemented) and STREAM
// (every subscription sampled at the smallest sample_interval).
func (gd *gnmiDev) Subscribe(stream gpb.GNMI_SubscribeServer) error {
	req, err := stream.Recv()
	if err != nil {
		return err
	}
	sl := req.GetSubscribe()
	if sl == nil {
		return status.Error(codes.InvalidArgument, "the first message must be a SubscriptionList")
	}
	fault := gd.d.fault
	switch sl.GetMode() {
	case gpb.SubscriptionList_ONCE:
		if fault.GNMIOnceUnimplemented {
			return status.Error(codes.Unimplemented, "subscription mode ONCE is not supported")
		}
	case gpb.SubscriptionList_STREAM:
	default:
		return status.Errorf(codes.Unimplemented, "subscription mode %s is not supported", sl.GetMode())
	}
	subs, interval := subscriptions(sl)
	if len(subs) == 0 {
		return status.Error(codes.InvalidArgument, "no subscriptions")
	}
	base, err := gd.d.gnmiBaseline()
	if err != nil {
		return status.Errorf(codes.Internal, "counters of %s: %v", gd.d.name, err)
	}
	if !gd.f.sleep(gd.f.opt.Latency + fault.Delay) {
		return status.Error(codes.Unavailable, "simulator closing")
	}
	return gd.stream(stream, sl.GetMode(), subs, interval, base)
}

// subscriptions are the full paths of a SubscriptionList (prefix and
// path) and the shortest sample interval asked for, within the
// simulator's bounds.
func subscriptions(sl *gpb.SubscriptionList) ([]*gpb.Path, time.Duration) {
	var subs []*gpb.Path
	interval := time.Duration(0)
	for _, s := range sl.GetSubscription() {
		p := proto.Clone(sl.GetPrefix()).(*gpb.Path)
		if p == nil {
			p = &gpb.Path{}
		}
		p.Elem = append(p.Elem, s.GetPath().GetElem()...)
		subs = append(subs, p)
		if iv := time.Duration(s.GetSampleInterval()); iv > 0 && (interval == 0 || iv < interval) {
			interval = iv
		}
	}
	if interval == 0 {
		interval = defaultSampleInterval
	}
	return subs, max(interval, minSampleInterval)
}

// stream sends a sample, the sync_response (which ends a ONCE
// subscription) and, for STREAM, a sample every interval until the client
// or the simulator ends it, as the device's faults allow.
func (gd *gnmiDev) stream(stream gpb.GNMI_SubscribeServer, mode gpb.SubscriptionList_Mode, subs []*gpb.Path, interval time.Duration, base []*gpb.Notification) error {
	fault := gd.d.fault
	ctx := stream.Context()
	sent := 0
	sample := func() error {
		for _, n := range filter(gnmiSample(base, gd.f.gnmi.currentEpoch()), subs) {
			if fault.GNMICutAfter > 0 && sent >= fault.GNMICutAfter {
				gd.cut()
				return status.Error(codes.Unavailable, "connection cut")
			}
			if err := stream.Send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_Update{Update: n}}); err != nil {
				return err
			}
			sent++
		}
		return nil
	}
	if err := sample(); err != nil {
		return err
	}
	if !fault.GNMINoSync {
		if err := stream.Send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_SyncResponse{SyncResponse: true}}); err != nil {
			return err
		}
		if mode == gpb.SubscriptionList_ONCE {
			return nil // ONCE ends the RPC after sync_response
		}
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-gd.f.done:
			return status.Error(codes.Unavailable, "simulator closing")
		case <-t.C:
			if mode == gpb.SubscriptionList_ONCE {
				continue // GNMINoSync on ONCE: stay silent until the client gives up
			}
			if err := sample(); err != nil {
				return err
			}
		}
	}
}

// filter keeps the updates some subscription covers, and the
// notifications left with any.
func filter(ns []*gpb.Notification, subs []*gpb.Path) []*gpb.Notification {
	var out []*gpb.Notification
	for _, n := range ns {
		var keep []*gpb.Update
		for _, u := range n.GetUpdate() {
			for _, s := range subs {
				if gnmi.Match(s, n.GetPrefix(), u.GetPath()) {
					keep = append(keep, u)
					break
				}
			}
		}
		if len(keep) > 0 {
			n.Update = keep
			out = append(out, n)
		}
	}
	return out
}

// cut drops the switch's gNMI TCP connections: a link or agent dying
// mid-stream, not an orderly end of the RPC.
func (gd *gnmiDev) cut() {
	gd.mu.Lock()
	conns := make([]net.Conn, 0, len(gd.conns))
	for c := range gd.conns {
		conns = append(conns, c)
	}
	gd.mu.Unlock() // trackedConn.Close takes it
	for _, c := range conns {
		_ = c.Close()
	}
}

// cutListener records accepted connections so cut can close them.
type cutListener struct {
	net.Listener
	g *gnmiDev
}

func (l *cutListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &trackedConn{Conn: c, g: l.g}
	l.g.mu.Lock()
	l.g.conns[tc] = struct{}{}
	l.g.mu.Unlock()
	return tc, nil
}

type trackedConn struct {
	net.Conn
	g    *gnmiDev
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.g.mu.Lock()
		delete(c.g.conns, c)
		c.g.mu.Unlock()
	})
	return c.Conn.Close()
}
