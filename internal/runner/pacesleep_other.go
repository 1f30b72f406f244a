//go:build !linux

package runner

import "time"

// threadSleepSupported: no raw thread sleep here; sleepUntil uses Go timers.
const threadSleepSupported = false

func threadSleepUntil(time.Time) {}
