#!/bin/sh
# Make sure the libraries the build needs are present: cmocka (tests) and
# zstd (opening book).  Installs them with apt-get when missing and allowed.
missing=""
# have_header H...: the headers, each on its own #include line, preprocess.
have_header() {
    for h in "$@"; do printf '#include <%s>\n' "$h"; done |
        ${CC:-cc} -E -x c - >/dev/null 2>&1
}
have_header zstd.h || missing="$missing libzstd-dev"
# cmocka.h needs these four before it
have_header stdarg.h stddef.h setjmp.h stdint.h cmocka.h || missing="$missing libcmocka-dev"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$missing"
    (apt-get install -y -q $missing || (apt-get update -q && apt-get install -y -q $missing)) >/dev/null || {
        echo "error: could not install$missing" >&2; exit 1; }
else
    echo "error: missing packages:$missing (install them with: sudo apt-get install$missing)" >&2
    exit 1
fi
