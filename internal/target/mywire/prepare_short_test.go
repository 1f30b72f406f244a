package mywire

import "testing"

// TestPrepareShortOK: a COM_STMT_PREPARE OK of 9 bytes (status, statement
// id, column and parameter counts, without the reserved byte and warning
// count, as some proxies send it) is accepted, as go-sql-driver accepts it,
// and the statement runs.
func TestPrepareShortOK(t *testing.T) {
	c, _ := startFake(t, capsOK, func(s *fakeServer) {
		s.expect(queryCmd(comStmtPrepare, "DO ?"))
		s.replyRaw(s.frames(cat([]byte{0}, le32(7), le16(0), le16(1)), colDef(colSpec{name: "?", typ: typeLongLong})))
		s.expect(cat([]byte{comStmtExecute}, le32(7), []byte{0, 1, 0, 0, 0, 0, 1, typeLongLong, 0}, le64(5)))
		s.reply(ok(0, 0))
	})
	st, err := c.Prepare("DO ?")
	if err != nil {
		t.Fatal(err)
	}
	if st.id != 7 || st.NumInput() != 1 || len(st.cols) != 0 {
		t.Fatalf("stmt id %d, params %d, columns %d; want 7, 1, 0", st.id, st.NumInput(), len(st.cols))
	}
	if n, err := st.Exec([]any{int64(5)}); n != 0 || err != nil {
		t.Fatalf("Exec = %d, %v", n, err)
	}
}
