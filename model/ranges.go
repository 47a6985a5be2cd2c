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
