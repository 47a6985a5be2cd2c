// Package english holds the few rules of English the messages of every
// layer need. It imports only the standard library, so any package may use
// it.
package english

// Plural is one when n is 1, else many: the word a count of n takes.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
