package results

import "testing"

// An exporter URL keeps everything but its password, by net/url's reading
// (an '@' in the query is not the user-info's end).
func TestRedactHTTP(t *testing.T) {
	for in, want := range map[string]string{
		"http://prom:s3cret@10.0.0.7:9100/metrics": "http://prom@10.0.0.7:9100/metrics",
		"http://10.0.0.7:9100/metrics?x=a@b":       "http://10.0.0.7:9100/metrics?x=a@b",
		"https://u@h:9256/metrics":                 "https://u@h:9256/metrics",
	} {
		if got := RedactHTTP(in); got != want {
			t.Errorf("RedactHTTP(%q) = %q, want %q", in, got, want)
		}
	}
}
