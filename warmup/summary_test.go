package warmup

import (
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	if got := median([]int{10, 0}); got != 5 {
		t.Errorf("median(10, 0) = %d, want 5", got)
	}
	if got := median([]int{3, 1, 2}); got != 2 {
		t.Errorf("median(3, 1, 2) = %d", got)
	}
	if got := median([]float64{1, 2}); got != 1.5 {
		t.Errorf("median(1, 2) = %v", got)
	}
	if got := median([]time.Duration{1, 2}); got != 2 {
		t.Errorf("median(1ns, 2ns) = %v, want 2ns (rounded half away from zero)", got)
	}
}
