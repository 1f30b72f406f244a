package mywire

import (
	"encoding/binary"
	"testing"
)

// handshake builds a HandshakeResponse41 payload (no packet header): client
// flags, max packet size, collation, 19 filler bytes, the 4 bytes that are
// MariaDB's extended capabilities (or filler), then extra bytes (user name).
func handshake(flags, ext uint32, extra string) []byte {
	p := binary.LittleEndian.AppendUint32(nil, flags)
	p = binary.LittleEndian.AppendUint32(p, 1<<24) // max packet size
	p = append(p, 45)                              // collation
	p = append(p, make([]byte, 19)...)
	p = binary.LittleEndian.AppendUint32(p, ext)
	return append(p, extra...)
}

// TestCapsFromHandshakeResponse checks which client flags and MariaDB
// extended capabilities become Caps: CLIENT_DEPRECATE_EOF, the cache
// metadata bit only when CLIENT_MYSQL (bit 0) is clear, Plain only without
// SSL and compression, and ok=false for payloads shorter than 32 bytes.
func TestCapsFromHandshakeResponse(t *testing.T) {
	// go-sql-driver's usual flags, without CLIENT_MYSQL (MariaDB server).
	const base = 1<<2 | 1<<3 | 1<<9 | 1<<13 | 1<<15 | 1<<17 | 1<<19 | 1<<20 | 1<<21
	tests := []struct {
		name    string
		payload []byte
		want    Caps
		wantOK  bool
	}{
		{"deprecate EOF", handshake(base|clientDeprecateEOF, 0, "bench\x00"), Caps{DeprecateEOF: true, Plain: true}, true},
		{"no deprecate EOF", handshake(base, 0, "bench\x00"), Caps{Plain: true}, true},
		{"MariaDB cache metadata", handshake(base|clientDeprecateEOF, mariadbCacheMetadata, ""), Caps{DeprecateEOF: true, CacheMetadata: true, Plain: true}, true},
		{"cache metadata without deprecate EOF", handshake(base, mariadbCacheMetadata, ""), Caps{CacheMetadata: true, Plain: true}, true},
		{"other extended bits only", handshake(base, 0xffffffff&^mariadbCacheMetadata&^mariadbExtendedMetadata, ""), Caps{Plain: true}, true},
		{"MariaDB extended metadata", handshake(base, mariadbExtendedMetadata, ""), Caps{}, true},
		{"query attributes", handshake(base|clientQueryAttributes|clientDeprecateEOF, 0, ""), Caps{DeprecateEOF: true}, true},
		{"optional result set metadata", handshake(base|clientOptionalMetadata, 0, ""), Caps{}, true},
		{"CLIENT_MYSQL set: extended bytes are filler", handshake(base|clientMySQL|clientDeprecateEOF, mariadbCacheMetadata, ""), Caps{DeprecateEOF: true, Plain: true}, true},
		{"CLIENT_MYSQL set, all filler bits", handshake(base|clientMySQL, 0xffffffff, ""), Caps{Plain: true}, true},
		{"SSL", handshake(base|clientSSL|clientDeprecateEOF, mariadbCacheMetadata, ""), Caps{DeprecateEOF: true, CacheMetadata: true}, true},
		{"compress", handshake(base|clientCompress, 0, ""), Caps{}, true},
		{"SSL and compress", handshake(base|clientSSL|clientCompress|clientDeprecateEOF, 0, ""), Caps{DeprecateEOF: true}, true},
		{"exactly 32 bytes", handshake(clientDeprecateEOF, mariadbCacheMetadata, "")[:32], Caps{DeprecateEOF: true, CacheMetadata: true, Plain: true}, true},
		{"31 bytes", handshake(clientDeprecateEOF, mariadbCacheMetadata, "")[:31], Caps{}, false},
		{"4 bytes", handshake(clientDeprecateEOF, 0, "")[:4], Caps{}, false},
		{"empty", nil, Caps{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := CapsFromHandshakeResponse(tt.payload)
			if got != tt.want || ok != tt.wantOK {
				t.Fatalf("CapsFromHandshakeResponse = %+v, %v; want %+v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// TestCapabilityBits pins the protocol's bit positions the package relies
// on (a typo here would silently misread every session).
func TestCapabilityBits(t *testing.T) {
	tests := []struct {
		name      string
		got, want uint32
	}{
		{"CLIENT_MYSQL", clientMySQL, 0x00000001},
		{"CLIENT_COMPRESS", clientCompress, 0x00000020},
		{"CLIENT_SSL", clientSSL, 0x00000800},
		{"CLIENT_DEPRECATE_EOF", clientDeprecateEOF, 0x01000000},
		{"CLIENT_OPTIONAL_RESULTSET_METADATA", clientOptionalMetadata, 0x02000000},
		{"CLIENT_QUERY_ATTRIBUTES", clientQueryAttributes, 0x08000000},
		{"MARIADB_CLIENT_EXTENDED_METADATA (extended)", mariadbExtendedMetadata, 0x00000008},
		{"MARIADB_CLIENT_CACHE_METADATA (extended)", mariadbCacheMetadata, 0x00000010},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %#x, want %#x", tt.name, tt.got, tt.want)
		}
	}
}
