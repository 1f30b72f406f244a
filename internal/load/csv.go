package load

import (
	"io"
	"time"
)

// CSVDialect selects how NULL and special characters are written.
type CSVDialect uint8

const (
	// CSVMySQL is the format of LOAD DATA ... FIELDS TERMINATED BY ','
	// OPTIONALLY ENCLOSED BY '"' (escape character '\'): NULL is an unquoted
	// \N, and '"' and '\' inside quoted text are backslash-escaped.
	CSVMySQL CSVDialect = iota
	// CSVPostgres is RFC 4180 as read by COPY ... WITH (FORMAT csv): NULL is
	// an unquoted empty field, an empty string is "", and '"' is doubled.
	CSVPostgres
	// CopyText is PostgreSQL's COPY text format with ',' as the delimiter
	// (COPY ... WITH (FORMAT text, DELIMITER ',')): NULL is \N, nothing is
	// quoted, and '\', ',', newline and carriage return are
	// backslash-escaped. The server parses it with less work than CSV (about
	// a quarter less for the stock table), so the bulk path uses it; files
	// written with --output csv stay CSV.
	CopyText
)

// csvChunk is the target size of one encoded chunk handed to the reader.
const csvChunk = 64 << 10

// CSVReader streams the rows of a RowSource as CSV text. It encodes rows on
// demand into one reused buffer (no temporary files, no allocation per
// row), so it can feed LOAD DATA LOCAL INFILE or COPY FROM STDIN directly.
type CSVReader struct {
	src     RowSource
	dialect CSVDialect
	buf     []byte
	off     int
	eof     bool
	c       *Counter
	rows    int64
	// last formatted timestamp: TPC-C rows repeat the load time.
	lastTime  int64
	lastTimeB []byte
}

// NewCSVReader returns a reader of src's rows in dialect d. Each encoded
// chunk of rows is reported to c (which may be nil).
func NewCSVReader(src RowSource, d CSVDialect, c *Counter) *CSVReader {
	return &CSVReader{src: src, dialect: d, buf: make([]byte, 0, csvChunk+4096), c: c, lastTime: -1 << 63}
}

// Rows returns the number of rows encoded so far.
func (r *CSVReader) Rows() int64 { return r.rows }

// Read implements io.Reader.
func (r *CSVReader) Read(p []byte) (int, error) {
	for r.off >= len(r.buf) {
		if r.eof {
			return 0, io.EOF
		}
		r.fill()
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}

// WriteTo implements io.WriterTo so that io.Copy avoids an extra copy.
func (r *CSVReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if r.off >= len(r.buf) {
			if r.eof {
				return total, nil
			}
			r.fill()
			continue
		}
		n, err := w.Write(r.buf[r.off:])
		total += int64(n)
		r.off += n
		if err != nil {
			return total, err
		}
	}
}

// fill encodes the next chunk of rows into buf.
func (r *CSVReader) fill() {
	b := r.buf[:0]
	var n int64
	for len(b) < csvChunk {
		if !r.src.Next() {
			r.eof = true
			break
		}
		b = r.AppendRow(b, r.src.Row())
		n++
	}
	r.rows += n
	r.c.Add(n, int64(len(b)))
	r.buf, r.off = b, 0
}

// AppendRow appends one CSV line (with its '\n') for row to b.
func (r *CSVReader) AppendRow(b []byte, row []Field) []byte {
	for i := range row {
		if i > 0 {
			b = append(b, ',')
		}
		f := &row[i]
		switch f.Kind {
		case Null:
			if r.dialect != CSVPostgres {
				b = append(b, '\\', 'N')
			}
		case Text:
			if r.dialect == CopyText {
				b = appendCopyText(b, f.B)
			} else {
				b = r.appendText(b, f.B)
			}
		case Time:
			if f.I != r.lastTime {
				r.lastTime = f.I
				r.lastTimeB = time.Unix(f.I, 0).UTC().AppendFormat(r.lastTimeB[:0], time.DateTime)
			}
			b = append(b, r.lastTimeB...)
		default:
			b = f.AppendText(b)
		}
	}
	return append(b, '\n')
}

// appendText appends s, quoted when it is empty or contains a character the
// loader would interpret.
func (r *CSVReader) appendText(b, s []byte) []byte {
	plain := len(s) > 0
	for _, c := range s {
		if c == ',' || c == '"' || c == '\n' || c == '\r' || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return append(b, s...)
	}
	b = append(b, '"')
	for _, c := range s {
		switch {
		case c == '"' && r.dialect == CSVPostgres:
			b = append(b, '"', '"')
		case (c == '"' || c == '\\') && r.dialect == CSVMySQL:
			b = append(b, '\\', c)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// appendCopyText appends s for the COPY text format with ',' as delimiter.
func appendCopyText(b, s []byte) []byte {
	plain := true
	for _, c := range s {
		if c == ',' || c == '\\' || c == '\n' || c == '\r' {
			plain = false
			break
		}
	}
	if plain {
		return append(b, s...)
	}
	for _, c := range s {
		switch c {
		case ',', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, c)
		}
	}
	return b
}
