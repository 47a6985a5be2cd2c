package pcap

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// recordReader reads classic pcap records straight out of a large
// bufio.Reader (Peek, then Discard) instead of pcapgo.Reader's two
// io.ReadFull calls per packet through a second, 4 KB bufio.Reader: the
// record header and the packet are then never copied. The file format is
// https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-03.html (4 and 5);
// limits, errors and their order are pcapgo's (gopacket v1.7.7,
// pcapgo/read.go and pcapgo/readfull.go), and TestRecordReaderMatchesPcapgo
// and FuzzRecordReader hold the two to identical packets and errors.
type recordReader struct {
	br       *bufio.Reader
	order    binary.ByteOrder
	big      bool
	nanoMult uint32 // 1000 for microsecond timestamps, 1 for nanosecond
	snaplen  uint32
	linkType layers.LinkType
	// win is the peeked window, off how much of it was taken.
	win []byte
	off int
}

// pcapgo's limits: eagerReadMax is libpcap's MAXIMUM_SNAPLEN, the longest
// record read without growing a buffer as its bytes arrive.
const (
	eagerReadMax   = 262144
	pcapHeaderLen  = 24
	recordHeadLen  = 16
	pcapVersionMaj = 2
	pcapVersionMin = 4
)

// newRecordReader reads the file header. br must be able to buffer a
// record header and eagerReadMax bytes at once.
func newRecordReader(br *bufio.Reader) (*recordReader, error) {
	if br.Size() < recordHeadLen+eagerReadMax {
		return nil, fmt.Errorf("internal: reader buffer of %d bytes is too small", br.Size())
	}
	r := &recordReader{br: br}
	// pcapgo first peeks two bytes for a gzip magic and returns that
	// error as it is (io.EOF for a file of 0 or 1 byte). read never hands
	// a gzip file to either reader: its magic is not a pcap one.
	if _, err := br.Peek(2); err != nil {
		return nil, err
	}
	hdr, err := r.take(pcapHeaderLen)
	if err != nil {
		return nil, err
	}
	switch magic := binary.LittleEndian.Uint32(hdr); magic {
	case magicPcapNano:
		r.order, r.nanoMult = binary.LittleEndian, 1
	case 0x4D3CB2A1:
		r.order, r.nanoMult = binary.BigEndian, 1
	case magicPcapMicro:
		r.order, r.nanoMult = binary.LittleEndian, 1000
	case 0xD4C3B2A1:
		r.order, r.nanoMult = binary.BigEndian, 1000
	default:
		//lint:ignore ST1005 the text is pcapgo's, so both readers fail alike
		return nil, fmt.Errorf("Unknown magic %x", magic)
	}
	if v := r.order.Uint16(hdr[4:6]); v != pcapVersionMaj {
		//lint:ignore ST1005 the text is pcapgo's, so both readers fail alike
		return nil, fmt.Errorf("Unknown major version %d", v)
	}
	if v := r.order.Uint16(hdr[6:8]); v != pcapVersionMin {
		//lint:ignore ST1005 the text is pcapgo's, so both readers fail alike
		return nil, fmt.Errorf("Unknown minor version %d", v)
	}
	r.big = r.order == binary.BigEndian
	r.snaplen = r.order.Uint32(hdr[16:20])
	r.linkType = layers.LinkType(r.order.Uint32(hdr[20:24]))
	return r, nil
}

// take returns the next n bytes, valid until the bytes after them are
// taken, with io.ReadFull's errors: io.EOF when nothing was left,
// io.ErrUnexpectedEOF when some but not all of the bytes were. It hands out
// slices of one peeked window of everything buffered and goes back to the
// bufio.Reader (Discard what was taken, Peek again) only when a record runs
// past the window: two calls per megabyte rather than per packet.
func (r *recordReader) take(n int) ([]byte, error) {
	if len(r.win)-r.off >= n {
		b := r.win[r.off : r.off+n]
		r.off += n
		return b, nil
	}
	r.release()
	b, err := r.br.Peek(n)
	if len(b) < n {
		if errors.Is(err, io.EOF) && len(b) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	r.win, _ = r.br.Peek(r.br.Buffered())
	r.off = n
	return r.win[:n], nil
}

// release gives the bytes taken from the window back to the bufio.Reader.
func (r *recordReader) release() {
	_, _ = r.br.Discard(r.off)
	r.win, r.off = nil, 0
}

// u32 reads a record header field in the file's byte order; a branch
// rather than a call through binary.ByteOrder, four times per packet.
func (r *recordReader) u32(b []byte) uint32 {
	if r.big {
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

// LinkType is the file header's link type.
func (r *recordReader) LinkType() layers.LinkType { return r.linkType }

// ZeroCopyReadPacketData returns the next packet; its bytes are valid until
// the next call.
func (r *recordReader) ZeroCopyReadPacketData() ([]byte, gopacket.CaptureInfo, error) {
	var ci gopacket.CaptureInfo
	h, err := r.take(recordHeadLen)
	if err != nil {
		return nil, ci, err
	}
	// The nanosecond field is multiplied in uint32 as pcapgo does: a
	// microsecond field above 4294967 wraps identically.
	ci.Timestamp = time.Unix(int64(r.u32(h[0:4])), int64(r.u32(h[4:8])*r.nanoMult)).UTC()
	ci.CaptureLength = int(r.u32(h[8:12]))
	ci.Length = int(r.u32(h[12:16]))
	if ci.CaptureLength > max(int(r.snaplen), eagerReadMax) {
		return nil, ci, fmt.Errorf("capture length exceeds snap length: %d > %d", ci.CaptureLength, r.snaplen)
	}
	if ci.CaptureLength > ci.Length {
		return nil, ci, fmt.Errorf("capture length exceeds original packet length: %d > %d", ci.CaptureLength, ci.Length)
	}
	if ci.CaptureLength > eagerReadMax {
		data, err := r.readLong(ci.CaptureLength)
		return data, ci, err
	}
	data, err := r.take(ci.CaptureLength)
	return data, ci, err
}

// readLong reads a record longer than eagerReadMax (a snap length the file
// declares above libpcap's) into a buffer that grows with the bytes that
// arrive, so a short file cannot make it allocate the declared length.
func (r *recordReader) readLong(n int) ([]byte, error) {
	r.release()
	var buf bytes.Buffer
	buf.Grow(eagerReadMax)
	m, err := io.CopyN(&buf, r.br, int64(n))
	if err == io.EOF && m > 0 {
		err = io.ErrUnexpectedEOF
	}
	return buf.Bytes(), err
}
