package driftfmt

import (
	"fmt"
	"io"
	"strings"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/internal/english"
)

// MarkdownMaxBytes bounds the markdown drift as the lint report's markdown
// is bounded (render.MarkdownMaxBytes): GitHub refuses a comment body over
// 65,536 characters, and 4 KiB are left for what a CI bot wraps around it.
const MarkdownMaxBytes = 65536 - 4096

// WriteMarkdown writes the drift for a pull-request comment: the summary,
// then a table per device. When it would not fit in MarkdownMaxBytes it
// stops at a whole change and says how many were left out.
func WriteMarkdown(w io.Writer, d *drift.Drift) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## qoslint drift\n\n")
	fmt.Fprintf(&b, "%s → %s, judged against the policy %s.\n\n", mdSide(d.Old), mdSide(d.New), mdText(policyLine(d.Policy)))
	word := "No drift"
	if d.Summary.Drift {
		word = "Drift"
	}
	fmt.Fprintf(&b, "**%s**: %s.\n", word, mdText(summaryLine(d)))
	if len(d.InputErrors) > 0 {
		fmt.Fprintf(&b, "\n**Input errors** (the values they touch are not known; the drift may be incomplete):\n\n")
		for _, e := range d.InputErrors {
			fmt.Fprintf(&b, "- %s\n", mdText(inputErrorLine(e)))
		}
	}
	if len(d.Notes) > 0 {
		fmt.Fprintf(&b, "\n**Notes**:\n\n")
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "- %s\n", mdText(n))
		}
	}
	type section struct {
		head string
		rows []string
	}
	var sections []section
	if len(d.Fabric) > 0 {
		sections = append(sections, section{"\n### fabric\n\n", mdRows(d.Fabric)})
	}
	for _, dev := range d.Devices {
		s := section{head: fmt.Sprintf("\n### %s (%s, %s)\n\n", mdText(dev.Name), dev.Kind, dev.Status), rows: mdRows(dev.Changes)}
		if dev.Status == drift.StatusVanished {
			s.head += "No longer in the input.\n"
		}
		sections = append(sections, s)
	}
	const tableHead = "| interface | change | effect | checks | evidence |\n| --- | --- | --- | --- | --- |\n"
	const reserve = 128 // for the notice below
	left := 0
	for _, s := range sections {
		if left > 0 {
			left += len(s.rows)
			continue
		}
		if b.Len()+len(s.head)+len(tableHead)+reserve > MarkdownMaxBytes {
			left += len(s.rows)
			continue
		}
		b.WriteString(s.head)
		if len(s.rows) > 0 {
			b.WriteString(tableHead)
		}
		for i, r := range s.rows {
			if b.Len()+len(r)+reserve > MarkdownMaxBytes {
				left += len(s.rows) - i
				break
			}
			b.WriteString(r)
		}
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n… %d more %s (see the full report)\n", left, english.Plural(left, "change", "changes"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdRows(cs []drift.Change) []string {
	rows := make([]string, len(cs))
	for i, c := range cs {
		effect := ""
		if e := effectWord(c.Effect); e != "" {
			effect = "**" + e + "**"
		}
		checks := make([]string, len(c.Checks))
		for j, id := range c.Checks {
			checks[j] = mdCode(id)
		}
		ev := ""
		switch {
		case c.BeforeOrigin == "" || c.BeforeOrigin == c.AfterOrigin:
			ev = mdCode(c.AfterOrigin)
		case c.AfterOrigin == "":
			ev = "was " + mdCode(c.BeforeOrigin)
		default:
			ev = mdCode(c.AfterOrigin) + " (was " + mdCode(c.BeforeOrigin) + ")"
		}
		rows[i] = fmt.Sprintf("| %s | %s | %s | %s | %s |\n", mdCode(c.Interface), mdText(c.Message), effect, strings.Join(checks, " "), ev)
	}
	return rows
}

func mdSide(s drift.Side) string {
	if s.Source == "" {
		return "fabric " + mdText(s.Fabric)
	}
	return mdCode(s.Source) + " (fabric " + mdText(s.Fabric) + ")"
}

// mdText escapes what would break a table cell or turn into markup.
var mdEscaper = strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "*", `\*`, "_", `\_`, "`", "'", "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`)

func mdText(s string) string { return mdEscaper.Replace(s) }

// mdCode puts text in a code span; "" stays empty.
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.NewReplacer("`", "'", "|", `\|`, "\n", " ", "\r", " ").Replace(s) + "`"
}
