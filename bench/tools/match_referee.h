/* The referee of a game: it keeps the position and the moves, checks every
 * move for legality and rules on the end of the game after each one with
 * the repetition rules of engine/rules/rules.h (rules_judge_at): no legal move
 * loses (checkmate and stalemate), perpetual check and chase lose by the
 * chosen rule set once the position has occurred min_repeats times, other
 * repetitions draw, the 60-move rule draws; a game longer than a Position
 * can hold is drawn. */
#ifndef CHUHAN_MATCH_REFEREE_H
#define CHUHAN_MATCH_REFEREE_H

#include "engine/board/position.h"

typedef enum { GAME_ONGOING, GAME_RED_WINS, GAME_BLACK_WINS, GAME_DRAW } GameResult;

/* How a game the referee ended, ended. */
typedef enum {
    END_NONE,
    END_CHECKMATE,
    END_STALEMATE,       /* no legal move, not in check: a loss too */
    END_REPETITION_LOSS, /* perpetual check, chase, ... */
    END_REPETITION_DRAW,
    END_SIXTY,
    END_TOO_LONG,
} RefereeEnd;

typedef struct Referee Referee;

/* rule: RULE_CXA, RULE_AXF or RULE_DRAW; sixty_plies: plies without a
 * capture that draw (0: never); min_repeats: 3 for a referee (the third
 * occurrence), 2 to rule like `chuhan judge`. */
Referee *referee_new(int rule, int sixty_plies, int min_repeats);
void referee_free(Referee *r);

/* Start a game from fen (NULL or "startpos": the start position).  False
 * with the reason if the FEN is not a legal position. */
bool referee_reset(Referee *r, const char *fen, char *err, size_t errlen);

/* The legal move that UCI text (ranks 0-9) names here, or MOVE_NONE. */
Move referee_parse(const Referee *r, const char *text);

/* Play a legal move and rule: GAME_ONGOING, or the result with a one-line
 * reason (e.g. "black is checkmated", "red perpetual check").  A move that
 * is not legal is refused: returns GAME_ONGOING with nothing played and
 * *illegal set (illegal may be NULL). */
GameResult referee_play(Referee *r, Move m, bool *illegal, char *reason, size_t reason_len);

/* How the game ended (END_NONE while it goes on). */
RefereeEnd referee_end(const Referee *r);

const Position *referee_position(const Referee *r);
int referee_plies(const Referee *r);          /* moves played since the start */
Move referee_move(const Referee *r, int i);   /* the i-th of them */

#endif
