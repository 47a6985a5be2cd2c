package hostfiles

import "strings"

// Parsers of the single-line mlnx_qos fields and the PFC table rows.

func (p *qosParser) dcbx(n int, s string) error {
	v := strings.TrimSpace(strings.TrimPrefix(s, "DCBX mode:"))
	if v == "" {
		return p.errf(n, "empty DCBX mode")
	}
	if err := p.data(n, onceDCBX, secNone); err != nil {
		return err
	}
	p.q.DCBXMode = v
	return nil
}

func (p *qosParser) trust(n int, s string) error {
	v := strings.TrimSpace(strings.TrimPrefix(s, "Priority trust state:"))
	switch v {
	case "pcp", "dscp", "none":
	default:
		return p.errf(n, "priority trust state %q: want pcp, dscp or none", clip(v))
	}
	if err := p.data(n, onceTrust, secNone); err != nil {
		return err
	}
	p.q.Trust = v
	p.q.TrustLine = n
	return nil
}

// bufferSizes parses `Receive buffer size (bytes): a,b,...,h,[suffix]`: 8
// "%1d," items then nothing, total_size=N (2021-05) or max_buffer_size=N
// (2023-05, commit 52a4791).
func (p *qosParser) bufferSizes(n int, s string) error {
	if err := p.data(n, onceBufSize, secNone); err != nil {
		return err
	}
	body := strings.TrimSpace(strings.TrimPrefix(s, "Receive buffer size (bytes):"))
	var sizes []int
	for _, item := range strings.Split(body, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if k, v, ok := strings.Cut(item, "="); ok {
			k = strings.TrimSpace(k)
			if k != "total_size" && k != "max_buffer_size" {
				return p.errf(n, "receive buffer line: unknown suffix %q", clip(item))
			}
			size, ok := atoiRange(strings.TrimSpace(v), 0, 1<<40)
			if !ok {
				return p.errf(n, "receive buffer line: bad %s %q", k, clip(v))
			}
			p.q.MaxBufferSize = size
			continue
		}
		size, ok := atoiRange(item, 0, 1<<40)
		if !ok {
			return p.errf(n, "receive buffer line: bad size %q", clip(item))
		}
		sizes = append(sizes, size)
	}
	if len(sizes) != 8 {
		return p.errf(n, "receive buffer line: %d sizes, want 8", len(sizes))
	}
	p.q.BufferSizes = sizes
	return nil
}

func (p *qosParser) cableLen(n int, s string) error {
	v := strings.TrimSpace(strings.TrimPrefix(s, "Cable len:"))
	// The IEEE PFC delay field is a __u16.
	l, ok := atoiRange(v, 0, 0xffff)
	if !ok {
		return p.errf(n, "cable len %q: want 0..65535", clip(v))
	}
	if err := p.data(n, onceCableLen, secNone); err != nil {
		return err
	}
	p.q.CableLen = l
	return nil
}

// enabled parses the PFC row: 8 "%1d   " columns, trailing spaces included.
// Like lshca, it drops the spaces, which also reads copies that lost them.
func (p *qosParser) enabled(n int, s string) error {
	digits := strings.ReplaceAll(s[len("enabled"):], " ", "")
	if len(digits) != 8 || strings.Trim(digits, "01") != "" {
		return p.errf(n, "PFC enabled row %q: want 8 digits 0 or 1", clip(s))
	}
	if err := p.data(n, onceEnabled, secNone); err != nil {
		return err
	}
	for i := range 8 {
		p.q.PFC[i] = digits[i] == '1'
	}
	p.q.HasPFC = true
	p.q.PFCLine = n
	return nil
}

// prioBuffer parses the "buffer" row (priority → receive buffer 0..7).
func (p *qosParser) prioBuffer(n int, s string) error {
	body := strings.TrimSpace(s[len("buffer"):])
	fields := strings.Fields(body)
	if len(fields) == 1 && len(fields[0]) == 8 {
		fields = strings.Split(fields[0], "")
	}
	if len(fields) != 8 {
		return p.errf(n, "PFC buffer row %q: want 8 buffers", clip(s))
	}
	bufs := make([]int, 8)
	for i, f := range fields {
		b, ok := atoiRange(f, 0, 7)
		if !ok {
			return p.errf(n, "PFC buffer row: buffer %q for priority %d: want 0..7", clip(f), i)
		}
		bufs[i] = b
	}
	if err := p.data(n, onceBufferRow, secNone); err != nil {
		return err
	}
	p.q.PrioBuffer = bufs
	return nil
}
