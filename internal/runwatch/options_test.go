package runwatch

import (
	"errors"
	"strings"
	"testing"

	"benchpress/internal/usage"
)

func TestParseSpecs(t *testing.T) {
	hs, err := ParseSpecs([]string{"db:storage=http://db:9100/metrics,http://db:9256/metrics", "lb=https://lb:9100/metrics"})
	if err != nil || len(hs) != 2 || hs[0].Name != "db" || hs[0].Role != "storage" || len(hs[0].URLs) != 2 || hs[1].Role != "" {
		t.Fatalf("ParseSpecs = %+v, %v", hs, err)
	}
	_, err = ParseSpecs([]string{"db", "x=ftp://h/"})
	var ue *usage.Error
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "want NAME[:ROLE]=URL") || !strings.Contains(err.Error(), "not an http(s) URL") {
		t.Errorf("bad specs: %v", err)
	}
}
