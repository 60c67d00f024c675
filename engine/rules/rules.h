/* The repetition rules ("棋例"): classify the moves of a repetition cycle as
 * check, mate threat, chase or idle, and rule on the cycle (perpetual check
 * and perpetual chase lose, allowed repetitions draw); the game end by
 * mate, stalemate and the 60-move rule.
 *
 * Everything here works on the caller's Position by make/unmake and leaves
 * it exactly as found; nothing allocates, nothing prints. */
#ifndef CHUHAN_RULES_H
#define CHUHAN_RULES_H

#include "engine/board/position.h"

/* Rule sets.  RULE_CXA: Chinese Xiangqi Association (2011), the default.
 * RULE_AXF: Asian / World Xiangqi Federation, which differs in three points:
 * a mate threat is an idle move; a perpetual chase needs every move of the
 * side, checks included, to chase a common piece (under CXA a check stands
 * in for any chase, 一將一捉); and a piece with a protector that can legally
 * take back is protected, however many attack it (CXA plays the exchange
 * out, so a piece with fewer protectors than attackers can be chased).
 * RULE_DRAW: every repetition is a draw. */
enum { RULE_CXA, RULE_AXF, RULE_DRAW, RULE_NB };

/* Free states of the position's stack that a ruling may push (with fewer,
 * a cycle is ruled a draw and a move idle). */
#define RULES_STACK_NEED 48

/* A result for the side to move. */
typedef enum { VERDICT_NONE, VERDICT_DRAW, VERDICT_WIN, VERDICT_LOSS } Verdict;

/* How one move counts, for the side that made it; the heaviest effect wins. */
typedef enum { RULES_IDLE, RULES_CHASE, RULES_THREAT, RULES_CHECK } RulesMoveKind;

/* What one side did over a cycle. */
typedef enum {
    RULES_ALLOWED,         /* at least one idle move (or no moves at all) */
    RULES_PERPETUAL_CHECK, /* every move a check */
    RULES_FORBIDDEN,       /* every move a check, a mate threat or a chase of a common piece */
} RulesSideKind;

typedef struct {
    Verdict verdict;              /* for the side to move */
    int plies;                    /* length of the cycle */
    RulesSideKind kind[COLOR_NB]; /* per colour */
    int checks[COLOR_NB];         /* checking moves of each colour in the cycle */
    int threats[COLOR_NB];        /* mate threats (CXA) */
    int chases[COLOR_NB];         /* chasing moves */
    Bitboard chased[COLOR_NB];    /* for RULES_FORBIDDEN: the pieces colour c chased on every
                                     chasing move, as squares of the final position */
} RulesCycle;

const char *rules_name(int rule);  /* "cxa", "axf", "draw" */
int rules_parse(const char *name); /* cxa, chinese, axf, wxf, asian, draw; -1 if unknown */

/* pos's current key equals the key of state index prev (prev < pos->top,
 * same side to move, no capture and no null move in between).  Judge the
 * cycle of moves pos->st[prev+1 .. pos->top].move and return the verdict for
 * the side to move now (never VERDICT_NONE).  Makes and unmakes moves on pos
 * but leaves it exactly as found.  Called by the search at every repetition. */
Verdict rules_cycle_verdict(Position *pos, int prev, int rule);

/* The same, with the classification of both sides written to *out (every
 * field filled; slower than rules_cycle_verdict, which stops early). */
Verdict rules_cycle_judge(Position *pos, int prev, int rule, RulesCycle *out);

/* Classify the last move played in pos (pos->st[pos->top].move, top >= 1) for
 * the side that played it: check, mate threat (RULE_CXA only), chase or idle,
 * the heaviest that applies.  *chased (may be NULL) receives the enemy pieces
 * it newly chases (squares now), also when the move is a check (judged then
 * by sight, the opponent's replies being forced) or a threat.  A referee can
 * classify each move as it is played and keep the results. */
RulesMoveKind rules_classify_last(Position *pos, int rule, Bitboard *chased);

/* Game adjudication of the whole history in pos (all moves since the FEN):
 * no legal move = loss for the side to move (checkmate or stalemate); a
 * repetition, once a position has occurred min_repeats times since the last
 * capture (2 = the first recurrence, 3 = a referee's third occurrence),
 * judged by rules_cycle_judge over all the moves since that position's first
 * occurrence: the latest such repetition rules if it ends the history, an
 * earlier one only if someone had to vary (an allowed repetition does not
 * end the game); the 60-move rule (rule60 >= sixty_move_limit plies, 0
 * disables) = draw.  A referee calling it after every move with
 * min_repeats 3 stops at the first verdict.  Writes a one-line reason
 * (reason may be NULL).  VERDICT_NONE when the game goes on. */
Verdict rules_judge_at(Position *pos, int rule, int sixty_move_limit, int min_repeats, char *reason,
                       size_t reason_len);

/* Set pos from fen (or "startpos"), play the moves (UCI text, ranks 0-9) and
 * judge with rules_judge_at.  Returns 0 and sets *verdict and reason, or -1
 * with a one-line message in err: a bad FEN, or the first move that is
 * malformed or illegal (which one and why).  This is `chuhan judge`
 * (judge.c; its command line is engine/cli/judge_cli.c). */
int rules_judge_game(Position *pos, const char *fen, char *const *moves, int nmoves, int rule,
                     int sixty_move_limit, int min_repeats, Verdict *verdict, char *reason,
                     size_t reason_len, char *err, size_t err_len);

/* "win", "loss", "draw" or "none". */
const char *rules_verdict_name(Verdict v);

#endif
