# scripts/lib/apt.sh — Debian packages for the setup and bench scripts
# (sourced, not run). Every script that installs what it needs goes through
# apt_install, so the package index is refreshed once per script and no
# package starts a service on its own.

if [ "$(id -u)" != 0 ]; then APT_SUDO=sudo; else APT_SUDO=; fi
apt_updated=0

# apt_install [--no-start] PKG...: refreshes the package index (once per
# shell), then installs PKG without recommended packages. --no-start keeps
# the packages' maintainer scripts from starting their services (a
# policy-rc.d that answers 101), for daemons the caller starts itself on
# 127.0.0.1 rather than on the package's default wildcard address. Progress
# goes to the caller's log function when it has one, else to stderr.
apt_install() {
  local nostart=0 rc=0
  if [ "${1:-}" = --no-start ]; then nostart=1; shift; fi
  if [ "$apt_updated" = 0 ]; then
    apt_log "apt-get update"
    $APT_SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || return
    apt_updated=1
  fi
  apt_log "installing $*"
  if [ $nostart = 1 ]; then
    printf '#!/bin/sh\nexit 101\n' | $APT_SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $APT_SUDO chmod +x /usr/sbin/policy-rc.d
  fi
  $APT_SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null || rc=$?
  [ $nostart = 0 ] || $APT_SUDO rm -f /usr/sbin/policy-rc.d
  return $rc
}

apt_log() { if declare -F log >/dev/null; then log "$*"; else printf '%s\n' "$*" >&2; fi; }
