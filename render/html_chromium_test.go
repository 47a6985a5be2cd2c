//go:build unix

package render_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/render"
)

// chromiumBin is Debian's chromium (or a distribution's chromium-browser).
func chromiumBin() string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// runChromium runs headless Chromium on one page with everything that
// would reach the network or a desktop session turned off, in its own
// process group so a timeout ends its renderer and GPU children too.
func runChromium(ctx context.Context, bin, home string, args ...string) (stdout []byte, stderr string, err error) {
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + filepath.Join(home, "profile")}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ctx.Err() != nil {
		err = errors.Join(err, ctx.Err())
	}
	return out.Bytes(), errb.String(), err
}

// artifactDir is where the screenshot is kept: $QOSLINT_ARTIFACTS for CI
// to collect, else render/testdata/out (ignored by git) for a person.
func artifactDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("QOSLINT_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("testdata", "out")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestHTMLInChromium renders the broken pod's report in a real browser and
// checks the page as the browser parsed it, not as Go wrote it: the matrix
// has every device × check inside its table, the chain marks exactly the
// planted defects' hops, and the summary counts the findings. The
// screenshot is kept for a person to look at.
func TestHTMLInChromium(t *testing.T) {
	bin := chromiumBin()
	if bin == "" {
		t.Skip("chromium not installed: apt-get install chromium to run the HTML DOM test")
	}
	r := lintReport(t, "../examples/broken-pod")
	tmp := t.TempDir()
	page := filepath.Join(tmp, "broken-pod.html")
	if err := os.WriteFile(page, []byte(renderHTML(t, r)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, shot := loadInChromium(t, bin, tmp, page, "html-broken-pod.png")

	checkDOMMatrix(t, string(dom), r)
	checkDOMChain(t, string(dom))
	checkDOMSummary(t, string(dom), r)
	checkScreenshot(t, shot)
	t.Logf("screenshot: %s", shot)
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// section is the part of dom from the first start to the next end after it.
func section(t *testing.T, dom, start, end string) string {
	t.Helper()
	i := strings.Index(dom, start)
	if i < 0 {
		t.Fatalf("the DOM has no %s", start)
	}
	j := strings.Index(dom[i:], end)
	if j < 0 {
		t.Fatalf("%s is not closed by %s", start, end)
	}
	return dom[i : i+j]
}

func checkDOMMatrix(t *testing.T, dom string, r *render.Report) {
	// Only cells the parser kept inside the table count: a misnested cell
	// would be moved out of it.
	table := section(t, dom, `<section id="matrix">`, `</section>`)
	if n := strings.Count(table, `<table class="matrix"`); n < 2 {
		t.Errorf("the matrix has %d tables, want one per kind of check", n)
	}
	cells := matrixCells(t, table)
	want := map[string]string{}
	for _, d := range r.Devices {
		for _, c := range checks.All() {
			want[d.Name+" "+c.ID] = "ok"
		}
	}
	// A check that did not run is a grey skip, never a pass.
	skipped := 0
	for _, st := range r.Statuses {
		if c := checks.Lookup(st.Check()); !st.Ran() && c.Devices.Has(kindOf(r, st.Device)) {
			want[st.Device+" "+st.Check()] = "skipped"
			skipped++
		}
	}
	if skipped == 0 {
		t.Error("the broken pod has no counters, so its evidence checks must be skipped")
	}
	rank := map[string]int{"ok": 0, "waived": 1, "info": 2, "warning": 3, "error": 4}
	for _, f := range r.Findings {
		k, sev := f.Device+" "+f.Check, f.Severity.String()
		if f.Waived {
			sev = "waived"
		}
		if rank[sev] > rank[want[k]] {
			want[k] = sev
		}
	}
	if len(cells) != len(want) {
		t.Errorf("the matrix has %d cells, want %d devices × %d checks", len(cells), len(r.Devices), len(checks.All()))
	}
	for k, sev := range want {
		got, ok := cells[k]
		switch {
		case !ok:
			t.Errorf("the matrix has no cell %s", k)
		case sev == "ok" && got != "ok" && got != "n/a", sev != "ok" && got != sev:
			t.Errorf("cell %s is %s, want %s", k, got, sev)
		case sev == "skipped" && !strings.Contains(table, `data-check="`+strings.Fields(k)[1]+`" data-severity="skipped" title="`+strings.Fields(k)[1]+` skipped, `):
			t.Errorf("skipped cell %s has no tooltip giving the reason", k)
		}
	}
}

// The matrix at a laptop's 1400x900: every cell with a finding lies
// inside the viewport's width and the page does not scroll sideways. One
// table of the whole catalog was about 1900 px wide, so the failing cells
// of the evidence, wire and InfiniBand columns were off screen. The page
// forbids scripts (its Content-Security-Policy); the test's copy lets one
// inline script measure the laid-out page into the DOM that --dump-dom
// prints.
func TestHTMLMatrixFitsIn1400(t *testing.T) {
	bin := chromiumBin()
	if bin == "" {
		t.Skip("chromium not installed: apt-get install chromium to run the HTML DOM test")
	}
	r := lintReport(t, "../examples/broken-pod")
	page := renderHTML(t, r)
	const csp = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`
	if !strings.Contains(page, csp) {
		t.Fatal("the page's Content-Security-Policy changed: update the test's copy")
	}
	page = strings.Replace(page, csp, `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`, 1)
	page = strings.Replace(page, "</body>", `<script>
(function(){
  var out = ["scrollWidth " + document.documentElement.scrollWidth + " " + window.innerWidth];
  document.querySelectorAll("#matrix td[data-severity]").forEach(function(td){
    var s = td.dataset.severity;
    if (s === "ok" || s === "n/a" || s === "skipped") return;
    var b = td.getBoundingClientRect();
    out.push("cell " + td.dataset.device + " " + td.dataset.check + " " + s + " " + Math.floor(b.left) + " " + Math.ceil(b.right));
  });
  var pre = document.createElement("pre");
  pre.id = "measure";
  pre.textContent = out.join("\n");
  document.body.appendChild(pre);
})();
</script>
</body>`, 1)
	tmp := t.TempDir()
	file := filepath.Join(tmp, "broken-pod-1400.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dom, stderr, err := runChromium(ctx, bin, tmp, "--window-size=1400,900", "--dump-dom", (&url.URL{Scheme: "file", Path: file}).String())
	if err != nil || len(dom) == 0 {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, tail(stderr))
	}
	measure := section(t, string(dom), `<pre id="measure">`, `</pre>`)
	lines := strings.Split(strings.TrimPrefix(measure, `<pre id="measure">`), "\n")
	var sw, vw int
	if _, err := fmt.Sscanf(lines[0], "scrollWidth %d %d", &sw, &vw); err != nil {
		t.Fatalf("measure %q: %v", lines[0], err)
	}
	if vw != 1400 {
		t.Fatalf("the viewport is %d px wide, want 1400", vw)
	}
	if sw > 1400 {
		t.Errorf("the page is %d px wide: it scrolls sideways at 1400 px", sw)
	}
	want := map[string]bool{}
	for _, f := range r.Findings {
		want[f.Device+" "+f.Check] = true
	}
	seen := 0
	for _, l := range lines[1:] {
		var dev, check, sev string
		var left, right int
		if _, err := fmt.Sscanf(l, "cell %s %s %s %d %d", &dev, &check, &sev, &left, &right); err != nil {
			t.Fatalf("measure %q: %v", l, err)
		}
		seen++
		if left < 0 || right > 1400 {
			t.Errorf("cell %s %s (%s) lies at x %d..%d, outside the 1400 px viewport", dev, check, sev, left, right)
		}
	}
	if seen != len(want) {
		t.Errorf("%d cells with findings measured, want %d (one per device × check with a finding)", seen, len(want))
	}
}

func kindOf(r *render.Report, device string) string {
	for _, d := range r.Devices {
		if d.Name == device {
			return d.Kind
		}
	}
	return ""
}

var (
	rowAttrRe = regexp.MustCompile(`^<g class="row [^"]*" data-device="([^"]*)" data-sub="([^"]*)" data-status="([^"]*)"`)
	stripRe   = regexp.MustCompile(`<g class="switch hop-[a-z]+" data-switch="([^"]+)" data-status="([a-z]+)">`)
	hopRe     = regexp.MustCompile(`<g class="hop hop-broken" data-hop="([^"]+)" data-status="broken" data-check="[^"]+"><title>([^<]+)</title>.*?<text class="short"[^>]*>([^<]+)</text></g>`)
)

func checkDOMChain(t *testing.T, dom string) {
	svg := section(t, dom, `<section id="chain">`, `</svg>`)
	if !strings.Contains(svg, "<svg") {
		t.Fatal("the chain section has no svg")
	}
	var broken []string
	rows := strings.Split(svg, `<g class="row `)[1:]
	if len(rows) != 8+7 {
		t.Errorf("the chain has %d rows, want 8 NICs and 7 port groups", len(rows))
	}
	for _, row := range rows {
		m := rowAttrRe.FindStringSubmatch(`<g class="row ` + row)
		if m == nil {
			t.Fatalf("a chain row without its data attributes: %.200s", row)
		}
		hops := hopRe.FindAllStringSubmatch(row, -1)
		for _, h := range hops {
			broken = append(broken, m[1]+" "+m[2]+" "+h[1])
			if strings.TrimSpace(h[2]) == "" || strings.TrimSpace(h[3]) == "" {
				t.Errorf("%s %s %s: a broken hop needs its reason as tooltip and label", m[1], m[2], h[1])
			}
		}
		if strings.HasPrefix(m[1], "gpu") {
			// Every NIC row ends in the switches, each as sound as its
			// worst port group: only spine01 carries RoCE untouched.
			var strip []string
			for _, s := range stripRe.FindAllStringSubmatch(row, -1) {
				strip = append(strip, s[1]+"="+s[2])
			}
			if got, want := strings.Join(strip, " "), "leaf01=broken leaf02=broken leaf03=broken spine01=ok spine02=broken"; got != want {
				t.Errorf("row %s %s ends in switches %q, want %q", m[1], m[2], got, want)
			}
		}
		if st := m[3]; (st == "broken") != (len(hops) > 0) {
			t.Errorf("row %s %s is %s with %d broken hops", m[1], m[2], st, len(hops))
		}
		if n := strings.Count(row, `data-status="broken"`); n < len(hops) {
			t.Errorf("row %s %s: %d broken hops drawn, %d matched", m[1], m[2], n, len(hops))
		}
	}
	sort.Strings(broken)
	if strings.Join(broken, "\n") != strings.Join(brokenPodBreaks, "\n") {
		t.Errorf("broken hops in the DOM:\n%s\nwant:\n%s", strings.Join(broken, "\n"), strings.Join(brokenPodBreaks, "\n"))
	}
}

func checkDOMSummary(t *testing.T, dom string, r *render.Report) {
	sum := section(t, dom, `<section id="summary"`, `</section>`)
	var errs, warns, infos, waived int
	for _, f := range r.Findings {
		switch {
		case f.Waived:
			waived++
		case f.Severity == judge.Error:
			errs++
		case f.Severity == judge.Warning:
			warns++
		default:
			infos++
		}
	}
	for attr, n := range map[string]int{
		"data-devices": len(r.Devices), "data-findings": len(r.Findings), "data-errors": errs,
		"data-warnings": warns, "data-info": infos, "data-waived": waived, "data-input-errors": len(r.Errors),
	} {
		if !strings.Contains(sum, attr+`="`+strconv.Itoa(n)+`"`) {
			t.Errorf("summary: want %s=%d in %.300s", attr, n, sum)
		}
	}
	// What a person reads, not only the attributes.
	for _, s := range []string{`<b>` + strconv.Itoa(errs) + `</b>errors`, `<b>` + strconv.Itoa(warns) + `</b>warnings`, `FAIL`} {
		if !strings.Contains(sum, s) {
			t.Errorf("summary lacks %s", s)
		}
	}
}

// checkScreenshot checks the PNG is the page drawn at the window's size, in
// the report's colours: a blank or error page has neither its red nor its
// green. (Which boxes are red is the DOM check's business.)
func checkScreenshot(t *testing.T, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1400 || b.Dy() != 2000 {
		t.Errorf("screenshot is %v, want 1400×2000", b)
	}
	near := func(c [3]int) int {
		n := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y += 2 {
			for x := b.Min.X; x < b.Max.X; x += 2 {
				r, g, bl, _ := img.At(x, y).RGBA()
				if abs(int(r>>8)-c[0]) < 24 && abs(int(g>>8)-c[1]) < 24 && abs(int(bl>>8)-c[2]) < 24 {
					n++
				}
			}
		}
		return n
	}
	if n := near([3]int{0xc5, 0x22, 0x1f}); n < 200 {
		t.Errorf("screenshot has %d red pixels: are the broken hops drawn?", n)
	}
	if n := near([3]int{0x13, 0x73, 0x33}); n < 200 {
		t.Errorf("screenshot has %d green pixels: are the sound hops drawn?", n)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var traceHopRe = regexp.MustCompile(`<div class="hop ([a-z -]+)" id="[^"]+" data-hop="(\d)" data-device="([^"]+)"`)

// TestTraceHTMLInChromium renders the broken pod's trace gpu02 → gpu01 on
// rail 0 in a real browser: as the browser parsed it, the one path holds
// its three hops in order inside its list, leaf01 is the first broken
// hop, and the screenshot shows both the broken (red) and sound (green)
// hops.
func TestTraceHTMLInChromium(t *testing.T) {
	bin := chromiumBin()
	if bin == "" {
		t.Skip("chromium not installed: apt-get install chromium to run the HTML DOM test")
	}
	var b, errOut bytes.Buffer
	if code := app.Trace(&b, &errOut, "../examples/broken-pod", "gpu02:ens1f0np0", "gpu01:ens1f0np0", "html"); code != app.ExitFindings {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	tmp := t.TempDir()
	page := filepath.Join(tmp, "trace.html")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, shot := loadInChromium(t, bin, tmp, page, "html-trace-broken-pod.png")
	path := section(t, string(dom), `<section class="path broken"`, `</ol>`)
	if !strings.Contains(path, `data-broken="leaf01" data-check="switch-dscp-map"`) {
		t.Errorf("the path does not name leaf01 and switch-dscp-map: %.300s", path)
	}
	var hops []string
	for _, m := range traceHopRe.FindAllStringSubmatch(path, -1) {
		hops = append(hops, m[2]+" "+m[3]+" "+m[1])
	}
	if got, want := strings.Join(hops, ", "), "0 gpu02 ok, 1 leaf01 broken first-broken, 2 gpu01 broken"; got != want {
		t.Errorf("hops in the DOM: %s, want %s", got, want)
	}
	checkScreenshot(t, shot)
	t.Logf("screenshot: %s", shot)
}

// loadInChromium opens page in headless Chromium once for its DOM and a
// 1400x2000 screenshot kept as an artifact under name; a Chromium that
// does one thing per run is asked again for the screenshot.
func loadInChromium(t *testing.T, bin, tmp, page, name string) (dom []byte, shot string) {
	t.Helper()
	shot = filepath.Join(artifactDir(t), name)
	_ = os.Remove(shot)
	pageURL := (&url.URL{Scheme: "file", Path: page}).String()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dom, stderr, err := runChromium(ctx, bin, tmp, "--screenshot="+shot, "--window-size=1400,2000", "--dump-dom", pageURL)
	if err != nil || len(dom) == 0 {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, tail(stderr))
	}
	if _, err := os.Stat(shot); err != nil {
		if _, stderr, err = runChromium(ctx, bin, tmp, "--screenshot="+shot, "--window-size=1400,2000", pageURL); err != nil {
			t.Fatalf("chromium --screenshot: %v\n%s", err, tail(stderr))
		}
	}
	return dom, shot
}

var topoLinkRe = regexp.MustCompile(`<g class="link link-([a-z]+)[^"]*" data-link="([^"]+)" data-verdict="([a-z]+)"[^>]*><title>[^<]*</title><path d="M(\d+) (\d+) L(\d+) (\d+)"></path></g>`)

// TestTopologyInChromium renders the broken pod's topology view in a real
// browser. The page is the report's own head (its style sheet and policy)
// and its topology section alone, so the screenshot's colours are the
// view's and not the matrix's: as the browser parsed it, the 14 links are
// inside the SVG with a visible length, gpu03's two swapped cables are the
// red ones (the spine01–leaf01 9000/9216 pair is link-mtu info: nothing the
// hosts send is that large), and the picture shows red links, grey links and
// the switch boxes' fill.
func TestTopologyInChromium(t *testing.T) {
	bin := chromiumBin()
	if bin == "" {
		t.Skip("chromium not installed: apt-get install chromium to run the HTML DOM test")
	}
	full := renderHTML(t, lintReport(t, "../examples/broken-pod"))
	head := full[:strings.Index(full, "<body>")+len("<body>")]
	topo := section(t, full, `<section id="topology">`, `</section>`)
	tmp := t.TempDir()
	page := filepath.Join(tmp, "topology.html")
	if err := os.WriteFile(page, []byte(head+"\n"+topo+"</section>\n</body>\n</html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, shot := loadInChromium(t, bin, tmp, page, "html-topology-broken-pod.png")
	svg := section(t, string(dom), `<svg role="img" aria-label="fabric topology"`, `</svg>`)
	var red []string
	links := topoLinkRe.FindAllStringSubmatch(svg, -1)
	for _, m := range links {
		if m[1] != m[3] {
			t.Errorf("link %s: class link-%s, data-verdict %s", m[2], m[1], m[3])
		}
		if m[4] == m[6] && m[5] == m[7] {
			t.Errorf("link %s has no length", m[2])
		}
		if m[3] == "error" {
			red = append(red, m[2])
		}
	}
	if len(links) != 14 {
		t.Errorf("%d links in the SVG as parsed, want 14", len(links))
	}
	sort.Strings(red)
	if got := strings.Join(red, " "); got != "leaf01:swp3--gpu03:ens1f1np1 leaf02:swp3--gpu03:ens1f0np0" {
		t.Errorf("red links %s", got)
	}
	if n := strings.Count(svg, `<g class="device `); n != 9 {
		t.Errorf("%d device boxes, want 9", n)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	count := func(c [3]int) int {
		n := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if abs(int(r>>8)-c[0]) < 24 && abs(int(g>>8)-c[1]) < 24 && abs(int(bl>>8)-c[2]) < 24 {
					n++
				}
			}
		}
		return n
	}
	// Two red cables of ~150px at 3.5px; ten grey ones at 2px; nine
	// boxes, five of them switches filled #e8f0fe.
	for _, c := range []struct {
		what string
		rgb  [3]int
		min  int
	}{{"red (error links)", [3]int{0xc5, 0x22, 0x1f}, 500}, {"grey (sound links)", [3]int{0x9a, 0xa0, 0xa6}, 1000},
		{"switch fill", [3]int{0xe8, 0xf0, 0xfe}, 5 * 80 * 20}} {
		if n := count(c.rgb); n < c.min {
			t.Errorf("screenshot has %d %s pixels, want at least %d", n, c.what, c.min)
		}
	}
	t.Logf("screenshot: %s", shot)
}
