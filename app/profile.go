package app

import (
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfile starts a CPU profile into the file cpu (none when empty);
// the function it returns stops it and writes a heap profile into the file
// heap (none when empty), for commands measured with pprof (replay).
func startProfile(cpu string) (stop func(heap string) error, err error) {
	var f *os.File
	if cpu != "" {
		if f, err = os.Create(cpu); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	return func(heap string) error {
		if f != nil {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				return err
			}
		}
		if heap == "" {
			return nil
		}
		h, err := os.Create(heap)
		if err != nil {
			return err
		}
		runtime.GC()
		if err := pprof.Lookup("allocs").WriteTo(h, 0); err != nil {
			h.Close()
			return err
		}
		return h.Close()
	}, nil
}
