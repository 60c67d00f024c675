#!/usr/bin/env bash
# make dist: the release archives, one for each system and instruction set:
#   chuhan-VERSION-linux-x86-64.tar.gz      any x86-64 CPU
#   chuhan-VERSION-linux-x86-64-bmi2.tar.gz x86-64-v3 (BMI2, AVX2): Intel Haswell
#                                           (2013), AMD Zen 3 (2020) or later
#   chuhan-VERSION-windows-x86-64.zip, chuhan-VERSION-windows-x86-64-bmi2.zip
#   chuhan-VERSION-linux-arm64.tar.gz       any AArch64 CPU (ARMv8-A), static:
#                                           Android GUIs, Raspberry Pi 3 or later
# each a folder chuhan-VERSION-SYSTEM-ARCH/ with the binary (chuhan or
# chuhan.exe), README.md and LICENSE.  (AMD before Zen 3 has BMI2 but runs
# its PEXT slowly: the portable build is the faster one there.)
#
# Usage: tests/release/dist.sh OUT VERSION (make dist passes them).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$1 version=$2
mkdir -p "$out"
out=$(realpath "$out")
command -v zip >/dev/null 2>&1 || {
    echo "installing: zip"
    apt-get install -y -q --no-install-recommends zip >/dev/null
}

# pack NAME BINARY: the folder NAME with the binary, README and LICENSE.
pack() {
    local name=$1 bin=$2 stage
    stage=$(mktemp -d)
    mkdir "$stage/$name"
    cp "$bin" "$stage/$name/"
    cp README.md LICENSE "$stage/$name/"
    rm -f "$out/$name.tar.gz" "$out/$name.zip"
    if [[ $bin == *.exe ]]; then
        (cd "$stage" && zip -q -r -X "$out/$name.zip" "$name")
        echo "dist: $out/$name.zip"
    else
        tar -C "$stage" --owner=0 --group=0 -czf "$out/$name.tar.gz" "$name"
        echo "dist: $out/$name.tar.gz"
    fi
    rm -rf "$stage"
}

# TARGET ARCH archive-suffix
builds=("linux x86-64 linux-x86-64" "linux x86-64-bmi2 linux-x86-64-bmi2"
    "windows x86-64 windows-x86-64" "windows x86-64-bmi2 windows-x86-64-bmi2"
    "linux-arm64 armv8-a linux-arm64")
for build in "${builds[@]}"; do
    read -r target arch suffix <<<"$build"
    # x86-64 Linux in folders of their own (libzstd linked in: a link of
    # its own); the cross builds link it in anyway, and share the folders
    # of make test-windows and make test-arm64.
    tag=
    if [ $target = linux ]; then tag=dist; fi
    flags=(TARGET=$target ARCH=$arch BUILD_TAG=$tag STATIC_ZSTD=1)
    make --no-print-directory -j"$(nproc)" "${flags[@]}" >"$out/build-$suffix.log" 2>&1 ||
        { tail -20 "$out/build-$suffix.log"; echo "dist: the $target $arch build failed" >&2; exit 1; }
    bin=$(make --no-print-directory -s "${flags[@]}" engine-path)
    pack "chuhan-$version-$suffix" "$bin"
done
