package target

import (
	"errors"
	"strings"
	"testing"
)

// A MySQL URL parameter the driver does not know is sent to the server as
// SET <name> = <value>: one whose name says it holds a secret (password=,
// PostgreSQL's spelling) is refused, naming it and never its value; the
// driver's own parameters with such names still pass.
func TestMySQLRefusesSecretSessionVariables(t *testing.T) {
	tests := []struct {
		query   string
		refused bool
	}{
		{"password=s3cretPW", true},
		{"PASSWORD=s3cretPW", true},
		{"my_secret=s3cretPW", true},
		{"allowCleartextPasswords=true", false},
		{"allowNativePasswords=true", false},
		{"sql_mode=%27ANSI%27", false},
		{"foreign_key_checks=0", false},
		{"pwd=s3cretPW", true},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			tg, err := Parse("mysql://u@127.0.0.1/db?" + tc.query)
			if err != nil {
				t.Fatal(err)
			}
			_, err = mysqlConfig(tg, tg.Endpoints[0], Options{})
			if !tc.refused {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrBadParams) || strings.Contains(err.Error(), "s3cretPW") {
				t.Fatalf("err %v: want ErrBadParams without the value", err)
			}
		})
	}
}
