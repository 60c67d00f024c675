/* Engine-vs-engine matches (`chuhan match`): two or more engines (UCI or
 * UCCI processes) play each other round-robin, under a clock, a fixed move
 * time, a depth or a node count, from openings of a FEN/EPD file or of the
 * opening book, each opening with both colours, several games at once.  A
 * referee (match_referee.h) rules every move by the xiangqi rules; resign
 * and draw adjudication by the engines' scores are optional; a time
 * forfeit, an illegal move, a crash or a stall loses that game and the
 * engine is restarted for the next.  Results go to a PGN file, a line per
 * game, and a summary with Elo, LOS and an SPRT verdict. */
#ifndef CHUHAN_MATCH_H
#define CHUHAN_MATCH_H

#include <stdio.h>

#include "engine/records/notation.h"
#include "engine/util/args.h"
#include "match_engine.h"
#include "match_referee.h"
#include "match_stats.h"

#define MATCH_MAX_ENGINES 16

typedef enum {
    TERM_CHECKMATE,
    TERM_STALEMATE,
    TERM_PERPETUAL,   /* a side lost by breaking a repetition rule */
    TERM_REPETITION,  /* an allowed (or mutual) repetition: draw */
    TERM_SIXTY,       /* 60-move rule */
    TERM_TOO_LONG,    /* no room left for moves */
    TERM_RESIGN,      /* resign adjudication by score */
    TERM_DRAW_ADJ,    /* draw adjudication by score */
    TERM_MAXMOVES,    /* draw by the move limit */
    TERM_TIME,        /* time forfeit */
    TERM_ILLEGAL,     /* illegal (or unreadable) move */
    TERM_NO_MOVE,     /* nobestmove, or a bestmove without a move */
    TERM_CRASH,       /* the engine exited or could not be (re)started */
    TERM_STALL,       /* no answer within the timeout */
    TERM_NB
} Termination;

const char *match_termination_name(Termination t);

typedef struct {
    EngineSpec engines[MATCH_MAX_ENGINES];
    int nengines;
    long games;          /* per pair of engines */
    int concurrency;     /* games at once (1) */
    char openings[1024]; /* FEN/EPD file, "" for none */
    bool openings_random;
    int book_plies;      /* openings drawn from the book, this many plies (0: none) */
    char book[1024];     /* book file, "" for the built-in one */
    int rule;            /* RULE_CXA (default), RULE_AXF, RULE_DRAW */
    int sixty_plies;     /* 120; 0: no 60-move rule */
    int repeats;         /* occurrences that make a repetition count: 3 */
    char pgn[1024];      /* PGN output, "" for none */
    bool resume;         /* go on from the games already in pgn (the same arguments) */
    NotationFormat notation; /* of the PGN moves: NOTATION_UCI (default) or a Chinese one, WXF, ICCS */
    uint64_t seed;
    bool sprt;
    SprtParams sprt_params;
    int resign_movecount, resign_score; /* 0: no resign adjudication */
    bool resign_twosided;
    int draw_movenumber, draw_movecount, draw_score; /* movecount 0: no draw adjudication */
    int maxmoves;        /* draw after this many moves each (0: no limit) */
    char event[128];
    FILE *out;           /* game lines and the summary (NULL: none) */
    bool quiet;          /* no line per game */
} MatchConfig;

typedef struct {
    long games;                                        /* finished */
    long resumed;                                      /* of them, read back from the PGN (--resume): their
                                                          endings and clocks are not in the counts below */
    long wdl[MATCH_MAX_ENGINES][MATCH_MAX_ENGINES][3]; /* wins, draws, losses of i against j */
    /* Game pairs (the two games of an opening, colours reversed), both
     * finished, of i against j by i's points over the pair, times 2 (see
     * PENTA_N); and the games of i against j whose other game of the pair
     * is not in (yet, or ever: the last game of an odd count, the games
     * after an SPRT verdict), which the pairs leave out. */
    long penta[MATCH_MAX_ENGINES][MATCH_MAX_ENGINES][PENTA_N];
    long unpaired[MATCH_MAX_ENGINES][MATCH_MAX_ENGINES];
    long terminations[TERM_NB];
    long red_wins, black_wins, draws;
    double llr;                                        /* first engine against the second, with --sprt:
                                                          from the pairs once there is one (match_elo_of) */
    SprtVerdict verdict;                               /* the first verdict reached, which stands */
    long verdict_games;                                /* games counted when it was reached */
    double verdict_llr;                                /* the LLR then */
    double seconds;
    /* The clock, per engine.  A move over the time left (or the move time)
     * by no more than the margin is not forfeited, but a GUI without a
     * margin would forfeit it: counted here. */
    long timed_moves[MATCH_MAX_ENGINES];      /* moves made on a clock or a move time */
    long late_moves[MATCH_MAX_ENGINES];       /* of them, over the time by at most the margin */
    int64_t late_worst_ms[MATCH_MAX_ENGINES]; /* the largest such overrun */
    long clock_games[MATCH_MAX_ENGINES];      /* games played on a clock, for the two below */
    /* The lowest time left in a game (after a move, before its increment):
     * the median and the 1st percentile over the games. */
    int64_t low_median_ms[MATCH_MAX_ENGINES], low_p01_ms[MATCH_MAX_ENGINES];
} MatchResult;

void match_config_default(MatchConfig *cfg);
/* The arguments after "match" (read by engine/util/args.h).  False with
 * the reason ("match: --games: 'x' is not a number from 1 to 100000000"),
 * or with err empty for --help. */
bool match_parse_args(int argc, char **argv, MatchConfig *cfg, char *err, size_t errlen);

/* The same in two steps, for a tool that takes a match's options among its
 * own (chuhan spsa): match_arg_options() fills opts with the options'
 * table, which reads into a and cfg (its defaults set); after args_read(),
 * match_args_finish() builds the engines from their --engine and --each
 * words (its reasons begin with "TOOL: "). */
#define MATCH_ARG_OPTIONS 20
#define MATCH_MAX_EACH 64
typedef struct {
    MatchConfig *cfg;
    const char *const *engine[MATCH_MAX_ENGINES]; /* each --engine's words */
    int nwords[MATCH_MAX_ENGINES], nengines;
    const char *each[MATCH_MAX_EACH];
    int neach;
    long games, concurrency, book_plies, sixty, repeats, maxmoves;
    const char *openings, *book, *pgn, *event;
    EngineSpec scratch; /* where an option's engine settings are checked */
} MatchArgs;
size_t match_arg_options(MatchArgs *a, MatchConfig *cfg, ArgOption *opts);
bool match_args_finish(MatchArgs *a, const char *tool, char *err, size_t errlen);
/* Play the match.  False with the reason when it cannot start (bad
 * openings, an engine that does not start, an unwritable PGN file). */
bool match_run(const MatchConfig *cfg, MatchResult *res, char *err, size_t errlen);
/* The estimate of engine i against j: from the game pairs when there is
 * one (the pentanomial model), else from the games (trinomial). */
void match_elo_of(const MatchResult *res, int i, int j, EloEstimate *out);
/* The LLR of engine 0 against engine 1 by the same choice. */
double match_llr_of(const MatchResult *res, const SprtParams *p);
/* The summary of a finished match, as `chuhan match` prints it. */
void match_print_summary(FILE *out, const MatchConfig *cfg, const MatchResult *res);

/* chuhan match ...: the arguments after "match"; the exit status. */
int match_cli(int argc, char **argv);

#endif
