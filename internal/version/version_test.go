package version

import (
	"regexp"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		give    string
		want    Triple
		wantErr bool
	}{
		{"1.2.0", Triple{1, 2, 0}, false},
		{"  1.4.0", Triple{1, 4, 0}, false},
		{"1.2.0.abc", Triple{1, 2, 0}, false},
		{"0.0.0", Triple{0, 0, 0}, false},
		{"2.0.0", Triple{2, 0, 0}, false},
		{"1.-1.0", Triple{1, -1, 0}, false},
		{"one.two", Triple{}, true},
		{"1.2", Triple{}, true},
		{"", Triple{}, true},
		{"1..2", Triple{}, true},
	}
	for _, tt := range tests {
		got, err := Parse(tt.give)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v, err=%v", tt.give, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestStringFormat(t *testing.T) {
	if !regexp.MustCompile(`^\d+\.\d+\.\d+\.[0-9a-zA-Z]+$`).MatchString(String()) {
		t.Fatalf("version string %q is not MAJOR.MINOR.PATCH.TWEAK", String())
	}
	if Product().Major != 0 {
		t.Fatalf("product major = %d; AMD's frontends today expect 0", Product().Major)
	}
}

func TestLess(t *testing.T) {
	if !(Triple{1, 1, 0}).Less(Triple{1, 2, 0}) || (Triple{1, 2, 0}).Less(Triple{1, 2, 0}) || !(Triple{0, 9, 9}).Less(Triple{1, 0, 0}) {
		t.Fatal("Less is not lexicographic")
	}
}
