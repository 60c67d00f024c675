#!/bin/sh
# What the WebAssembly build needs: Debian's emscripten ("build"); to test
# it, Chromium and python3 too ("test": the page is served by python3 and
# run by headless Chromium).  Installs what is missing with apt-get,
# without recommended packages; exits 1 when it cannot.
# usage: deps.sh build|test
missing=""
command -v emcc >/dev/null 2>&1 || missing="$missing emscripten"
if [ "${1:-build}" = test ]; then
    command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
    command -v python3 >/dev/null 2>&1 || missing="$missing python3"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$missing"
    (apt-get install -y -q --no-install-recommends $missing ||
        (apt-get update -q && apt-get install -y -q --no-install-recommends $missing)) >/dev/null || {
        echo "error: could not install$missing" >&2; exit 1; }
else
    echo "error: missing packages:$missing (install them with: sudo apt-get install --no-install-recommends$missing)" >&2
    exit 1
fi
