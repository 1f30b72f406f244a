package mywire_test

import (
	"io"
	"log"

	"github.com/go-sql-driver/mysql"
)

// The driver logs the sessions the tests kill on purpose; keep the output
// to the test results.
func init() { _ = mysql.SetLogger(log.New(io.Discard, "", 0)) }
