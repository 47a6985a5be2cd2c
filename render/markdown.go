package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/checks"
)

// MarkdownMaxBytes bounds the markdown report. GitHub refuses a comment
// body over 65,536 characters; a byte count is never below the character
// count, and the 4 KiB left over are for what a CI bot wraps around the
// report (a sticky-comment marker, its own heading).
const MarkdownMaxBytes = 65536 - 4096

// mdNoticeReserve is kept free for the "… N more findings" line, whose
// length is only known once the cut is made.
const mdNoticeReserve = 256

// Markdown writes the report for a pull-request comment: a summary line and
// a table of counts, notes, input errors, then one section per device with
// its findings in a table and the fix (and, folded, the rollback) as shell
// blocks. When the whole does not fit in MarkdownMaxBytes it stops at a
// whole finding and says how many were left out.
func Markdown(w io.Writer, r *Report) error {
	r.Normalize()
	var head strings.Builder
	c := r.Counts()
	word, detail := verdict(r)
	by := findingsByDevice(r)
	fmt.Fprintf(&head, "## qoslint: fabric %s\n\n", mdText(r.fabricName()))
	fmt.Fprintf(&head, "**%s**: %s; %s.\n\n", word, summary(r), detail)
	if l := skippedLine(r); l != "" {
		fmt.Fprintf(&head, "%s.\n\n", mdText(l))
	}
	head.WriteString("| error | warning | info | waived | input errors | devices | devices with findings |\n")
	head.WriteString("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	fmt.Fprintf(&head, "| %d | %d | %d | %d | %d | %d | %d |\n", c.Error, c.Warning, c.Info, r.Waived(), len(r.Errors), len(r.Devices), withFindings(r, by))

	budget := MarkdownMaxBytes - head.Len() - mdNoticeReserve
	var body strings.Builder
	left := map[string]int{} // items cut, by kind
	var kinds []string       // in the order they were first cut
	cut := func(kind string, n int) {
		if n > 0 {
			if left[kind] == 0 {
				kinds = append(kinds, kind)
			}
			left[kind] += n
		}
	}
	for _, s := range mdSections(r, by) {
		if len(kinds) > 0 {
			cut(s.kind, s.n)
			continue
		}
		if full := s.render(s.n); len(full) <= budget-body.Len() {
			body.WriteString(full)
			continue
		}
		// A section grows with k: find the most items that fit.
		k := sort.Search(s.n, func(k int) bool { return len(s.render(k+1)) > budget-body.Len() })
		body.WriteString(s.render(k))
		cut(s.kind, s.n-k)
	}
	if len(kinds) > 0 {
		parts := make([]string, len(kinds))
		for i, k := range kinds {
			parts[i] = counted(left[k], "more "+k)
		}
		fmt.Fprintf(&body, "\n… %s (see the full report)\n", strings.Join(parts, ", "))
	}
	if _, err := io.WriteString(w, head.String()); err != nil {
		return err
	}
	_, err := io.WriteString(w, body.String())
	return err
}

// mdSection is a run of items that can be cut after any item; render(k)
// is the section with its first k items, "" for none.
type mdSection struct {
	kind   string // what an item is, singular, for the truncation line
	n      int
	render func(k int) string
}

func mdSections(r *Report, by map[string][]checks.Finding) []mdSection {
	var out []mdSection
	if len(r.Notes) > 0 {
		notes := r.Notes
		out = append(out, mdSection{kind: "note", n: len(notes), render: func(k int) string {
			if k == 0 {
				return ""
			}
			var b strings.Builder
			b.WriteString("\n### Notes\n\n")
			for _, n := range notes[:k] {
				fmt.Fprintf(&b, "- %s\n", mdLine(n))
			}
			return b.String()
		}})
	}
	if len(r.Errors) > 0 {
		rows := make([]string, len(r.Errors))
		for i, e := range r.Errors {
			rows[i] = fmt.Sprintf("| %s | %s | %s |\n", mdText(e.Device), mdCode(e.Pos.String()), mdText(e.Msg))
		}
		out = append(out, mdSection{kind: "input error", n: len(rows), render: func(k int) string {
			if k == 0 {
				return ""
			}
			return "\n### Input errors\n\n" + sentence(r.inputErrorsNote()) + "\n\n" +
				"| device | evidence | error |\n| --- | --- | --- |\n" + strings.Join(rows[:k], "")
		}})
	}
	broken := map[string]bool{}
	for _, e := range r.Errors {
		broken[e.Device] = true
	}
	var clean []string
	for _, d := range r.Sections() {
		if fs := by[d.Name]; len(fs) > 0 {
			out = append(out, mdDevice(d, fs))
		} else if !broken[d.Name] {
			clean = append(clean, d.Name)
		}
	}
	if len(clean) > 0 {
		out = append(out, mdSection{kind: "clean device", n: len(clean), render: func(k int) string {
			if k == 0 {
				return ""
			}
			names := make([]string, k)
			for i, n := range clean[:k] {
				names[i] = mdText(n)
			}
			return "\nNo findings: " + strings.Join(names, ", ") + "\n"
		}})
	}
	return out
}

// mdFinding is one finding, rendered once so that cutting a section to
// size does not render its commands again for every try.
type mdFinding struct {
	row      string
	fix, rbk []string // shell lines: a comment naming the finding, then the commands
}

func mdDevice(d Device, fs []checks.Finding) mdSection {
	items := make([]mdFinding, len(fs))
	for i, f := range fs {
		sev, msg := f.Severity.String(), mdText(f.Message)
		if f.Waived {
			sev += " (waived)"
			msg += "<br>**waived:** " + mdText(f.WaiverReason)
		}
		items[i].row = fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s |\n",
			sev, mdCode(f.Check), mdText(f.Interface), msg,
			mdText(f.Expected), mdText(f.Actual), mdCode(f.Source.String()))
		if f.Waived {
			// The fix block is what to run; a waived finding is
			// accepted as it is.
			continue
		}
		label := "# " + shComment(strings.TrimSpace(f.Check+" "+f.Interface))
		fix, rb := findingCommands(d.Release, f)
		if len(fix) > 0 {
			items[i].fix = append([]string{label}, fix...)
		}
		if len(rb) > 0 {
			items[i].rbk = append([]string{label}, rb...)
		}
	}
	return mdSection{kind: "finding", n: len(items), render: func(k int) string {
		if k == 0 {
			return ""
		}
		var b strings.Builder
		var fix, rbk []string
		if d.Kind == "" {
			fmt.Fprintf(&b, "\n### %s\n\n", mdText(d.Name))
		} else {
			fmt.Fprintf(&b, "\n### %s (%s)\n\n", mdText(d.Name), mdText(d.Kind))
		}
		b.WriteString("| severity | check | interface | message | expected | actual | evidence |\n")
		b.WriteString("| --- | --- | --- | --- | --- | --- | --- |\n")
		for _, it := range items[:k] {
			b.WriteString(it.row)
			fix = append(fix, it.fix...)
			rbk = append(rbk, it.rbk...)
		}
		if len(fix) > 0 {
			b.WriteString("\nFix:\n\n")
			b.WriteString(mdFence("sh", fix))
		}
		if len(rbk) > 0 {
			b.WriteString("\n<details><summary>Rollback</summary>\n\n")
			b.WriteString(mdFence("sh", rbk))
			b.WriteString("\n</details>\n")
		}
		return b.String()
	}}
}

// withFindings counts the inventory devices with findings.
func withFindings(r *Report, by map[string][]checks.Finding) int {
	n := 0
	for _, d := range r.Devices {
		if len(by[d.Name]) > 0 {
			n++
		}
	}
	return n
}

// mdFence wraps lines in a fenced code block whose fence is longer than
// any backtick run inside, so a value from a device file cannot close it
// (CommonMark 0.31 §4.5: the closing fence is at least as long as the
// opening one).
func mdFence(lang string, lines []string) string {
	body := strings.Join(lines, "\n")
	n, run := 3, 0
	for _, r := range body {
		if r == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", n)
	return fence + lang + "\n" + body + "\n" + fence + "\n"
}

// mdText makes device-supplied text literal in a table cell or heading:
// `|` would end the cell (GFM tables; the splitter honours `\|` even
// inside code spans), and backticks and the emphasis, link, HTML, entity
// and math ($…$ on GitHub) characters would be markup. A backslash is
// escaped too, so that `\|` in the input cannot leave a bare pipe, and a
// line break, which would end the table row, becomes <br>. An underscore
// inside a word cannot start emphasis (CommonMark 0.31 §6.2), so
// mlnx_qos and NCCL_IB_TC stay readable.
func mdText(s string) string {
	var b strings.Builder
	word := func(i int) bool {
		return i >= 0 && i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z')
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '`', '|', '*', '[', ']', '<', '&', '~', '$':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '_':
			if !word(i-1) || !word(i+1) {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			b.WriteString("<br>")
		case '\n':
			b.WriteString("<br>")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// mdLine is mdText for the start of a list item, where "#", ">", "-",
// "+", "=" or "1." would open a heading, quote, list or setext underline.
func mdLine(s string) string {
	t := mdText(s)
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	switch {
	case t == "":
	case strings.ContainsRune("#>-+=", rune(t[0])):
		return `\` + t
	case digits > 0 && digits < len(t) && (t[digits] == '.' || t[digits] == ')'):
		return t[:digits] + `\` + t[digits:]
	}
	return t
}

// mdCode shows s as code when that needs no escaping (inside a code span
// backslash escapes do not work), else as escaped text.
func mdCode(s string) string {
	if s == "" || strings.ContainsAny(s, "`|\\\r\n") {
		return mdText(s)
	}
	return "`" + s + "`"
}

// shComment keeps a comment on one line.
func shComment(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}
