package report

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"
)

// HTML renders d as one self-contained page: inline CSS, charts inline as
// SVG, no scripts and no network access.
func (d *Doc) HTML() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>%s</h1>\n",
		html.EscapeString(d.Title), css, html.EscapeString(d.Title))
	for _, bl := range d.Blocks {
		switch x := bl.(type) {
		case Heading:
			fmt.Fprintf(&b, "<h%d>%s</h%d>\n", x.Level, inline(x.Text), x.Level)
		case Para:
			fmt.Fprintf(&b, "<p>%s</p>\n", inline(x.Text))
		case List:
			b.WriteString("<ul>\n")
			for _, it := range x.Items {
				fmt.Fprintf(&b, "<li>%s</li>\n", inline(it))
			}
			b.WriteString("</ul>\n")
		case Note:
			class, label := "note", "Note"
			if x.Warn {
				class, label = "note warn", "Warning"
			}
			fmt.Fprintf(&b, "<div class=\"%s\"><strong>%s:</strong> %s</div>\n", class, label, inline(x.Text))
		case Chart:
			fmt.Fprintf(&b, "<figure id=\"chart-%s\">\n%s\n<figcaption>%s</figcaption>\n</figure>\n", x.Name, inlineSVG(x.SVG), html.EscapeString(x.Title))
		case Table:
			writeHTMLTable(&b, x)
		}
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.Bytes()
}

var boldRe = regexp.MustCompile(`\*\*(.+?)\*\*`)
var codeRe = regexp.MustCompile("`([^`]+)`")

// inline escapes text and turns **bold** and `code` into tags.
func inline(s string) string {
	s = html.EscapeString(s)
	s = boldRe.ReplaceAllString(s, "<strong>$1</strong>")
	return codeRe.ReplaceAllString(s, "<code>$1</code>")
}

// inlineSVG drops the XML prolog so the SVG can sit inside HTML.
func inlineSVG(svg []byte) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return strings.TrimSpace(s)
}

func writeHTMLTable(b *bytes.Buffer, t Table) {
	b.WriteString("<div class=\"tw\"><table>\n<thead><tr>")
	for i, h := range t.Header {
		fmt.Fprintf(b, "<th%s>%s</th>", alignAttr(t.Align, i), inline(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range t.Rows {
		// A step's notes say FAILED or DEGRADED (stepNotes, also after
		// "interrupted, "): the row is coloured so.
		cls := ""
		for _, c := range r {
			switch {
			case strings.Contains(c, "FAILED"):
				cls = " class=\"failed\""
			case cls == "" && strings.Contains(c, "DEGRADED"):
				cls = " class=\"degraded\""
			}
		}
		fmt.Fprintf(b, "<tr%s>", cls)
		for i, c := range r {
			fmt.Fprintf(b, "<td%s>%s</td>", alignAttr(t.Align, i), inline(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table></div>\n")
}

func alignAttr(align string, i int) string {
	if i < len(align) && align[i] == 'r' {
		return ` class="num"`
	}
	return ""
}

const css = `body{margin:0;background:#f4f6f8;color:#1f2933;font:14px/1.5 "Helvetica Neue",Arial,"Liberation Sans",sans-serif}
main{max-width:1180px;margin:0 auto;padding:24px 40px 64px;background:#fff;box-shadow:0 0 12px rgba(0,0,0,.06)}
h1{font-size:26px;margin:8px 0 16px;padding-bottom:10px;border-bottom:3px solid #1f6feb}
h2{font-size:20px;margin:36px 0 12px;padding-bottom:4px;border-bottom:1px solid #d0d7de;color:#0b3d91}
h3{font-size:16px;margin:24px 0 8px;color:#24292f}
h4{font-size:14px;margin:16px 0 6px;color:#57606a}
.tw{overflow-x:auto;margin:8px 0 16px}
table{border-collapse:collapse;font-size:13px;min-width:50%}
th,td{border:1px solid #d0d7de;padding:4px 10px;white-space:nowrap}
th{background:#eef2f7;font-weight:600;text-align:left}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:nth-child(even){background:#f8fafc}
tr.failed td{background:#fde8e8;color:#9b1c1c}
tr.degraded td{background:#fdf6e3;color:#8a5a00}
figure{margin:12px 0 24px;padding:8px;border:1px solid #e5e9f0;border-radius:6px;background:#fff}
figure svg{display:block;max-width:100%;height:auto;margin:0 auto}
figcaption{text-align:center;color:#57606a;font-size:12px;margin-top:4px}
.note{margin:8px 0;padding:8px 12px;border-left:4px solid #1f6feb;background:#eef5ff}
.note.warn{border-left-color:#d4a72c;background:#fff8e1}
code{background:#f1f3f5;padding:0 4px;border-radius:3px;font-size:12px}
ul{margin:6px 0 12px}
`
