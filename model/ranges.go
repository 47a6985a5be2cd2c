package model

import "github.com/qoslint/qoslint/internal/nvrange"

// NVUE's range grammar lives in internal/nvrange, where the collectors
// reach it too; the model's names stay for its many callers.
var (
	ExpandInts    = nvrange.ExpandInts
	ExpandNames   = nvrange.ExpandNames
	SortNames     = nvrange.SortNames
	NaturalLess   = nvrange.NaturalLess
	CompressNames = nvrange.CompressNames
	CompressInts  = nvrange.CompressInts
)

// IntList prints a list of priorities, traffic classes or the like as the
// findings, the marking chain and the trace print it: ranges compressed as
// NVUE prints them, "none" for an empty list.
func IntList(v []int) string {
	if len(v) == 0 {
		return "none"
	}
	return CompressInts(v)
}
