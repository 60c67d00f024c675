#!/bin/sh
# What the Windows build needs: Debian's MinGW-w64 cross compiler with the
# POSIX thread model ("build"); to test it, Wine too ("test": wine is the
# launcher, wine64 the 64-bit loader) and zstd (raw records for a test).  Installs what is missing with
# apt-get, without recommended packages; exits 1 when it cannot.
# usage: deps.sh build|test
missing=""
command -v x86_64-w64-mingw32-gcc-posix >/dev/null 2>&1 || missing="$missing gcc-mingw-w64-x86-64-posix"
if [ "${1:-build}" = test ]; then
    command -v wine >/dev/null 2>&1 || missing="$missing wine"
    [ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null 2>&1 || missing="$missing wine64"
    command -v zstd >/dev/null 2>&1 || missing="$missing zstd"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$missing"
    (apt-get install -y -q --no-install-recommends $missing ||
        (apt-get update -q && apt-get install -y -q --no-install-recommends $missing)) >/dev/null || {
        echo "error: could not install$missing" >&2; exit 1; }
else
    echo "error: missing packages:$missing (install them with: sudo apt-get install --no-install-recommends$missing)" >&2
    exit 1
fi
