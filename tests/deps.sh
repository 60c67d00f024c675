#!/bin/sh
# Make sure the libraries the build needs are present: cmocka (tests) and
# zstd (opening book), and with MPI=1 Open MPI (its compiler wrapper, headers
# and mpirun); with TEST=1 also what the tests run: rsvg-convert (Debian's
# librsvg2-bin) renders the SVG graphs of chuhan analyze.  Installs them with apt-get when missing and allowed.
missing=""
# have_header H...: the headers, each on its own #include line, preprocess.
have_header() {
    for h in "$@"; do printf '#include <%s>\n' "$h"; done |
        ${CC:-cc} -E -x c - >/dev/null 2>&1
}
have_header zstd.h || missing="$missing libzstd-dev"
# cmocka.h needs these four before it
have_header stdarg.h stddef.h setjmp.h stdint.h cmocka.h || missing="$missing libcmocka-dev"
if [ "${TEST:-0}" = 1 ]; then
    command -v rsvg-convert >/dev/null 2>&1 || missing="$missing librsvg2-bin"
fi
# Open MPI without the recommended packages (no Fortran compiler, no docs)
opts=""
if [ "${MPI:-0}" = 1 ]; then
    { command -v mpicc && command -v mpirun; } >/dev/null 2>&1 || missing="$missing libopenmpi-dev openmpi-bin"
    opts="--no-install-recommends"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$missing"
    (apt-get install -y -q $opts $missing || (apt-get update -q && apt-get install -y -q $opts $missing)) >/dev/null || {
        echo "error: could not install$missing" >&2; exit 1; }
else
    echo "error: missing packages:$missing (install them with: sudo apt-get install$missing)" >&2
    exit 1
fi
