package mywire

import (
	"encoding/binary"

	"github.com/go-sql-driver/mysql"
)

// Response packets: OK, ERR and EOF, and the result sets a command did not
// ask for (client/server protocol, "Generic Response Packets").

// serverError decodes an ERR packet; the session stays usable.
func serverError(p []byte) error {
	if len(p) < 3 {
		return &mysql.MySQLError{Number: 0, Message: "malformed error packet"}
	}
	e := &mysql.MySQLError{Number: binary.LittleEndian.Uint16(p[1:3])}
	msg := p[3:]
	if len(msg) >= 6 && msg[0] == '#' {
		copy(e.SQLState[:], msg[1:6])
		msg = msg[6:]
	}
	e.Message = string(msg)
	return e
}

// readOK reads the response of a command without a result set.
func (c *Conn) readOK() (affected int64, err error) {
	p, err := c.readPacket()
	if err != nil {
		return 0, err
	}
	switch p[0] {
	case pktOK:
		return c.okPacket(p)
	case pktERR:
		return 0, serverError(p)
	case 0xfb:
		return 0, c.protocolError("LOCAL INFILE request is not supported here")
	}
	// A result set where none was expected: read and drop it.
	if err := c.dropResultSet(p); err != nil {
		return 0, err
	}
	return 0, c.moreResults()
}

// okPacket parses an OK packet (header 0x00, or 0xfe ending a result with
// CLIENT_DEPRECATE_EOF): affected rows, last insert id, status flags.
func (c *Conn) okPacket(p []byte) (int64, error) {
	affected, n1 := lenEnc(p[1:])
	_, n2 := lenEnc(p[1+n1:])
	pos := 1 + n1 + n2
	if n1 == 0 || n2 == 0 || len(p) < pos+2 {
		return 0, c.protocolError("short OK packet")
	}
	c.status = binary.LittleEndian.Uint16(p[pos:])
	return int64(affected), nil
}

// endOfResult parses the packet that ends a result set's rows (EOF, or OK
// with header 0xfe under CLIENT_DEPRECATE_EOF).
func (c *Conn) endOfResult(p []byte) error {
	if c.caps.DeprecateEOF {
		_, err := c.okPacket(p)
		return err
	}
	if len(p) < 5 {
		return c.protocolError("short EOF packet")
	}
	c.status = binary.LittleEndian.Uint16(p[3:])
	return nil
}

// isEnd reports whether a packet read where a row may be is the end of the
// result: header 0xfe and shorter than a 16 MiB row could be.
func isEnd(p []byte) bool { return p[0] == pktEOF && len(p) < maxPayload }

// skipEOF consumes the EOF packet that follows column definitions when
// CLIENT_DEPRECATE_EOF is off.
func (c *Conn) skipEOF() error {
	if c.caps.DeprecateEOF {
		return nil
	}
	p, err := c.readPacket()
	if err != nil {
		return err
	}
	if p[0] != pktEOF {
		return c.protocolError("expected EOF after column definitions, got 0x%02x", p[0])
	}
	return nil
}

// dropResultSet consumes a text or binary result set whose column-count
// packet is p: column definitions (if sent), rows, end. A server error in
// the middle is returned after the result is consumed.
func (c *Conn) dropResultSet(p []byte) error {
	n, k := lenEnc(p)
	if k == 0 {
		return c.protocolError("bad column count")
	}
	if !c.caps.CacheMetadata || len(p) <= k || p[k] == 1 {
		for i := uint64(0); i < n; i++ {
			if _, err := c.readPacket(); err != nil {
				return err
			}
		}
	}
	// The EOF after the column definitions is sent even when they are
	// omitted (MariaDB Protocol::send_result_set_metadata).
	if err := c.skipEOF(); err != nil {
		return err
	}
	for {
		p, err := c.readPacket()
		if err != nil {
			return err
		}
		switch {
		case p[0] == pktERR:
			return serverError(p)
		case isEnd(p):
			return c.endOfResult(p)
		}
	}
}

// moreResults consumes further result sets announced by
// SERVER_MORE_RESULTS_EXISTS (for example after CALL), keeping the session
// in step; the first server error among them is returned.
func (c *Conn) moreResults() error {
	var first error
	for c.status&statusMoreResults != 0 {
		c.status = 0
		p, err := c.readPacket()
		if err != nil {
			return err
		}
		switch p[0] {
		case pktOK:
			_, err = c.okPacket(p)
		case pktERR:
			err = serverError(p)
		default:
			err = c.dropResultSet(p)
		}
		if c.err != nil {
			return err
		}
		if first == nil {
			first = err
		}
	}
	return first
}
