package checks

import "sort"

// Nearest is the candidate closest to name by edit distance (Levenshtein:
// one insertion, deletion or substitution each), for "did you mean"
// hints; "" when none is close. Close is at most 2 edits, and fewer than
// a third of name's length, so that a short word is not "corrected" into
// an unrelated ID (cobra's own command suggestions use the same 2).
// Ties go to the first in sorted order, so the hint is deterministic.
func Nearest(name string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestD := "", 3
	for _, c := range sorted {
		if c == name {
			return "" // a known name needs no hint
		}
		if d := levenshtein(name, c); d < bestD && 3*d < len([]rune(name)) {
			best, bestD = c, d
		}
	}
	return best
}

// SelectableNames are the check IDs and kinds --enable and --disable take.
func SelectableNames() []string {
	var out []string
	for _, k := range Kinds {
		out = append(out, string(k))
	}
	for _, c := range selectable() {
		out = append(out, c.ID)
	}
	return out
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
