#!/bin/sh
# cmocka for the arm64 test suite (make test-arm64), built from Debian's
# own source package of it (tests/debsrc.sh), the version the x86-64 tests
# use: its one C file, compiled by the cross compiler into
# OUT/lib/libcmocka.a with the features its CMake checks find on glibc
# given by hand, and its header in OUT/include.  Nothing is done when the
# library is there.
#
# usage: cmocka.sh OUT CC AR      (the Makefile calls it)
set -eu
mkdir -p "$1"
out=$(cd "$1" && pwd) cc=$2 ar=$3
pin=1.1.5-2.1
[ -f "$out/lib/libcmocka.a" ] && [ -f "$out/include/cmocka.h" ] && exit 0
src=$(sh "$(dirname "$0")/../debsrc.sh" "$out/src" cmocka "$pin")
[ -f "$src/src/cmocka.c" ] || { echo "error: no cmocka source unpacked in $out/src" >&2; exit 1; }
echo "cmocka: compiled by $cc"
mkdir -p "$out/lib" "$out/include"
$cc -O2 -std=gnu99 -I"$src/include" -DHAVE_MALLOC_H -DHAVE_INTTYPES_H -DHAVE_SIGNAL_H -DHAVE_STRINGS_H \
    -DHAVE_GCC_THREAD_LOCAL_STORAGE -DHAVE_CLOCK_REALTIME -DHAVE_SIGLONGJMP -DHAVE_STRSIGNAL \
    -DHAVE_STRUCT_TIMESPEC -c "$src/src/cmocka.c" -o "$out/src/cmocka.o"
rm -f "$out/lib/libcmocka.a"
$ar rcs "$out/lib/libcmocka.a" "$out/src/cmocka.o"
cp "$src/include/cmocka.h" "$out/include/"
