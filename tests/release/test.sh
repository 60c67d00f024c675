#!/usr/bin/env bash
# make test-dist: the release archives as a user gets them.
#   1. Each archive holds one folder chuhan-VERSION-SYSTEM-ARCH with the
#      binary, README.md and LICENSE.
#   2. The portable Linux archive, unpacked in a scratch folder, runs from
#      another folder (nothing read from the source tree or the current
#      folder: the book and weights are built in): --version gives VERSION,
#      a UCI session plays the book move, and bench gives BENCH_NODES.
#   3. The BMI2 build, started on a CPU without BMI2 (QEMU's user mode as a
#      Nehalem; skipped when qemu-user cannot be installed), says so and
#      exits 1 instead of dying of an illegal instruction.
#   4. Under Wine, when it is installed (make test-windows installs it), the
#      Windows archives unpacked the same way give VERSION and BENCH_NODES.
#   5. The arm64 archive, unpacked the same way, under QEMU (qemu-aarch64):
#      VERSION, the book move, BENCH_NODES; a static binary.
# Usage: tests/release/test.sh DIST VERSION (make test-dist passes them).
set -uo pipefail
cd "$(dirname "$0")/../.."
dist=$(realpath "$1") version=$2
say() { printf 'test-dist: %s\n' "$*"; }
failures=0
fail() { say "FAILED: $*"; failures=$((failures + 1)); }
expected=$(sed -n 's/^#define BENCH_NODES \([0-9]*\).*/\1/p' bench/bench.h)
nodes() { tr -d '\r' | sed -n 's/^Nodes searched *: *\([0-9]*\).*/\1/p' | tail -1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/unpacked" "$scratch/elsewhere"

# ---- 1. contents ----
for sys in linux windows; do
    for arch in x86-64 x86-64-bmi2 arm64; do
        [ $sys-$arch = windows-arm64 ] && continue
        name=chuhan-$version-$sys-$arch bin=chuhan
        if [ $sys = windows ]; then
            bin=chuhan.exe
            list=$(unzip -Z1 "$dist/$name.zip" 2>/dev/null | sort | tr '\n' ' ')
        else
            list=$(tar -tzf "$dist/$name.tar.gz" 2>/dev/null | sort | tr '\n' ' ')
        fi
        want="$name/ $name/LICENSE $name/README.md $name/$bin "
        [ "$list" = "$want" ] || [ "$list" = "$(echo "$want" | tr ' ' '\n' | sort | grep . | tr '\n' ' ')" ] ||
            fail "$name: holds '$list', not '$want'"
    done
done
say "5 archives, each with its binary, README.md and LICENSE"

# ---- 2. the portable Linux build, run from elsewhere ----
name=chuhan-$version-linux-x86-64
tar -C "$scratch/unpacked" -xzf "$dist/$name.tar.gz"
exe=$scratch/unpacked/$name/chuhan
cd "$scratch/elsewhere"
got=$("$exe" --version)
[ "$got" = "Chuhan $version (x86-64, Linux)" ] || fail "--version: '$got'"
reply=$(printf 'uci\nisready\nposition startpos\ngo depth 5\n' | "$exe")
echo "$reply" | grep -q '^bestmove h2e2' || fail "no book move from elsewhere: $(echo "$reply" | tail -2)"
n=$("$exe" bench 2>&1 | nodes)
[ "$n" = "$expected" ] || fail "bench from elsewhere: '$n' nodes, BENCH_NODES $expected"
needs=$(ldd "$exe" 2>/dev/null | awk '{print $1}' | grep -v -e linux-vdso -e ld-linux -e '^libc\.' -e '^libm\.' | tr '\n' ' ')
[ -z "$needs" ] || fail "the portable binary needs libraries beyond the C library: $needs"
cd - >/dev/null
say "$name unpacked and run from another folder: $got; book move h2e2; bench $n nodes; needs only libc"

# ---- 3. the BMI2 build on a CPU without BMI2 ----
if ! command -v qemu-x86_64 >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get install -y -q --no-install-recommends qemu-user >/dev/null 2>&1
fi
name=chuhan-$version-linux-x86-64-bmi2
tar -C "$scratch/unpacked" -xzf "$dist/$name.tar.gz"
if command -v qemu-x86_64 >/dev/null 2>&1; then
    msg=$(qemu-x86_64 -cpu Nehalem "$scratch/unpacked/$name/chuhan" --version 2>&1)
    status=$?
    if [ $status = 1 ] && echo "$msg" | grep -q 'built for x86-64-bmi2' && echo "$msg" | grep -q 'portable build'; then
        say "the BMI2 build on a CPU without BMI2 (QEMU as Nehalem): exit 1, '$(echo "$msg" | head -1 | cut -c1-80)...'"
    else
        fail "the BMI2 build without BMI2: status $status, $msg"
    fi
    got=$(qemu-x86_64 -cpu Haswell "$scratch/unpacked/$name/chuhan" --version 2>/dev/null)
    [ "$got" = "Chuhan $version (x86-64-bmi2, Linux)" ] || fail "the BMI2 build on a Haswell: '$got'"
else
    say "SKIPPED the CPU check: qemu-user cannot be installed"
fi

# ---- 4. the Windows archives under Wine ----
if command -v wine >/dev/null 2>&1 && command -v unzip >/dev/null 2>&1; then
    export WINEPREFIX=${WINEPREFIX:-$PWD/build/windows-test/wine} WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
    for arch in x86-64 x86-64-bmi2; do
        name=chuhan-$version-windows-$arch
        unzip -q -o "$dist/$name.zip" -d "$scratch/unpacked"
        cd "$scratch/elsewhere"
        got=$(wine "$scratch/unpacked/$name/chuhan.exe" --version 2>/dev/null | tr -d '\r')
        [ "$got" = "Chuhan $version ($arch, Windows)" ] || fail "$name --version: '$got'"
        if [ $arch = x86-64 ]; then
            n=$(wine "$scratch/unpacked/$name/chuhan.exe" bench 2>/dev/null | nodes)
            [ "$n" = "$expected" ] || fail "$name bench: '$n' nodes, BENCH_NODES $expected"
        fi
        cd - >/dev/null
        say "$name under Wine from another folder: $got${n:+; bench $n nodes}"
        n=
    done
else
    say "SKIPPED the Windows archives: Wine is not installed (make test-windows installs it)"
fi

# ---- 5. the arm64 archive under QEMU ----
name=chuhan-$version-linux-arm64
tar -C "$scratch/unpacked" -xzf "$dist/$name.tar.gz"
exe=$scratch/unpacked/$name/chuhan
if command -v qemu-aarch64 >/dev/null 2>&1; then
    cd "$scratch/elsewhere"
    got=$(qemu-aarch64 "$exe" --version)
    [ "$got" = "Chuhan $version (armv8-a, Linux)" ] || fail "$name --version: '$got'"
    reply=$(printf 'uci\nisready\nposition startpos\ngo depth 5\n' | qemu-aarch64 "$exe")
    echo "$reply" | grep -q '^bestmove h2e2' || fail "$name: no book move: $(echo "$reply" | tail -2)"
    n=$(qemu-aarch64 "$exe" bench 2>&1 | nodes)
    [ "$n" = "$expected" ] || fail "$name bench: '$n' nodes, BENCH_NODES $expected"
    readelf -lW "$exe" 2>/dev/null | grep -q INTERP && fail "$name: not a static binary"
    cd - >/dev/null
    say "$name under QEMU from another folder: $got; book move h2e2; bench $n nodes; static"
else
    say "SKIPPED the arm64 archive: qemu-user cannot be installed"
fi

if [ $failures = 0 ]; then say "all passed"; else say "$failures failed"; fi
[ $failures = 0 ]
