package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/cmd/qoslint/help"
)

const repoRoot = "../../.."

// TestChecksTopic holds the generated part of cmd/qoslint/help/checks.md
// to the catalog: the table and one `### <id>` section per check, in
// catalog order, with nothing stale. SARIF rules link to
// checks.md#<id>, so every check must have exactly that heading, and no
// other heading may take an ID's anchor. QOSLINT_UPDATE_GOLDEN=1
// rewrites the region.
func TestChecksTopic(t *testing.T) {
	path := filepath.Join(repoRoot, "cmd/qoslint/help/checks.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- checks:begin -->\n", "<!-- checks:end -->"
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("checks.md lacks the %q ... %q markers", begin, end)
	}
	want := checksReference()
	if got := s[i+len(begin) : j]; got != want {
		if os.Getenv("QOSLINT_UPDATE_GOLDEN") != "" {
			s = s[:i+len(begin)] + want + s[j:]
			if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Errorf("checks.md's check reference differs from the catalog; regenerate it with QOSLINT_UPDATE_GOLDEN=1 go test ./cmd/qoslint/commands -run TestChecksTopic")
		}
	}
	var ids []string
	for _, c := range catalog() {
		ids = append(ids, c.ID)
		if strings.Contains(c.Doc, "```") {
			t.Errorf("%s: its doc holds a code fence, which would end the fenced section early", c.ID)
		}
	}
	var sections []string
	inFence := false
	for n, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		level, title, _ := strings.Cut(line, " ")
		if level == "###" && slices.Contains(ids, title) {
			sections = append(sections, title)
		} else if slug := githubSlug(title); slices.Contains(ids, slug) {
			t.Errorf("checks.md:%d: heading %q takes the anchor #%s of a check", n+1, line, slug)
		}
	}
	if !slices.Equal(sections, ids) {
		t.Errorf("checks.md sections %v, want one per check in catalog order %v", sections, ids)
	}
}

// githubSlug is the anchor GitHub gives a heading, as
// https://gist.github.com/creachadair/e35cefd8e3fbdfe3cce4f6178da1cd70
// states it: "Translate t to lower-case", a word is "a contiguous run of
// letters, digits, underscores (_) and hyphens (-)", and a run of space
// and punctuation becomes "A single hyphen (-), if the run contains any
// spaces or tabs". GitHub's own pages state no such rule (not verified);
// for the check IDs, lower-case letters, digits and hyphens only, every
// published rule gives the ID itself.
func githubSlug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// docCommand is one command line shown in a ```sh or ```console block.
type docCommand struct {
	where  string   // file:line
	args   []string // after `qoslint`
	exit   int      // the exit code the doc implies: 0, or its `# exit N` annotation
	live   bool     // `# live: ...`: needs a device or a running simulator
	stdout string   // `> FILE`: where the doc sends standard output
	output []string // console blocks: the output shown, "..." where it is cut
}

var (
	// `# exit 1`, or after a live note `# live: against the sim above; exit 1`.
	exitNote = regexp.MustCompile(`(?:^|; )exit ([0-9]+)\b`)
	liveNote = regexp.MustCompile(`^live:`)
)

// docCommands extracts the command lines of one markdown file: in ```sh
// blocks every line that starts with `qoslint ` (or `go run
// ./cmd/qoslint `, the README's set-up spelling), in ```console blocks
// the same after a `$ ` prompt, with the lines up to the next prompt as
// its output.
func docCommands(t *testing.T, file string, text string) []docCommand {
	var cmds []docCommand
	lang := ""
	for n, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			if lang == "" {
				lang = strings.TrimPrefix(trimmed, "```")
				if lang == "" {
					lang = "plain"
				}
			} else {
				lang = ""
			}
			continue
		}
		if lang != "sh" && lang != "console" {
			continue
		}
		cmdLine := trimmed
		if lang == "console" {
			rest, ok := strings.CutPrefix(trimmed, "$ ")
			if !ok {
				if len(cmds) > 0 && cmds[len(cmds)-1].output != nil {
					c := &cmds[len(cmds)-1]
					c.output = append(c.output, line)
				}
				continue
			}
			cmdLine = rest
		}
		var ok bool
		if cmdLine, ok = qoslintLine(cmdLine); !ok {
			continue
		}
		where := fmt.Sprintf("%s:%d", file, n+1)
		words, comment, err := shellWords(cmdLine)
		if err != nil {
			t.Errorf("%s: %v: %s", where, err, line)
			continue
		}
		c := docCommand{where: where}
		if m := exitNote.FindStringSubmatch(comment); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
		}
		c.live = liveNote.MatchString(comment)
		if k := slices.Index(words, ">"); k >= 0 {
			if k != len(words)-2 {
				t.Errorf("%s: only `> FILE` at the end of a line is understood: %s", where, line)
				continue
			}
			c.stdout, words = words[k+1], words[:k]
			if filepath.IsAbs(c.stdout) || strings.HasPrefix(filepath.Clean(c.stdout), "..") {
				t.Errorf("%s: `> %s` would write outside the working folder", where, c.stdout)
				continue
			}
		}
		c.args = words
		if lang == "console" {
			c.output = []string{}
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// qoslintLine is the line without its `qoslint ` (or `go run
// ./cmd/qoslint `) prefix; ok is false for any other line.
func qoslintLine(line string) (string, bool) {
	for _, p := range []string{"qoslint ", "go run ./cmd/qoslint "} {
		if rest, ok := strings.CutPrefix(line, p); ok {
			return rest, true
		}
	}
	return "", false
}

// shellWords splits a line as sh would for the plain lines the docs show:
// words, single and double quotes, a trailing `# comment`. Anything that
// needs a shell to mean what it says (pipes, $, backquotes, ;, &) is
// refused, so that the test never runs something else than a reader would.
func shellWords(line string) (words []string, comment string, err error) {
	var cur strings.Builder
	inWord := false
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			return words, strings.TrimSpace(line[i+1:]), nil
		case r == ' ' || r == '\t':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		case strings.ContainsRune("|;&$`<(){}\\", r):
			return nil, "", fmt.Errorf("shell syntax %q is not understood by the doc test", r)
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, "", fmt.Errorf("unterminated quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, "", nil
}

// liveCommands are the only commands a doc may mark `# live:`: they dial
// devices or listen until stopped, so the test cannot run them as shown;
// `qoslint demo` is the runnable form of an audit.
var liveCommands = []string{"audit", "collect", "serve", "sim"}

// TestDocCommands runs every command line of the README and of every help
// topic through the command tree, in a scratch folder per doc beside one
// copy of examples/, in the order each file shows them, and holds each to the exit
// code the doc implies; a console block's output must be what the command
// prints. Lines marked `# live:` run as processes (liveDocs) against a
// simulator, except with -short, where they are counted and listed.
func TestDocCommands(t *testing.T) {
	docs := readDocs(t)
	examplesDir, err := filepath.Abs(filepath.Join(repoRoot, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := os.CopyFS(filepath.Join(work, "examples"), os.DirFS(examplesDir)); err != nil {
		t.Fatal(err)
	}
	copied := tree(t, filepath.Join(work, "examples"))
	names := make([]string, 0, len(docs))
	for name := range docs {
		names = append(names, name)
	}
	slices.Sort(names)
	ran, perFile := 0, map[string]int{}
	var live []string
	var lv *liveDocs
	if !testing.Short() {
		lv = startLiveDocs(t, work)
		defer lv.stop()
	}
	for _, name := range names {
		// Each doc runs in its own folder, in the order it shows its
		// lines (a snapshot before the drift that reads it), so that one
		// doc's output folders never collide with another's.
		dir := filepath.Join(work, strings.ReplaceAll(name, "/", "_"))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(work, "examples"), filepath.Join(dir, "examples")); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		var running []*child // the doc's simulators, until its last line ran
		if lv != nil {
			lv.prepare(dir)
		}
		for _, c := range docCommands(t, name, docs[name]) {
			if len(c.args) == 0 {
				t.Errorf("%s: no command", c.where)
				continue
			}
			if c.live {
				if !slices.Contains(liveCommands, c.args[0]) {
					t.Errorf("%s: qoslint %s is marked live, but only %v need a device or run until stopped", c.where, c.args[0], liveCommands)
				}
				if lv == nil {
					live = append(live, c.where+": qoslint "+strings.Join(c.args, " "))
					continue
				}
				if sim := lv.run(dir, c); sim != nil {
					running = append(running, sim)
				}
				ran++
				perFile[name]++
				continue
			}
			var out, errOut bytes.Buffer
			code := Execute(c.args, &out, &errOut)
			ran++
			perFile[name]++
			if code != c.exit {
				t.Errorf("%s: qoslint %s: exit %d, the doc implies %d (annotate `# exit N`)\n%.2000s", c.where, strings.Join(c.args, " "), code, c.exit, errOut.String())
			}
			if c.stdout != "" {
				if err := os.WriteFile(c.stdout, out.Bytes(), 0o644); err != nil {
					t.Errorf("%s: %v", c.where, err)
				}
			}
			if c.output != nil {
				if err := shownOutput(c.output, out.String()); err != nil {
					t.Errorf("%s: qoslint %s: the output shown is not what it prints: %v", c.where, strings.Join(c.args, " "), err)
				}
			}
		}
		for _, sim := range running {
			if code := lv.procs(dir).interrupt(sim); code != 0 {
				t.Errorf("%s: qoslint %s: exit %d when interrupted\n%s", name, strings.Join(sim.cmd.Args[1:], " "), code, sim.stderr)
			}
		}
	}
	t.Logf("ran %d command lines of %d docs; %d live lines not run:\n%s", ran, len(names), len(live), strings.Join(live, "\n"))
	if perFile["README.md"] < 5 {
		t.Errorf("README.md: %d runnable command lines; its workflows should show at least 5", perFile["README.md"])
	}
	// The copy of examples/ is a check too: no doc command writes into the
	// fabric directories it reads.
	sameTree(t, "a doc command changed examples/", copied, tree(t, filepath.Join(work, "examples")))
}

// shownOutput checks that the lines a console block shows are the
// command's output: each run of lines between `...` markers appears, in
// order, as whole lines of got.
func shownOutput(shown []string, got string) error {
	for len(shown) > 0 && strings.TrimSpace(shown[len(shown)-1]) == "" {
		shown = shown[:len(shown)-1]
	}
	rest := "\n" + got
	var chunk []string
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		want := "\n" + strings.Join(chunk, "\n") + "\n"
		k := strings.Index(rest, want)
		if k < 0 {
			return fmt.Errorf("not printed (in this order):\n%s\n--- printed:\n%.3000s", strings.Join(chunk, "\n"), got)
		}
		rest = rest[k+len(want)-1:]
		chunk = nil
		return nil
	}
	for _, l := range shown {
		if strings.TrimSpace(l) == "..." {
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		chunk = append(chunk, l)
	}
	return flush()
}

// TestREADMEListsEverything ties the README to what it introduces: every
// folder under examples/ has its line, and every help topic is named.
func TestREADMEListsEverything(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	if n := strings.Count(readme, "\n"); n > 300 {
		t.Errorf("README.md has %d lines; the reference belongs in cmd/qoslint/help (at most 300)", n)
	}
	entries, err := os.ReadDir(filepath.Join(repoRoot, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.Contains(readme, "| [`examples/"+e.Name()+"/`]") {
			t.Errorf("README.md's examples table has no line for examples/%s/", e.Name())
		}
	}
	for _, tp := range help.Topics() {
		if !strings.Contains(readme, "`qoslint help "+tp.Name+"`") {
			t.Errorf("README.md does not point at `qoslint help %s`", tp.Name)
		}
	}
}

// TestRenderUsageNamesEveryRole: render's usage line lists every role
// --role accepts, not three of the five.
func TestRenderUsageNamesEveryRole(t *testing.T) {
	code, out, _ := run("render", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	usage := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "qoslint render --policy FILE --role ") {
			usage = l
			break
		}
	}
	want := "--role " + strings.Join(app.RenderRoles, "|") + " "
	if !strings.Contains(usage, want) {
		t.Errorf("render usage %q lacks %q", usage, want)
	}
}

// readDocs is the README and every help topic, by repository path.
func readDocs(t *testing.T) map[string]string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{"README.md": string(readme)}
	for _, tp := range help.Topics() {
		text, _, _ := help.Lookup(tp.Name)
		docs["cmd/qoslint/help/"+tp.Name+".md"] = text
	}
	return docs
}

// TestDocGoTestPaths: every `go test ... ./PKG` a doc shows names a
// package folder that exists, so a reader's copy of it runs.
func TestDocGoTestPaths(t *testing.T) {
	docs := readDocs(t)
	goTest := regexp.MustCompile("go test [^`\n]*")
	pkg := regexp.MustCompile(`\./[A-Za-z0-9_./-]*`)
	seen := 0
	for name, text := range docs {
		for _, cmd := range goTest.FindAllString(text, -1) {
			for _, p := range pkg.FindAllString(cmd, -1) {
				dir := strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
				seen++
				if st, err := os.Stat(filepath.Join(repoRoot, dir)); err != nil || !st.IsDir() {
					t.Errorf("%s: %q names %s, which is no folder of the module", name, cmd, p)
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no go test command found in the docs; the README shows one")
	}
}

// TestHelpTopics: `qoslint help TOPIC` prints the topic, `qoslint help
// COMMAND` still prints the command's help, a name that is both prints
// both, `qoslint help` lists every topic, and an unknown name exits 2.
func TestHelpTopics(t *testing.T) {
	code, out, _ := run("help")
	if code != 0 || !strings.Contains(out, "Available Commands:") || !strings.Contains(out, "Help topics (qoslint help TOPIC):") {
		t.Fatalf("help: exit %d\n%s", code, out)
	}
	for _, tp := range help.Topics() {
		if !strings.Contains(out, "\n  "+tp.Name+" ") {
			t.Errorf("qoslint help does not list topic %s", tp.Name)
		}
		text, _, _ := help.Lookup(tp.Name)
		code, got, errOut := run("help", tp.Name)
		if code != 0 || !strings.HasSuffix(got, text) {
			t.Errorf("help %s: exit %d, not the topic\n%.300s%s", tp.Name, code, got, errOut)
		}
	}
	code, out, _ = run("help", "lint")
	if code != 0 || !strings.Contains(out, "Usage:\n  qoslint lint DIR") {
		t.Errorf("help lint: exit %d\n%.500s", code, out)
	}
	code, out, _ = run("help", "serve")
	serveTopic, _, _ := help.Lookup("serve")
	if code != 0 || !strings.Contains(out, "Usage:\n  qoslint serve") || !strings.HasSuffix(out, serveTopic) {
		t.Errorf("help serve: exit %d, want the command's help then the topic\n%.500s", code, out)
	}
	if code, out, _ := run("help", "completion", "bash"); code != 0 || !strings.Contains(out, "bash") {
		t.Errorf("help completion bash: exit %d\n%.300s", code, out)
	}
	if code, out, _ := run("help", "k8s"); code != 0 || !strings.HasPrefix(out, "# Kubernetes") {
		t.Errorf("help k8s (alias): exit %d\n%.100s", code, out)
	}
	if code, _, errOut := run("help", "nope"); code != 2 || !strings.Contains(errOut, `unknown help topic "nope"`) {
		t.Errorf("help nope: exit %d, %s", code, errOut)
	}
	code, out, _ = run("__complete", "help", "")
	for _, want := range []string{"lint\t", "checks\t", "infiniband\t"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("completion of help lacks %q:\n%s", want, out)
		}
	}
}

// TestSARIFHelpAnchors: every rule's helpUri in a SARIF report leads to a
// heading of checks.md, the page it names, so a code-scanning alert's
// "learn more" link never lands on the top of a page.
func TestSARIFHelpAnchors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "cmd/qoslint/help/checks.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if title, ok := strings.CutPrefix(line, "### "); ok {
			anchors[githubSlug(title)] = true
		}
	}
	const page = "https://github.com/qoslint/qoslint/blob/main/cmd/qoslint/help/checks.md#"
	for _, ex := range []string{"broken-pod", "clean-pod", "ib-broken", "k8s-broken"} {
		code, out, errOut := run("lint", filepath.Join(repoRoot, "examples", ex), "-f", "sarif")
		if code != 0 && code != 1 {
			t.Fatalf("%s: exit %d: %s", ex, code, errOut)
		}
		var log struct {
			Runs []struct {
				Tool struct {
					Driver struct {
						Rules []struct {
							ID      string `json:"id"`
							HelpURI string `json:"helpUri"`
						} `json:"rules"`
					} `json:"driver"`
				} `json:"tool"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil {
			t.Fatalf("%s: %v", ex, err)
		}
		n := 0
		for _, r := range log.Runs[0].Tool.Driver.Rules {
			n++
			id, ok := strings.CutPrefix(r.HelpURI, page)
			if !ok || id != r.ID || !anchors[id] {
				t.Errorf("%s: rule %s: helpUri %q has no heading ### %s in checks.md", ex, r.ID, r.HelpURI, r.ID)
			}
		}
		if n == 0 {
			t.Errorf("%s: no rules in the SARIF report", ex)
		}
	}
}
