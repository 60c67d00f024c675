#!/bin/sh
# libzstd for the cross builds (make TARGET=windows, TARGET=linux-arm64),
# built from Debian's own source package of it (tests/debsrc.sh: the
# pinned version, any version when the pin is gone, Debian's patches
# applied): the library's C files are compiled by the cross compiler into
# OUT/lib/libzstd.a, with its headers in OUT/include.  Nothing is done
# when the library is there.
#
# usage: zstd.sh OUT CC AR      (the Makefile calls it)
set -eu
mkdir -p "$1"
out=$(cd "$1" && pwd) cc=$2 ar=$3
pin=1.5.4+dfsg2-5
[ -f "$out/lib/libzstd.a" ] && [ -f "$out/include/zstd.h" ] && exit 0
src=$(sh "$(dirname "$0")/../debsrc.sh" "$out/src" libzstd "$pin")
[ -f "$src/lib/zstd.h" ] || { echo "error: no zstd source unpacked in $out/src" >&2; exit 1; }
echo "zstd: compiled by $cc"
cd "$out/src"

# The library's C files; no assembler (the x86-64 decoder's .S is ELF only).
mkdir -p obj "$out/lib" "$out/include"
for f in "$src"/lib/common/*.c "$src"/lib/compress/*.c "$src"/lib/decompress/*.c; do
    $cc -O2 -DZSTD_DISABLE_ASM -c "$f" -o "obj/$(basename "$f" .c).o"
done
rm -f "$out/lib/libzstd.a"
$ar rcs "$out/lib/libzstd.a" obj/*.o
cp "$src/lib/zstd.h" "$src/lib/zstd_errors.h" "$src/lib/zdict.h" "$out/include/"
rm -rf obj
