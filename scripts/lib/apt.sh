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
# On a fresh machine unattended-upgrades may hold the dpkg and list locks:
# apt waits for them (up to APT_LOCK_WAIT seconds, default 600) instead of
# failing at once; apt-get update, which only honours the wait on some apt
# versions, is also retried.
apt_install() {
  local nostart=0 rc=0 wait=${APT_LOCK_WAIT:-600} i traps
  local lock=(-o "DPkg::Lock::Timeout=$wait")
  if [ "${1:-}" = --no-start ]; then nostart=1; shift; fi
  if [ "$apt_updated" = 0 ]; then
    apt_log "apt-get update"
    for i in 1 2 3 4 5 6; do
      $APT_SUDO env DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" update -qq >/dev/null && break
      [ "$i" = 6 ] && return 1
      apt_log "apt-get update failed (a lock held?); again in 10 s"
      sleep 10
    done
    apt_updated=1
  fi
  apt_log "installing $*"
  if [ $nostart = 1 ]; then
    # A policy-rc.d the machine had is put back afterwards, also when the
    # install is interrupted (an "exit 101" left behind would stop every
    # later service start).
    if [ -e /usr/sbin/policy-rc.d ] && [ ! -e /usr/sbin/policy-rc.d.benchpress-saved ]; then
      $APT_SUDO mv /usr/sbin/policy-rc.d /usr/sbin/policy-rc.d.benchpress-saved
    fi
    traps=$(trap -p EXIT INT TERM) # the caller's, put back below
    # Interrupted: restore, then run the caller's own EXIT trap (saved
    # here: "trap -- 'CMD' EXIT" parsed into its words, CMD the third).
    local prev_exit="" words
    words=$(trap -p EXIT)
    if [ -n "$words" ]; then
      prev_exit=$(eval "set -- $words"; printf '%s' "$3")
    fi
    # shellcheck disable=SC2064 # expanded now, on purpose
    trap "apt_restore_policy; $prev_exit" EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    printf '#!/bin/sh\nexit 101\n' | $APT_SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $APT_SUDO chmod +x /usr/sbin/policy-rc.d
  fi
  $APT_SUDO env DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq --no-install-recommends "$@" >/dev/null || rc=$?
  if [ $nostart = 1 ]; then
    apt_restore_policy
    trap - EXIT INT TERM
    eval "$traps"
  fi
  return $rc
}

# apt_restore_policy removes the install's policy-rc.d and puts back the
# one the machine had.
apt_restore_policy() {
  $APT_SUDO rm -f /usr/sbin/policy-rc.d
  if [ -e /usr/sbin/policy-rc.d.benchpress-saved ]; then
    $APT_SUDO mv /usr/sbin/policy-rc.d.benchpress-saved /usr/sbin/policy-rc.d
  fi
}

apt_log() { if declare -F log >/dev/null; then log "$*"; else printf '%s\n' "$*" >&2; fi; }
