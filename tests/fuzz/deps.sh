#!/bin/sh
# Make sure clang can build libFuzzer targets with AddressSanitizer and
# UndefinedBehaviorSanitizer (make fuzz).  On Debian that is clang and
# libclang-rt-dev (libFuzzer and the sanitizer runtimes); they are installed
# with apt-get when missing and allowed.
cc=${1:-clang}
probe() {
    dir=$(mktemp -d) || return 1
    printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$dir/t.c"
    "$cc" -fsanitize=fuzzer,address,undefined "$dir/t.c" -o "$dir/t" >/dev/null 2>&1
    ok=$?
    rm -rf "$dir"
    return $ok
}
probe && exit 0
pkgs="clang libclang-rt-dev"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing: $pkgs"
    (apt-get install -y -q $pkgs || (apt-get update -q && apt-get install -y -q $pkgs)) >/dev/null || {
        echo "error: could not install $pkgs" >&2; exit 1; }
    probe && exit 0
    echo "error: $cc cannot build libFuzzer targets even with $pkgs installed" >&2
else
    echo "error: $cc cannot build libFuzzer targets (install them with: sudo apt-get install $pkgs)" >&2
fi
exit 1
