package read

import (
	"bytes"
	"errors"
	"testing"
)

// failAfter fails every write after n bytes.
type failAfter struct {
	buf bytes.Buffer
	n   int
}

func (f *failAfter) Write(p []byte) (int, error) {
	if f.buf.Len()+len(p) > f.n {
		return 0, errors.New("connection reset")
	}
	return f.buf.Write(p)
}

// The writer ahead writes what it is given, in order, though the caller
// reuses its buffer at once; a write error stops it and comes back from
// the next Write and from Close.
func TestAheadWriter(t *testing.T) {
	var want, got bytes.Buffer
	a := newAheadWriter(&got, 16)
	p := make([]byte, 0, 40)
	for i := 0; i < 1000; i++ {
		p = p[:0]
		for k := 0; k < 1+i%40; k++ {
			p = append(p, byte('a'+(i+k)%26))
		}
		want.Write(p)
		if _, err := a.Write(p); err != nil {
			t.Fatal(err)
		}
		for k := range p { // the caller reuses its buffer
			p[k] = '!'
		}
	}
	n, err := a.Close()
	if err != nil || n != int64(want.Len()) || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("wrote %d bytes (%v), want %d; equal %v", n, err, want.Len(), bytes.Equal(got.Bytes(), want.Bytes()))
	}

	f := &failAfter{n: 100}
	a = newAheadWriter(f, 16)
	var werr error
	for i := 0; i < 100 && werr == nil; i++ {
		_, werr = a.Write([]byte("0123456789"))
	}
	if _, err := a.Close(); err == nil || werr == nil {
		t.Fatalf("a failed connection: Write %v, Close %v", werr, err)
	}
	if f.buf.Len() != 100 {
		t.Fatalf("%d bytes before the failure, want 100", f.buf.Len())
	}
}
