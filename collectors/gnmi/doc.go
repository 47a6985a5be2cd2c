// Package gnmi collects a switch's RoCE QoS counters over gNMI and writes
// them as a gnmi-counters.json file, whose format (and the parser the
// model reads it with) is package gnmifile; that package links neither
// gRPC nor protobuf, so the model does not either.
//
// Cumulus Linux serves gNMI on port 9339 and supports Subscribe only (STREAM
// sample / ON_CHANGE, plus ONCE through the NetQ agent); it has no Get or
// Set, and it exposes QoS as counters and state only (CumulusNetworks/docs content/
// cumulus-linux-518/Monitoring-and-Troubleshooting/gNMI Streaming.md). Collect therefore subscribes with mode ONCE and falls
// back to STREAM/SAMPLE, stopping at the first sync_response either way.
//
// MarshalFile writes the file in gnmifile's layout; ReadFile decodes it
// into the generated messages (for the simulator, which serves it back).
package gnmi
