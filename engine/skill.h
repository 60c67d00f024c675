/* Playing below full strength (the Skill Level, UCI_LimitStrength and
 * UCI_Elo options): a weaker level searches less (a cap on nodes and
 * depth), looks at a few best moves at once (MultiPV), and then picks
 * among those within a margin of the best, the closer ones more often, as
 * a weaker player who sees the good move but not always why it is best.
 * It never picks an illegal move or one that repeats into a forbidden
 * cycle, and always takes a mate in one.
 *
 * A level is a number from 0 to SKILL_MAX (full strength: nothing changes),
 * fractional in between for UCI_Elo, which maps onto the levels by the
 * ladder of matches measured between them (README.md, Strength levels;
 * how a level plays: engine/README.md, Strength levels). */
#ifndef CHUHAN_ENGINE_SKILL_H
#define CHUHAN_ENGINE_SKILL_H

#include "engine/board/position.h"
#include "search/search.h"

#define SKILL_MAX 20
#define SKILL_PV 4 /* the lines a weaker level looks at */

/* The range of UCI_Elo: the ratings of level 0 and of full strength on the
 * ladder's scale. */
#define SKILL_ELO_MIN 1000
#define SKILL_ELO_MAX 2595

/* The best lines of the last completed depth, as the search reported them. */
typedef struct {
    Move move[SKILL_PV], ponder[SKILL_PV];
    int score[SKILL_PV], depth[SKILL_PV];
} SkillLines;

/* Full strength at this level? */
static inline bool skill_full(double level) { return level >= SKILL_MAX; }

/* What the level does to a search: its caps on nodes and depth applied to
 * limits, and the lines it needs into *multipv (never fewer than asked). */
void skill_limits(double level, SearchLimits *limits, int *multipv);

/* Forget the lines: a new search. */
void skill_clear(SkillLines *lines);
/* Keep a line the search reported (only exact lines count). */
void skill_note(SkillLines *lines, const SearchInfo *info);

/* The move the level plays in pos (left as found) among the lines, the
 * search's own choice best when none will do; *ponder the reply expected.
 * rule: the repetition rules the game is played by. */
Move skill_pick(double level, Position *pos, const SkillLines *lines, Move best, Move *ponder, int rule,
                uint64_t *rng);

/* The level that plays at elo (within [SKILL_ELO_MIN, SKILL_ELO_MAX]) on
 * the ladder's scale, and the rating of a level. */
double skill_from_elo(int elo);
int skill_elo(double level);

/* The margin (centipawns) a level's pick may lose against the best line,
 * and its node cap. */
int skill_margin(double level);
uint64_t skill_nodes(double level);

#endif
