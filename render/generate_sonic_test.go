package render

import "testing"

// The RoCE queue's DWRR weight gives it at least the policy's share beside
// the other DWRR queues, within SCHEDULER's 1..100.
func TestSONiCWeights(t *testing.T) {
	for _, c := range []struct{ min, others, roce, other int }{
		{50, 6, 60, 10}, // 60/(60+60) = 50%
		{22, 6, 17, 10}, // 17/77 = 22.1%
		{90, 6, 54, 1},  // 10 each would need 540
		{99, 6, 100, 1}, // no weight reaches 99%: the largest
		{100, 6, 100, 1},
	} {
		r, o := sonicWeights(c.min, c.others)
		if r != c.roce || o != c.other {
			t.Errorf("min %d%%: weights %d/%d, want %d/%d", c.min, r, o, c.roce, c.other)
		}
		if share := 100 * r / (r + c.others*o); r < 100 && share < c.min {
			t.Errorf("min %d%%: share %d%%", c.min, share)
		}
	}
}
