#!/usr/bin/env bash
# The README's first steps, done as a newcomer does them and checked
# against what the README says they do (CI runs this):
#   1. "Set-up (fresh Debian)": every command of its sh blocks runs in a
#      fresh clone of this repository, and the bench's last line is the one
#      the README shows (which must also be BENCH_NODES of bench/bench.h).
#   2. "First moves by hand": each command runs in the clone and prints what
#      the README shows below it, but for what it says differs between runs
#      (time, nps, the commit in the version).
# The commands are read from the README itself, so the test follows it.
# Before running anything it checks the README's shape: both sections
# there, every fence in them closed, each first-moves command followed by
# the output it prints, and every "## " section named in the Contents.
# Usage: tests/readme.sh [--here] [README] (default README.md): the commands
# run in a fresh clone in build/readme-test, or with --here in this tree,
# which must then be a fresh clone itself (CI's checkout: .ci/run, where
# this is also the suite's one run).  Logs in build/readme-test.
set -uo pipefail
cd "$(dirname "$0")/.."
here=0
[ "${1:-}" = --here ] && { here=1; shift; }
readme=$(realpath "${1:-README.md}")
OUT=$(mkdir -p build/readme-test && realpath build/readme-test)
say() { printf 'readme: %s\n' "$*"; }
failures=0
fail() { say "FAILED: $*"; failures=$((failures + 1)); }

# blocks SECTION: the fenced blocks of the section "## SECTION", each as
# "<<<LANG" then its lines, ">>>" after it.
blocks() {
    awk -v want="## $1" '
        /^## / { inside = ($0 == want) }
        inside && /^```/ { if (open) { print ">>>"; open = 0 } else { open = 1; print "<<<" substr($0, 4) } ; next }
        inside && open { print }' "$readme"
}
# fences SECTION: how many fence lines the section has (even when closed).
fences() {
    awk -v want="## $1" '/^## / { inside = ($0 == want) } inside && /^```/ { n++ } END { print n + 0 }' "$readme"
}
# langs SECTION: the language of each of its blocks, one a line ("-" none).
langs() {
    blocks "$1" | sed -n 's/^<<<//p' | sed 's/^$/-/'
}
# nth N LANG SECTION: the Nth block of that language in the section.
nth() {
    blocks "$3" | awk -v n="$1" -v lang="$2" '
        /^<<</ { k += (substr($0, 4) == lang); on = (substr($0, 4) == lang && k == n); next }
        /^>>>$/ { on = 0; next }
        on { print }'
}

# ---- 0. the README's shape ----
for section in "Set-up (fresh Debian)" "First moves by hand"; do
    grep -qxF "## $section" "$readme" || { fail "no section '## $section' in the README"; exit 1; }
    [ $(($(fences "$section") % 2)) = 0 ] || fail "a code block of '$section' is not closed"
done
# first moves: sh, output, sh, output ...
pairs=$(langs "First moves by hand" | paste -sd' ')
[[ " $pairs" =~ ^(\ sh\ -)+$ ]] ||
    fail "'First moves by hand' must be commands (sh) each followed by its output (a plain block): $pairs"
# the Contents names every section (by its GitHub anchor)
slug() { tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'; }
contents=$(awk '/^## Contents$/ { on = 1; next } /^## / { on = 0 } on' "$readme")
while IFS= read -r title; do
    [ "$title" = Contents ] && continue
    anchor=$(printf '%s' "$title" | slug)
    grep -qF "(#$anchor)" <<<"$contents" || fail "the Contents does not name '## $title' (#$anchor)"
done < <(sed -n 's/^## //p' "$readme")
[ $failures = 0 ] || { say "$failures failed"; exit 1; }

if [ $here = 1 ]; then
    DIR=$PWD
else
    DIR=$OUT/clone
    rm -rf "$DIR"
    git clone -q . "$DIR" || { fail "cannot clone the repository"; exit 1; }
    # the README under test may have changes not yet committed
    cp "$readme" "$DIR/README.md"
fi

# ---- 1. set-up ----
setup=$(k=1; while block=$(nth $k sh "Set-up (fresh Debian)") && [ -n "$block" ]; do
    echo "$block"; k=$((k + 1)); done)
want_line=$(nth 1 "" "Set-up (fresh Debian)" | tail -1)
[ -n "$setup" ] && [ -n "$want_line" ] || { fail "no set-up commands or bench line in the README"; exit 1; }
bench_nodes=$(sed -n 's/^#define BENCH_NODES \([0-9]*\).*/\1/p' bench/bench.h)
echo "$want_line" | grep -q " $bench_nodes\$" ||
    fail "the README's bench line '$want_line' is not BENCH_NODES $bench_nodes"
n=0
while IFS= read -r cmd; do
    cmd=${cmd%%#*}
    [ -n "${cmd// /}" ] || continue
    n=$((n + 1))
    say "set-up: $cmd"
    start=$(date +%s)
    if ! (cd "$DIR" && bash -c "$cmd") 2>&1 | tee "$OUT/setup-$n.log" | { [ $here = 1 ] && cat || cat >/dev/null; }; then
        tail -5 "$OUT/setup-$n.log"
        fail "set-up command '$cmd' (log: $OUT/setup-$n.log)"
        continue
    fi
    say "  done in $(($(date +%s) - start)) s"
    if [[ $cmd == *"chuhan bench"* ]]; then
        got=$(tail -1 "$OUT/setup-$n.log")
        [ "$got" = "$want_line" ] && say "  its last line: $got" || fail "bench's last line is '$got', the README says '$want_line'"
    fi
done <<<"$setup"
[ -x "$DIR/chuhan" ] || fail "the set-up left no ./chuhan"

# ---- 2. first moves ----
mask() { sed -E 's/ (nps|time) [0-9]+/ \1 N/g; s/^(id name Chuhan [0-9.]+)[^ ]*$/\1/' ; }
k=1
while cmd=$(nth $k sh "First moves by hand") && [ -n "$cmd" ]; do
    want=$(nth $k "" "First moves by hand")
    got=$(cd "$DIR" && bash -c "$cmd" 2>&1)
    if [ "$(echo "$got" | mask)" = "$(echo "$want" | mask)" ]; then
        say "first moves $k: as the README shows ($(echo "$got" | tail -1))"
    else
        diff <(echo "$want" | mask) <(echo "$got" | mask) | head -20 | sed 's/^/    /'
        fail "first moves $k: '$cmd' prints other lines than the README shows"
    fi
    k=$((k + 1))
done
[ $k -gt 1 ] || fail "no first-moves command in the README"

if [ $failures = 0 ]; then say "all passed"; else say "$failures failed"; fi
[ $failures = 0 ]
