package waivers

import (
	"fmt"
	"path"
	"time"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/model"
)

// Device is the Device of a waiver finding: it is about the waiver file,
// not a device. Inventory device names cannot hold parentheses, so it
// cannot clash with one, and it is the name the JUnit format already
// gives to what belongs to no device.
const Device = "(fabric)"

// Apply marks the findings a waiver covers Waived, with the first
// matching waiver's reason, and returns them in a new slice (findings is
// not modified). An expired waiver waives nothing. problems are the
// waiver file's own findings, in file order: one for each expired waiver,
// and one for each waiver that matched no finding. A nil File waives
// nothing.
func (f *File) Apply(findings []checks.Finding, today time.Time) (out []checks.Finding, problems []checks.Finding) {
	out = append([]checks.Finding(nil), findings...)
	if f == nil {
		return out, nil
	}
	used := make([]bool, len(f.Waivers))
	for i := range out {
		fd := &out[i]
		for j, w := range f.Waivers {
			if !w.Matches(*fd) {
				continue
			}
			used[j] = true
			if !w.Expired(today) && !fd.Waived {
				fd.Waived, fd.WaiverReason = true, w.Reason
			}
		}
	}
	for j, w := range f.Waivers {
		switch {
		case w.Expired(today):
			problems = append(problems, w.finding(
				fmt.Sprintf("waiver %s expired on %s: what it covered counts again; fix it, or renew the waiver with a new date",
					w.describe(), w.Expires.Format(DateLayout)),
				"expires: "+w.Expires.Format(DateLayout)))
		case !used[j]:
			problems = append(problems, w.finding(
				fmt.Sprintf("waiver %s matches no finding: remove it (what it waived is fixed, or it names the wrong check, device or interface)",
					w.describe()), ""))
		}
	}
	return out, problems
}

// Matches reports whether the waiver covers the finding, expiry aside.
// A finding's Interface may be several interfaces in NVUE range form
// ("swp1-16", "ens1f0np0,ens1f1np1", as model.CompressNames writes it);
// the glob must then match the whole string, or every interface in it:
// a waiver for one NIC must not hide the same fault on another.
func (w Waiver) Matches(f checks.Finding) bool {
	if f.Check != w.Check || !match(w.Device, f.Device) {
		return false
	}
	switch {
	case w.Interface == "":
		return true
	case f.Interface == "":
		return false
	case match(w.Interface, f.Interface):
		return true
	}
	names, err := model.ExpandNames(f.Interface)
	if err != nil || len(names) == 0 {
		return false
	}
	for _, n := range names {
		if !match(w.Interface, n) {
			return false
		}
	}
	return true
}

func match(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return err == nil && ok
}

// describe names the waiver in a message: "host-tos on gpu0* ens1f1np1".
func (w Waiver) describe() string {
	s := w.Check + " on " + w.Device
	if w.Interface != "" {
		s += " " + w.Interface
	}
	return s
}

func (w Waiver) finding(msg, actual string) checks.Finding {
	return checks.Finding{
		Check: Check.ID, Severity: Check.Severity, Device: Device,
		Message: msg, Actual: actual, Source: w.Pos,
	}
}
