#!/bin/sh
# What the arm64 build needs: Debian's AArch64 cross compiler (with its C
# library, for the static link) ("build"); to test it, QEMU's user-mode
# emulator too ("test": qemu-aarch64, from qemu-user or qemu-user-static).
# Installs what is missing with apt-get, without recommended packages;
# exits 1 when it cannot.
# usage: deps.sh build|test
missing=""
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing="$missing gcc-aarch64-linux-gnu"
# (only recommended by the compiler, so named: its C library and headers)
[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || missing="$missing libc6-dev-arm64-cross"
if [ "${1:-build}" = test ]; then
    command -v qemu-aarch64 >/dev/null 2>&1 || command -v qemu-aarch64-static >/dev/null 2>&1 ||
        missing="$missing qemu-user"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$missing"
    # (waiting for another apt-get, rather than failing at its lock)
    apt="apt-get -q -o DPkg::Lock::Timeout=300"
    ($apt install -y --no-install-recommends $missing ||
        ($apt update && $apt install -y --no-install-recommends $missing)) >/dev/null || {
        echo "error: could not install$missing" >&2; exit 1; }
else
    echo "error: missing packages:$missing (install them with: sudo apt-get install --no-install-recommends$missing)" >&2
    exit 1
fi
