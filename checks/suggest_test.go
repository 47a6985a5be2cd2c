package checks

import "testing"

func TestNearest(t *testing.T) {
	names := SelectableNames()
	for _, tc := range []struct{ name, want string }{
		{"hots-tos", "host-tos"},      // a transposition is 2 edits
		{"host-to", "host-tos"},       // a deletion
		{"switch-pfcc", "switch-pfc"}, // an insertion
		{"evidnce", "evidence"},       // a kind
		{"host-tos", ""},              // exact: nothing to suggest
		{"nope", ""},                  // far from every ID
		{"pfc", ""},                   // short: 1 edit of 3 letters is a third, too far
		{"", ""},
	} {
		if got := Nearest(tc.name, names); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	// Ties go to the first in sorted order, whatever the order given.
	if got := Nearest("ab", []string{"ac", "aa"}); got != "" {
		t.Errorf("2-letter name corrected to %q", got)
	}
	if got := Nearest("abcd", []string{"abce", "abcf"}); got != "abce" {
		t.Errorf("tie: %q", got)
	}
	if got := Nearest("abcd", []string{"abcf", "abce"}); got != "abce" {
		t.Errorf("tie, reversed: %q", got)
	}
}
