#!/bin/sh
# The layers of the source: a folder includes only the folders below it.
# LAYERS lists them from the bottom up, one layer a line; folders on one
# line are side by side (neither includes the other).  A folder is its own
# files, not its subfolders': engine/ is the engine API, engine/board/ a
# layer of its own (engine/README.md, The layers, says what each holds).
#
# A file may include its own folder's headers; a header named *_private.h
# only that.  Prints each include that breaks a rule, as FILE:LINE, and
# exits 1 if there is one.  Usage: check-layers.sh [ROOT] (default .).
LAYERS='engine/util
engine/board
engine/rules
eval/nnue
eval engine/records
book
search
engine/cluster
engine
engine/protocol
bench
bench/tools
engine/cli'
cd "${1:-.}" || exit 2
files=$(find engine search eval book bench -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || { echo "check-layers: no source under ${1:-.}" >&2; exit 2; }
# shellcheck disable=SC2086
grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' /dev/null $files | awk -F: -v layers="$LAYERS" '
BEGIN {
    n = split(layers, row, "\n")
    for (i = 1; i <= n; i++) {
        m = split(row[i], dir, " ")
        for (j = 1; j <= m; j++)
            rank[dir[j]] = i
    }
}
function folder(p) { sub(/\/[^\/]*$/, "", p); return p }
function layer(p) { p = folder(p); return p in rank ? rank[p] : -1 }
{
    file = $1; line = $2
    match($0, /"[^"]*"/)
    inc = substr($0, RSTART + 1, RLENGTH - 2)
    target = inc ~ /\// ? inc : folder(file) "/" inc
    if (folder(target) == folder(file))
        next
    if (target ~ /_private\.h$/)
        why = "private to " folder(target) "/"
    else if (layer(target) < 0)
        why = "in no layer"
    else if (layer(file) < 0)
        why = folder(file) "/ is in no layer"
    else if (layer(target) >= layer(file))
        why = folder(target) "/ is not below " folder(file) "/"
    else
        next
    printf "%s:%s: includes \"%s\": %s\n", file, line, inc, why
    bad = 1
}
END { exit bad }'
