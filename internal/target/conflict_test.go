package target

import (
	"fmt"
	"testing"
)

func TestErrConflictIsRetryable(t *testing.T) {
	err := fmt.Errorf("delivery: %w: batched DELETE removed 9 of 10", ErrConflict)
	if c := Classify(err); c != ClassSerialization || !c.Retryable() {
		t.Fatalf("Classify = %v, want retryable serialization", c)
	}
}
