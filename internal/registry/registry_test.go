package registry

import (
	"sync"
	"testing"
)

type thing struct{ n int }

func TestSaveLookupRelease(t *testing.T) {
	base := Live(KindDescriptor)
	obj := &thing{7}
	tok := Save(KindDescriptor, obj)
	if tok == 0 {
		t.Fatal("nil token")
	}
	if Live(KindDescriptor) != base+1 {
		t.Fatalf("live = %d, want %d", Live(KindDescriptor), base+1)
	}
	got, err := Lookup(tok, KindDescriptor)
	if err != nil || got.(*thing) != obj {
		t.Fatalf("Lookup = %v, %v", got, err)
	}
	if _, err := Lookup(tok, KindHandle); err != ErrWrongKind {
		t.Fatalf("wrong-kind lookup err = %v", err)
	}
	if _, err := Release(tok, KindHandle); err != ErrWrongKind {
		t.Fatalf("wrong-kind release err = %v", err)
	}
	if got, err := Release(tok, KindDescriptor); err != nil || got.(*thing) != obj {
		t.Fatalf("Release = %v, %v", got, err)
	}
	if _, err := Lookup(tok, KindDescriptor); err != ErrDestroyed {
		t.Fatalf("lookup after release err = %v", err)
	}
	if _, err := Release(tok, KindDescriptor); err != ErrDestroyed {
		t.Fatalf("double release err = %v", err)
	}
	if Live(KindDescriptor) != base {
		t.Fatalf("live = %d after release, want %d", Live(KindDescriptor), base)
	}
}

func TestGarbageTokenIsUnknown(t *testing.T) {
	for _, p := range []uintptr{1, 0xdeadbeef, ^uintptr(0)} {
		if _, err := Lookup(p, KindHandle); err != ErrUnknown {
			t.Errorf("Lookup(%#x) err = %v, want ErrUnknown", p, err)
		}
	}
}

func TestQuarantineEvictsOldest(t *testing.T) {
	first := Save(KindHandle, &thing{1})
	if _, err := Release(first, KindHandle); err != nil {
		t.Fatal(err)
	}
	// Fill the quarantine so the first token is evicted and its memory returned.
	for i := 0; i < Quarantine; i++ {
		tok := Save(KindHandle, &thing{i})
		if _, err := Release(tok, KindHandle); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Lookup(first, KindHandle)
	// After eviction malloc may have handed the address out again; then it names a live object
	// of a later Save (which is itself released here), never the first object.
	if err == nil {
		t.Fatalf("evicted token still resolves to %v", got)
	}
}

func TestConcurrentReleaseOnlyOneWins(t *testing.T) {
	for round := 0; round < 100; round++ {
		tok := Save(KindDescriptor, &thing{round})
		var wg sync.WaitGroup
		wins := make(chan struct{}, 8)
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := Release(tok, KindDescriptor); err == nil {
					wins <- struct{}{}
				}
			}()
		}
		wg.Wait()
		if len(wins) != 1 {
			t.Fatalf("round %d: %d releases succeeded", round, len(wins))
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	tok := Save(KindDescriptor, &thing{1})
	defer Release(tok, KindDescriptor)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := Lookup(tok, KindDescriptor); err != nil {
				b.Fatal(err)
			}
		}
	})
}
