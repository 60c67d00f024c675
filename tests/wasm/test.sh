#!/usr/bin/env bash
# make test-wasm: the WebAssembly build in headless Chromium, driven as a
# web board drives it: the test page (tests/wasm/index.html, selfplay.js)
# runs chuhan.js in a Web Worker and, over UCI by postMessage,
#   1. finds Threads above 1 (the page is cross-origin isolated: python3
#      serves it with COOP/COEP, tests/wasm/serve.py) and Hash bounded;
#   2. plays a whole game against itself, on 2 threads, every move checked
#      legal by the page's own rules (xiangqi.js) and the board shown;
#   3. sends stop during go infinite (isready answered while it searches)
#      and gets a legal bestmove; then UCCI and xboard, each in a worker of
#      its own, answer their handshake and play a move;
#   4. runs chuhan.js?bench in a worker of its own: the node count is the
#      native build's (its `bench`, run here first), and the speed is shown
#      against the native one's;
#   5. all of it again from the page served without the isolation headers,
#      where chuhan.js has no shared memory and runs chuhan-single.js, the
#      build whose threads are fibers on one thread: Threads is 1 at most,
#      and stop must still reach the protocol while the search runs.
# Usage: tests/wasm/test.sh BUILD_DIR NATIVE_ENGINE (make test-wasm passes
# them); the page's report and Chromium's log in build/wasm-test.
set -uo pipefail
cd "$(dirname "$0")/../.."

BUILD=$1
NATIVE=$(realpath "$2")
OUT=$(mkdir -p build/wasm-test && realpath build/wasm-test)
say() { printf 'test-wasm: %s\n' "$*"; }
start=$(date +%s)
files="chuhan.js chuhan.wasm chuhan.worker.js chuhan-single.js chuhan-single.wasm"
for f in $files; do
    [ -f "$BUILD/$f" ] || { say "FAILED: no $BUILD/$f"; exit 1; }
done
# shellcheck disable=SC2086
say "sizes: $(cd "$BUILD" && wc -c $files | awk '$2 != "total" {printf "%s %d kB  ", $2, $1 / 1024}')"

"$NATIVE" bench >"$OUT/native-bench.txt" 2>&1 || { say "FAILED: the native bench"; exit 1; }
nodes=$(sed -n 's/^Nodes searched *: *//p' "$OUT/native-bench.txt")
native_nps=$(sed -n 's/^Nodes\/second *: *//p' "$OUT/native-bench.txt")
say "native bench: $nodes nodes, $native_nps nodes/second"

# The page, served from the root of the tree; Chromium is ended once the
# report is in (or after the time limit), the server ends with the report.
run_page() { # NAME QUERY [--no-isolation]
    local name=$1 query=$2 dir=$OUT/$1 limit=300
    rm -rf "$dir" && mkdir -p "$dir"
    python3 tests/wasm/serve.py . "$dir/port" "$dir/report.json" ${3:-} &
    local server=$!
    for _ in $(seq 50); do [ -s "$dir/port" ] && break; sleep 0.1; done
    [ -s "$dir/port" ] || { kill $server; say "FAILED: the web server did not start"; return 1; }
    local url="http://127.0.0.1:$(cat "$dir/port")/tests/wasm/index.html?$query"
    chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
        --user-data-dir="$dir/profile" --remote-debugging-port=0 "$url" >"$dir/chromium.log" 2>&1 &
    local browser=$!
    for _ in $(seq $limit); do
        [ -s "$dir/report.json" ] && break
        kill -0 $browser 2>/dev/null || break
        sleep 1
    done
    kill $browser 2>/dev/null
    kill $server 2>/dev/null
    wait $browser $server 2>/dev/null
    if [ ! -s "$dir/report.json" ]; then
        tail -20 "$dir/chromium.log"
        say "FAILED: $name: no report from the page within $limit s (Chromium's log: $dir/chromium.log)"
        return 1
    fi
    python3 - "$dir/report.json" "$name" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for line in report["checks"]:
    print("test-wasm: %s: %s" % (sys.argv[2], line))
sys.exit(0 if report["ok"] else 1)
PY
}

failures=0
run_page isolated "engine=/$BUILD/chuhan.js&bench=$nodes" || failures=$((failures + 1))
run_page plain "engine=/$BUILD/chuhan.js&bench=$nodes" --no-isolation || failures=$((failures + 1))
for page in isolated plain; do
    wasm_nps=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["output"].get("bench_nps", 0))' \
        "$OUT/$page/report.json" 2>/dev/null)
    if [ -n "$wasm_nps" ] && [ "$wasm_nps" != 0 ] && [ -n "$native_nps" ]; then
        say "$page: bench speed in the browser: $wasm_nps nodes/second, $(awk -v w="$wasm_nps" \
            -v n="$native_nps" 'BEGIN { printf "%.2f", w / n }') of the native build's"
    fi
done

if [ $failures = 0 ]; then
    say "all passed in $(($(date +%s) - start)) s"
else
    say "$failures failed in $(($(date +%s) - start)) s"
fi
[ $failures = 0 ]
