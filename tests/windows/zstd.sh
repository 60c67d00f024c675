#!/bin/sh
# libzstd for the cross builds (make TARGET=windows, TARGET=wasm), built from Debian's
# own source package of it, so that nothing comes from outside Debian:
# apt-get source, with a deb-src list of its own (the system's apt
# configuration is left as it is) naming the mirrors the system already
# uses, fetches the pinned version (any version when the pin is gone),
# dpkg-source applies Debian's patches, and the library's C files are
# compiled by the cross compiler into OUT/lib/libzstd.a, with its headers
# in OUT/include.  Nothing is done when the library is there.
#
# usage: zstd.sh OUT CC AR      (the Makefile calls it; CC may hold flags)
set -eu
mkdir -p "$1"
out=$(cd "$1" && pwd) cc=$2 ar=$3
pin=1.5.4+dfsg2-5
[ -f "$out/lib/libzstd.a" ] && [ -f "$out/include/zstd.h" ] && exit 0
if ! command -v dpkg-source >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    echo "installing: dpkg-dev (dpkg-source, to unpack the zstd source package)"
    apt-get install -y -q --no-install-recommends dpkg-dev >/dev/null
fi
command -v dpkg-source >/dev/null 2>&1 || { echo "error: dpkg-source (package dpkg-dev) is needed" >&2; exit 1; }

rm -rf "$out/src"
mkdir -p "$out/src/lists/partial"
cd "$out/src"
# the mirrors of the system's own deb lines, as deb-src lines
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
{
    sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n'
    sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\).*/\2/p' \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
} | grep -v security | grep . | sort -u | sed "s|\$| $codename main|; s|^|deb-src |" >sources.list
[ -s sources.list ] || { echo "error: no Debian mirror found in the apt configuration" >&2; exit 1; }
apt_o="-o Dir::Etc::SourceList=$PWD/sources.list -o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists=$PWD/lists"
# shellcheck disable=SC2086
apt-get -q $apt_o update >apt.log 2>&1 || { cat apt.log >&2; exit 1; }
# shellcheck disable=SC2086
apt-get -q $apt_o source "libzstd=$pin" >>apt.log 2>&1 || apt-get -q $apt_o source libzstd >>apt.log 2>&1 ||
    { cat apt.log >&2; exit 1; }
src=$(find . -maxdepth 1 -type d -name 'libzstd-*' | head -1)
[ -n "$src" ] && [ -f "$src/lib/zstd.h" ] || { echo "error: no zstd source unpacked in $PWD" >&2; exit 1; }
echo "zstd for $(basename "$out"): $(sed -n 's/^Version: //p' ./*.dsc | head -1), compiled by $cc"

# The library's C files; no assembler (the x86-64 decoder's .S is ELF only).
mkdir -p obj "$out/lib" "$out/include"
for f in "$src"/lib/common/*.c "$src"/lib/compress/*.c "$src"/lib/decompress/*.c; do
    $cc -O2 -DZSTD_DISABLE_ASM -c "$f" -o "obj/$(basename "$f" .c).o"
done
rm -f "$out/lib/libzstd.a"
$ar rcs "$out/lib/libzstd.a" obj/*.o
cp "$src/lib/zstd.h" "$src/lib/zstd_errors.h" "$src/lib/zdict.h" "$out/include/"
rm -rf obj
