package model

import "strconv"

// FirmwareParamNames are the mlxconfig parameters of an adapter port that
// host-firmware may judge, whatever the policy (checks/host_firmware.go
// has the rule of each; a test there keeps the two lists alike): CNP_DSCP,
// CNP_802P_PRIO, ROCE_CC_PRIO_MASK and LINK_TYPE per port, and the
// adapter's ROCE_ADAPTIVE_ROUTING_EN (parameter names as Mellanox/mstflint
// mlxconfig prints them).
func FirmwareParamNames(port int) []string {
	sfx := "_P" + strconv.Itoa(port)
	return []string{"CNP_DSCP" + sfx, "CNP_802P_PRIO" + sfx, "ROCE_CC_PRIO_MASK" + sfx, "LINK_TYPE" + sfx, "ROCE_ADAPTIVE_ROUTING_EN"}
}

// Firmware is a NIC's persistent firmware configuration as `mlxconfig -d
// <ibdev> q` prints it (Mellanox/mstflint mlxconfig).
type Firmware struct {
	File string
	// Device is the "Device:" header line's value ("" when absent): the
	// adapter the values belong to.
	Device string
	// HasCurrent is true for the Default/Current/Next Boot layout.
	HasCurrent bool
	// params are the FirmwareParamNames of the NIC's port that the file
	// prints, and no other, in that order. A list, not a map by name: five
	// entries at most, and NICs whose files print the same values share
	// one (NewFirmware's caller may pass the same list to many). A map
	// each was 0.8 kB a NIC, an eighth of a host's model.
	params []FirmwareParam
}

// NewFirmware is the firmware configuration printed in file. params are
// the FirmwareParamNames the file prints, each name once; the Firmware
// keeps the list, which must not change after.
func NewFirmware(file, device string, hasCurrent bool, params []FirmwareParam) *Firmware {
	return &Firmware{File: file, Device: device, HasCurrent: hasCurrent, params: params}
}

// Param is the parameter called name, and whether the file prints it.
func (fw *Firmware) Param(name string) (FirmwareParam, bool) {
	for _, p := range fw.params {
		if p.Name == name {
			return p, true
		}
	}
	return FirmwareParam{}, false
}

// FirmwareParam is one parameter: Next is the Next Boot column as
// printed; Default and Current are "" in the one-column layout.
type FirmwareParam struct {
	Name                   string
	Default, Current, Next string
	Line                   int
}
