#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# vanish.sh MOUNTPOINT PID: make a faultfs mount disappear under whoever uses it, as a volume
# that is pulled away: detach it (umount -l: new lookups no longer reach it), then kill the
# file system's daemon (PID), so the files still open there fail with ENOTCONN.
set -u
umount -l "$1" 2>/dev/null || fusermount3 -u -z "$1"
kill -KILL "$2" 2>/dev/null
exit 0
