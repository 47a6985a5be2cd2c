package hostfiles

import "strconv"

// FormatSysfsInt is what an mlx5 ecn attribute reads after `echo v >` it:
// every show in MLNX_OFED en_ecn.c is sprintf(buf, "%d\n", value)
// (knneth/mlnx-ofa_kernel drivers/net/ethernet/mellanox/mlx5/core/en_ecn.c).
func FormatSysfsInt(v int) []byte {
	return append(strconv.AppendInt(nil, int64(v), 10), '\n')
}

// FormatTrafficClass is what tc/<port>/traffic_class reads after the global
// Force-DSCP value is set to global (main_ext.c traffic_class_show prints
// "Global tclass=%d\n" only when the value is >= 0): empty
// for -1 (or any negative value, which clears it). Per-destination rules
// are not part of the result; a caller keeping them appends their lines.
// The driver refuses values above 255, which ParseTrafficClass rejects too.
func FormatTrafficClass(global int) []byte {
	if global < 0 {
		return []byte{}
	}
	return []byte("Global tclass=" + strconv.Itoa(global) + "\n")
}
