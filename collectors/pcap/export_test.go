package pcap

import (
	"bufio"
	"bytes"
	"io"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/pcapgo"
)

// ReadGopacket is Read with every packet decoded by gopacket, the
// reference the fast path is held to.
func ReadGopacket(r io.Reader, name string) (*Summary, error) { return read(r, name, false) }

// FastPath reports whether the fast path decided the frame itself.
func FastPath(data []byte) bool { var w wire; _, ok := fastDecode(data, &w); return ok }

// Record is one packet as a reader returned it.
type Record struct {
	Data []byte
	CI   gopacket.CaptureInfo
}

// ReadRecords reads every record of a classic pcap file with our record
// reader (ours) or pcapgo's, through the same buffer read uses, and returns
// them with the error that ended the file (nil at a clean end).
func ReadRecords(data []byte, ours bool) ([]Record, error) {
	br := bufio.NewReaderSize(bytes.NewReader(data), readBuffer)
	var src packetSource
	var err error
	if ours {
		src, err = newRecordReader(br)
	} else {
		src, err = pcapgo.NewReader(br)
	}
	if err != nil {
		return nil, err
	}
	var out []Record
	for {
		d, ci, err := src.ZeroCopyReadPacketData()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, Record{Data: bytes.Clone(d), CI: ci})
	}
}
