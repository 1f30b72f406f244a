package report

import (
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const chromium = "/usr/bin/chromium"

// TestHTMLRendersInChromium renders report.html headless and checks the
// screenshot is not blank and that every chart is inline.
func TestHTMLRendersInChromium(t *testing.T) {
	dir := copyTree(t, "testdata/poc")
	files, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(files[1])
	for _, f := range files[2:] {
		name := strings.TrimSuffix(filepath.Base(f), ".svg")
		if !strings.Contains(string(html), `<figure id="chart-`+name+`">`+"\n<svg") {
			t.Errorf("report.html lacks inline chart %s", name)
		}
	}
	for _, ref := range []string{`src="http`, `href="http`, `url(http`, "<script", "<link"} {
		if strings.Contains(string(html), ref) {
			t.Errorf("report.html is not self-contained: contains %q", ref)
		}
	}
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("BP_REQUIRE_DBS") == "1" {
			t.Fatalf("%s not installed and BP_REQUIRE_DBS=1 (apt-get install -y chromium)", chromium)
		}
		t.Skipf("%s not installed; install it (apt-get install -y chromium) to check the HTML rendering", chromium)
	}
	shot := filepath.Join(t.TempDir(), "out.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--screenshot="+shot, "--window-size=1280,4000", "file://"+files[1])
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	if keep := os.Getenv("BP_KEEP_SCREENSHOT"); keep != "" {
		b, _ := os.ReadFile(shot)
		os.WriteFile(keep, b, 0o644)
	}
	fh, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatal(err)
	}
	var n, sum, sumSq float64
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			r, g, bl, _ := img.At(x, y).RGBA()
			v := float64(r+g+bl) / 3 / 257
			n++
			sum += v
			sumSq += v * v
		}
	}
	mean := sum / n
	if variance := sumSq/n - mean*mean; variance < 50 {
		t.Fatalf("screenshot looks blank: pixel variance %.1f", variance)
	}
}
