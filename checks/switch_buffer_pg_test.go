package checks

import "testing"

var _ = register(switchBufferPG, func(testing.TB) []checkCase {
	dynamic := func(m string) func(db map[string]map[string]map[string]any) {
		return func(db map[string]map[string]map[string]any) { db["DEVICE_METADATA"]["localhost"]["buffer_model"] = m }
	}
	return []checkCase{
		{name: "clean sonic pod", edits: []edit{onSONiC()}},
		{name: "profile not defined", edits: []edit{onSONiC(), configDB("leaf01", func(db map[string]map[string]map[string]any) {
			db["BUFFER_PG"]["Ethernet12|3"]["profile"] = "pg_lossless_400000_5m_profile"
		})}, want: []string{"error leaf01 Ethernet12"}, msg: "names BUFFER_PROFILE|pg_lossless_400000_5m_profile, which the configuration does not define"},
		{name: "lossy profile on the lossless PG", edits: []edit{onSONiC(), configDB("leaf02", func(db map[string]map[string]map[string]any) {
			db["BUFFER_PG"]["Ethernet0|3"]["profile"] = "ingress_lossy_profile"
		})}, want: []string{"error leaf02 Ethernet0"}, msg: "ingress_lossy_profile has no xoff"},
		{name: "dynamic model without the PG", edits: []edit{onSONiC(), configDB("spine01", func(db map[string]map[string]map[string]any) {
			delete(db["BUFFER_PG"], "Ethernet0|3")
			delete(db["BUFFER_PG"], "Ethernet4|3")
		})}, want: []string{"error spine01 Ethernet0,Ethernet4"}, msg: "has no BUFFER_PG entry: in the dynamic buffer model"},
		// The traditional model: buffermgrd writes the PG itself where it
		// can (5m is in the lookup tables), not where the cable is unset
		// or has no row.
		// The flat test vector's Ethernet28 profile, pg_lossless_100000_5m_profile
		// (sonic-utilities tests/db_migrator_input), on sonic-pod's ports.
		{name: "profile for a shorter cable", edits: []edit{onSONiC(), configDB("spine02", func(db map[string]map[string]map[string]any) {
			dynamic("traditional")(db)
			db["BUFFER_PROFILE"]["pg_lossless_400000_5m_profile"] = map[string]any{"dynamic_th": "0", "pool": "ingress_lossless_pool", "size": "19456", "xoff": "23552", "xon": "19456"}
			db["BUFFER_PG"]["Ethernet0|3"]["profile"] = "pg_lossless_400000_5m_profile"
			db["BUFFER_PG"]["Ethernet4|3"]["profile"] = "pg_lossless_400000_5m_profile"
		})}, want: []string{"error spine02 Ethernet0,Ethernet4"}, msg: "sized for 400000 Mb/s and 5 m, but the port runs at 400000 Mb/s on 40 m of cable"},
		{name: "profile for a longer cable", edits: []edit{onSONiC(), configDB("spine02", func(db map[string]map[string]map[string]any) {
			dynamic("traditional")(db)
			db["BUFFER_PROFILE"]["pg_lossless_400000_300m_profile"] = map[string]any{"dynamic_th": "0", "pool": "ingress_lossless_pool", "size": "19456", "xoff": "90000", "xon": "19456"}
			db["BUFFER_PG"]["Ethernet0|3"]["profile"] = "pg_lossless_400000_300m_profile"
			delete(db["BUFFER_PG"], "Ethernet4|3")
		})}, want: []string{"warning spine02 Ethernet0"}, msg: "the extra headroom is buffer"},
		{name: "profile for the port's cable", edits: []edit{onSONiC(), configDB("spine02", func(db map[string]map[string]map[string]any) {
			dynamic("traditional")(db)
			db["BUFFER_PROFILE"]["pg_lossless_400000_40m_profile"] = map[string]any{"dynamic_th": "0", "pool": "ingress_lossless_pool", "size": "19456", "xoff": "40000", "xon": "19456"}
			db["BUFFER_PG"]["Ethernet0|3"]["profile"] = "pg_lossless_400000_40m_profile"
			db["BUFFER_PG"]["Ethernet4|3"]["profile"] = "pg_lossless_400000_40m_profile"
		})}},
		{name: "traditional, buffermgrd writes it", edits: []edit{onSONiC(), configDB("spine02", func(db map[string]map[string]map[string]any) {
			dynamic("traditional")(db)
			delete(db["BUFFER_PG"], "Ethernet0|3")
			delete(db["BUFFER_PG"], "Ethernet4|3")
		})}},
		{name: "traditional, 50m has no lookup row", edits: []edit{onSONiC(), configDB("spine02", func(db map[string]map[string]map[string]any) {
			dynamic("traditional")(db)
			delete(db["BUFFER_PG"], "Ethernet0|3")
			delete(db["BUFFER_PG"], "Ethernet4|3")
			db["CABLE_LENGTH"]["AZURE"]["Ethernet0"] = "50m"
		})}, want: []string{"warning spine02 Ethernet0"}, msg: "no row for a 50 m cable"},
		{name: "traditional, no cable length", edits: []edit{onSONiC(), configDB("spine02", func(db map[string]map[string]map[string]any) {
			dynamic("traditional")(db)
			delete(db["BUFFER_PG"], "Ethernet0|3")
			delete(db["BUFFER_PG"], "Ethernet4|3")
			delete(db["CABLE_LENGTH"]["AZURE"], "Ethernet4")
		})}, want: []string{"error spine02 Ethernet4"}, msg: "buffermgrd creates none"},
	}
})
