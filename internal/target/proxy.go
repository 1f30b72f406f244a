package target

import "strings"

// proxyMarkers are substrings of the version strings that sharding and
// routing proxies report in their handshake (ShardingSphere-Proxy appends
// "-ShardingSphere-Proxy 5.1.0" to its backend's version).
var proxyMarkers = []struct{ marker, name string }{
	{"shardingsphere", "ShardingSphere-Proxy"},
	{"hotdb", "HotDB"},
	{"mycat", "Mycat"},
	{"dble", "DBLE"},
	{"vitess", "Vitess"},
	{"proxysql", "ProxySQL"},
	{"kingshard", "Kingshard"},
	{"gaea", "Gaea"},
	{"maxscale", "MaxScale"},
}

// ProxyName names the proxy that a server version string reveals
// ("ShardingSphere-Proxy", "HotDB", ...), or "" for a plain server or a
// proxy that hides itself.
func ProxyName(serverVersion string) string {
	v := strings.ToLower(serverVersion)
	for _, m := range proxyMarkers {
		if strings.Contains(v, m.marker) {
			return m.name
		}
	}
	return ""
}
