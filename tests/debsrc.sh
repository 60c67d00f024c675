#!/bin/sh
# Fetch and unpack one of Debian's source packages, so that a library a
# cross build needs is compiled from Debian's own source (nothing from
# outside Debian): apt-get source, with a deb-src list of its own (the
# system's apt configuration is left as it is) naming the mirrors the
# system already uses, fetches the pinned version (any version when the
# pin is gone), and dpkg-source applies Debian's patches.  Prints the
# unpacked folder (inside DIR, which is emptied first) and, on stderr, the
# version.
#
# usage: debsrc.sh DIR PACKAGE PIN      (tests/windows/zstd.sh, tests/arm64/cmocka.sh)
set -eu
dir=$1 pkg=$2 pin=$3
if ! command -v dpkg-source >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    echo "installing: dpkg-dev (dpkg-source, to unpack the $pkg source package)" >&2
    apt-get install -y -q --no-install-recommends dpkg-dev >/dev/null
fi
command -v dpkg-source >/dev/null 2>&1 || { echo "error: dpkg-source (package dpkg-dev) is needed" >&2; exit 1; }

rm -rf "$dir"
mkdir -p "$dir/lists/partial"
cd "$dir"
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
apt-get -q $apt_o source "$pkg=$pin" >>apt.log 2>&1 || apt-get -q $apt_o source "$pkg" >>apt.log 2>&1 ||
    { cat apt.log >&2; exit 1; }
src=$(find . -maxdepth 1 -type d -name "$pkg-*" | head -1)
[ -n "$src" ] || { echo "error: no $pkg source unpacked in $PWD" >&2; exit 1; }
echo "$pkg $(sed -n 's/^Version: //p' ./*.dsc | head -1)" >&2
echo "$PWD/${src#./}"
