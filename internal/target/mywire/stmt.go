package mywire

import (
	"encoding/binary"
	"fmt"
)

// column is what decoding a binary row needs from a column definition.
type column struct {
	typ      byte
	unsigned bool
	decimals byte
	name     string
}

// Column definition flags.
const flagUnsigned = 0x20

// Stmt is a server-side prepared statement of one Conn.
type Stmt struct {
	c       *Conn
	id      uint32
	nParams int
	cols    []column
	// types of the last execution's parameters; typesSent: the server has
	// them (see appendParams).
	types     []byte
	typesSent bool
}

// Prepare sends COM_STMT_PREPARE. A server error (syntax, missing table) is
// returned as *mysql.MySQLError and leaves the session usable.
func (c *Conn) Prepare(query string) (*Stmt, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	b := c.start(comStmtPrepare)
	b = append(b, query...)
	if err := c.send(b); err != nil {
		return nil, err
	}
	p, err := c.readPacket()
	if err != nil {
		return nil, err
	}
	if p[0] == pktERR {
		return nil, serverError(p)
	}
	if p[0] != pktOK || len(p) < 9 { // status, id, columns, params; the rest is optional
		return nil, c.protocolError("bad COM_STMT_PREPARE response")
	}
	s := &Stmt{
		c:       c,
		id:      binary.LittleEndian.Uint32(p[1:]),
		nParams: int(binary.LittleEndian.Uint16(p[7:])),
	}
	nCols := int(binary.LittleEndian.Uint16(p[5:]))
	if s.nParams > 0 {
		for i := 0; i < s.nParams; i++ {
			if _, err := c.readPacket(); err != nil {
				return nil, err
			}
		}
		if err := c.skipEOF(); err != nil {
			return nil, err
		}
	}
	if nCols > 0 {
		if err := c.readColumns(s, nCols); err != nil {
			return nil, err
		}
	}
	c.stmts = append(c.stmts, s)
	return s, nil
}

// readColumns reads n column definitions (and the EOF after them) into s.
func (c *Conn) readColumns(s *Stmt, n int) error {
	if cap(s.cols) >= n {
		s.cols = s.cols[:n]
	} else {
		s.cols = make([]column, n)
	}
	for i := range s.cols {
		p, err := c.readPacket()
		if err != nil {
			return err
		}
		if err := parseColumn(p, &s.cols[i]); err != nil {
			return c.protocolError("%v", err)
		}
	}
	return c.skipEOF()
}

// parseColumn decodes a Protocol::ColumnDefinition41: catalog, schema,
// table, org_table, name, org_name (length-encoded strings), then the
// fixed-length fields: charset(2) length(4) type(1) flags(2) decimals(1).
// The name is kept only when it changed, so re-reading metadata does not
// allocate.
func parseColumn(p []byte, col *column) error {
	pos := 0
	var name []byte
	for f := 0; f < 6; f++ {
		n, k := lenEnc(p[pos:])
		if k == 0 || pos+k+int(n) > len(p) {
			return fmt.Errorf("short column definition")
		}
		if f == 4 {
			name = p[pos+k : pos+k+int(n)]
		}
		pos += k + int(n)
	}
	_, k := lenEnc(p[pos:])
	pos += k
	if k == 0 || pos+10 > len(p) {
		return fmt.Errorf("short column definition")
	}
	col.typ = p[pos+6]
	col.unsigned = binary.LittleEndian.Uint16(p[pos+7:])&flagUnsigned != 0
	col.decimals = p[pos+9]
	if col.name != string(name) {
		col.name = string(name)
	}
	return nil
}

// NumInput is the number of placeholders.
func (s *Stmt) NumInput() int { return s.nParams }

// execute sends COM_STMT_EXECUTE with args bound and reads the response
// header: it returns the column count (0: an OK packet was read and
// affected is set).
func (s *Stmt) execute(args []any) (nCols int, affected int64, err error) {
	c := s.c
	if c == nil {
		return 0, 0, fmt.Errorf("mywire: statement used after its session was closed")
	}
	if err := c.usable(); err != nil {
		return 0, 0, err
	}
	if len(args) != s.nParams {
		return 0, 0, fmt.Errorf("mywire: statement expects %d arguments, got %d", s.nParams, len(args))
	}
	b := c.start(comStmtExecute)
	b = binary.LittleEndian.AppendUint32(b, s.id)
	b = append(b, 0, 1, 0, 0, 0) // CURSOR_TYPE_NO_CURSOR, iteration count 1
	if s.nParams > 0 {
		if b, err = c.appendParams(b, s, args); err != nil {
			c.out = b[:0]
			return 0, 0, err
		}
	}
	if err := c.send(b); err != nil {
		return 0, 0, err
	}
	p, err := c.readPacket()
	if err != nil {
		return 0, 0, err
	}
	switch p[0] {
	case pktOK:
		affected, err = c.okPacket(p)
		return 0, affected, err
	case pktERR:
		return 0, 0, serverError(p)
	}
	n, k := lenEnc(p)
	if k == 0 || n == 0 || n > 1<<16 {
		return 0, 0, c.protocolError("bad column count in execute response")
	}
	if !c.caps.CacheMetadata || len(p) <= k || p[k] == 1 {
		if err := c.readColumns(s, int(n)); err != nil {
			return 0, 0, err
		}
	} else if int(n) != len(s.cols) {
		return 0, 0, c.protocolError("server omitted metadata for %d columns, %d cached", n, len(s.cols))
	} else if err := c.skipEOF(); err != nil { // sent even without the definitions
		return 0, 0, err
	}
	return int(n), 0, nil
}

// Exec runs the statement and returns rows affected; a result set, if the
// statement produces one, is read and dropped.
func (s *Stmt) Exec(args []any) (int64, error) {
	n, affected, err := s.execute(args)
	if err != nil {
		return 0, err
	}
	if n > 0 {
		return 0, s.c.startRows(s, false).Close()
	}
	return affected, s.c.moreResults()
}

// Query runs the statement and returns its rows. The Rows value belongs to
// the Conn and is reused by the next Query: close it first.
func (s *Stmt) Query(args []any) (*Rows, error) {
	n, _, err := s.execute(args)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		if err := s.c.moreResults(); err != nil {
			return nil, err
		}
	}
	return s.c.startRows(s, n == 0), nil
}
