package mywire

import "encoding/binary"

// Capability bits this client must honour (client/server protocol,
// "Capabilities Flags"; MariaDB "extended capabilities").
const (
	clientMySQL        = 1 << 0
	clientCompress     = 1 << 5
	clientSSL          = 1 << 11
	clientDeprecateEOF = 1 << 24
	// Flags that change packet shapes this client does not implement.
	clientOptionalMetadata = 1 << 25 // CLIENT_OPTIONAL_RESULTSET_METADATA
	clientQueryAttributes  = 1 << 27 // CLIENT_QUERY_ATTRIBUTES

	mariadbExtendedMetadata = 1 << 3
	mariadbCacheMetadata    = 1 << 4
)

// Caps is what the session negotiated at connect, as far as it changes the
// shape of result sets.
type Caps struct {
	// DeprecateEOF: CLIENT_DEPRECATE_EOF; results end with an OK packet
	// (header 0xfe) and no EOF packet follows column definitions.
	DeprecateEOF bool
	// CacheMetadata: MARIADB_CLIENT_CACHE_METADATA; an execute response
	// carries a "metadata follows" byte and may omit column definitions.
	CacheMetadata bool
	// Plain: the session's packets have the shapes Conn implements: no TLS,
	// no compression, no query attributes, optional or extended metadata.
	// Conn can only drive plain sessions.
	Plain bool
}

// CapsFromHandshakeResponse reads the capabilities a client announced in its
// HandshakeResponse41 (or SSLRequest) payload, without the 4-byte packet
// header: client flags in bytes 0-3 and, when the client is not CLIENT_MYSQL
// (MariaDB), the extended capabilities in bytes 28-31. The server only
// honours flags both sides announced, and a client only announces flags the
// server offered, so these are the session's capabilities.
func CapsFromHandshakeResponse(payload []byte) (Caps, bool) {
	if len(payload) < 32 {
		return Caps{}, false
	}
	flags := binary.LittleEndian.Uint32(payload)
	var ext uint32
	if flags&clientMySQL == 0 {
		ext = binary.LittleEndian.Uint32(payload[28:])
	}
	return Caps{
		DeprecateEOF:  flags&clientDeprecateEOF != 0,
		CacheMetadata: ext&mariadbCacheMetadata != 0,
		Plain: flags&(clientSSL|clientCompress|clientOptionalMetadata|clientQueryAttributes) == 0 &&
			ext&mariadbExtendedMetadata == 0,
	}, true
}
