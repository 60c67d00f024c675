#!/usr/bin/env python3
"""The Elo-by-level table of README.md (Strength levels) from the results of
bench/tools/ladder.sh: each step's last line "level-A vs level-B: N games, W w D d
L l, ..., Elo X +/- E (95%) ...", chained from level 0 = 1000, and the
arrays engine/skill.c keeps (LADDER_LEVEL, LADDER_ELO).
    python3 bench/tools/ladder_table.py STEP.txt...   (in the order of the ladder)"""
import re
import sys

ANCHOR = 1000
rows, rating = [], {}
for path in sys.argv[1:]:
    last = None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.search(r"level-(\d+) vs level-(\d+): (\d+) games, W (\d+) D (\d+) L (\d+), score ([\d.]+)%, "
                      r"Elo ([-+\d.inf]+) \+/- ([\d.inf]+)", line)
        if m:
            last = m
        m2 = re.search(r"\[(\d+)/(\d+)\] .*\| level-(\d+) vs level-(\d+): W (\d+) D (\d+) L (\d+), Elo ([-+\d.inf]+) "
                       r"\+/- ([\d.inf]+)", line)
        if m2 and not last:
            partial = m2
    if last:
        a, b, n, w, d, l, score, elo, err = last.groups()
    else:  # a step still running: its latest line
        _, _, a, b, w, d, l, elo, err = partial.groups()
        n = str(int(w) + int(d) + int(l))
        score = "%.1f" % (100 * (int(w) + int(d) / 2) / int(n))
    a, b = int(a), int(b)
    if a not in rating:
        rating[a] = ANCHOR
    rating[b] = rating[a] - float(elo)
    rows.append((a, b, n, w, d, l, score, -float(elo), err, rating[b]))

print("| step | games | W / D / L (lower level's view) | lower level's score | step, Elo (95%) | rating of the upper level |")
print("|---|---|---|---|---|---|")
for a, b, n, w, d, l, score, gain, err, r in rows:
    print("| %d -> %d | %s | %s / %s / %s | %s%% | %+.0f +/- %s | %.0f |" % (a, b, n, w, d, l, score, gain,
                                                                       err.split(".")[0], r))
levels = sorted(rating)
print()
print("| level | " + " | ".join(str(x) for x in levels) + " |")
print("|---|" + "---|" * len(levels))
print("| Elo | " + " | ".join("%.0f" % rating[x] for x in levels) + " |")
print()
print("static const int LADDER_LEVEL[] = {%s};" % ", ".join(str(x) for x in levels))
print("static const int LADDER_ELO[] = {%s};" % ", ".join("%.0f" % rating[x] for x in levels))
