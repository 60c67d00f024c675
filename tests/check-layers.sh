#!/bin/sh
# The layers of the source: a folder includes only the folders below it.
#
#   engine/util < engine/board < engine/rules < engine/records
#     < eval, book < search < engine (the API: engine.c, init.c)
#     < engine/protocol < bench < engine/main.c
#
# A file may include its own folder's headers; a header named *_private.h
# only that.  Prints each include that breaks a rule, as FILE:LINE, and
# exits 1 if there is one.  Usage: check-layers.sh [ROOT] (default .).
cd "${1:-.}" || exit 2
files=$(find engine search eval book bench -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || { echo "check-layers: no source under ${1:-.}" >&2; exit 2; }
# shellcheck disable=SC2086
grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' /dev/null $files | awk -F: '
function layer(p) {
    if (p ~ /^engine\/util\//) return 0
    if (p ~ /^engine\/board\//) return 1
    if (p ~ /^engine\/rules\//) return 2
    if (p ~ /^engine\/records\//) return 3
    if (p ~ /^(eval|book)\//) return 4
    if (p ~ /^search\//) return 5
    if (p == "engine/main.c") return 9
    if (p ~ /^engine\/protocol\//) return 7
    if (p ~ /^engine\/[^\/]*$/) return 6
    if (p ~ /^bench\//) return 8
    return -1
}
function folder(p) { sub(/\/[^\/]*$/, "", p); return p }
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
    else if (layer(target) >= layer(file))
        why = folder(target) "/ is not below " (file == "engine/main.c" ? file : folder(file) "/")
    else
        next
    printf "%s:%s: includes \"%s\": %s\n", file, line, inc, why
    bad = 1
}
END { exit bad }'
