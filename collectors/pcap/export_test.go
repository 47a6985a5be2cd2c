package pcap

import "io"

// ReadGopacket is Read with every packet decoded by gopacket, the
// reference the fast path is held to.
func ReadGopacket(r io.Reader, name string) (*Summary, error) { return read(r, name, false) }

// FastPath reports whether the fast path decided the frame itself.
func FastPath(data []byte) bool { var w wire; _, ok := fastDecode(data, &w); return ok }
