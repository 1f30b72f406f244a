package cli

import "benchpress/internal/target"

// sessionCounts are the sessions a Connector has opened, per endpoint and
// per client library (target.Connector.EndpointCounts, ClientCounts).
type sessionCounts struct{ endpoints, clients map[string]int64 }

func countSessions(c *target.Connector) sessionCounts {
	return sessionCounts{endpoints: c.EndpointCounts(), clients: c.ClientCounts()}
}

// since is what was opened after before: taken around runner.Run, the
// terminals' sessions and their reconnects, not the run's side sessions
// (the watch's, the limits read before the terminals connect), so that a
// run's "connections per endpoint" is how its terminals were spread.
// Every endpoint stays (an endpoint no terminal reached shows 0); client
// libraries that opened nothing are dropped.
func (s sessionCounts) since(before sessionCounts) sessionCounts {
	out := sessionCounts{endpoints: map[string]int64{}, clients: map[string]int64{}}
	for k, v := range s.endpoints {
		out.endpoints[k] = v - before.endpoints[k]
	}
	for k, v := range s.clients {
		if d := v - before.clients[k]; d > 0 {
			out.clients[k] = d
		}
	}
	return out
}
