//go:build !linux

package sockio

import (
	"errors"
	"net"
	"time"
)

// Supported reports whether Detach can take sockets over here.
const Supported = false

// Detach is Linux-only; elsewhere sockets stay with the runtime's poller.
func Detach(net.Conn) (*Conn, error) { return nil, ErrUnsupported }

var errNotLinux = errors.New("sockio: not supported on this platform")

func shutdown(int) {}
func closeFD(int)  {}

// Read, Write: never reached (Detach fails first).
func (c *Conn) Read([]byte) (int, error)  { return 0, errNotLinux }
func (c *Conn) Write([]byte) (int, error) { return 0, errNotLinux }

func (c *Conn) wakeWait(time.Time) {}

// setReadSlice: nothing to set (Detach fails first).
func (c *Conn) setReadSlice(bool) {}
