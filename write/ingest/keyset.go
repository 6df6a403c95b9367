package ingest

// keySet is a set of dedup keys for the duplicate window: open addressing
// with linear probing over a power-of-two table, reset in place at each
// flush. It costs a fraction of a Go map's lookup and insert, which every
// report pays.
type keySet struct {
	slots []uint64 // 0: empty
	n     int      // keys in slots
	zero  bool     // the key 0 is in the set (it cannot sit in a slot)
}

// keySetMin is the smallest table: a batch's worth of keys without growing.
const keySetMin = 1 << 17

// slot is where the search for k starts: the key's bits mixed (Fibonacci
// hashing), so that keys alike in their low bits spread.
func (s *keySet) slot(k uint64) int {
	return int((k * 0x9e3779b97f4a7c15) >> 32 & uint64(len(s.slots)-1))
}

// has reports whether k is in the set.
func (s *keySet) has(k uint64) bool {
	if k == 0 {
		return s.zero
	}
	if len(s.slots) == 0 {
		return false
	}
	mask := len(s.slots) - 1
	for i := s.slot(k); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

// insert adds k and reports whether it was new.
func (s *keySet) insert(k uint64) bool {
	if k == 0 {
		was := s.zero
		s.zero = true
		return !was
	}
	if (s.n+1)*4 > len(s.slots)*3 {
		s.grow()
	}
	mask := len(s.slots) - 1
	for i := s.slot(k); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return false
		case 0:
			s.slots[i] = k
			s.n++
			return true
		}
	}
}

// grow doubles the table (or makes the first) and places the keys again.
func (s *keySet) grow() {
	old := s.slots
	s.slots = make([]uint64, max(keySetMin, 2*len(old)))
	s.n = 0
	for _, k := range old {
		if k != 0 {
			s.insert(k)
		}
	}
}

// reset empties the set, keeping its table.
func (s *keySet) reset() {
	if s.n > 0 {
		clear(s.slots)
	}
	s.n, s.zero = 0, false
}
