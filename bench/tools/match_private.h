/* Private to the match runner: what its files share.  match.c runs the
 * match (workers, results, summary); match_args.c reads the arguments;
 * match_openings.c the openings; match_game.c plays one game; match_pgn.c
 * writes its record; match_resume.c goes on from a PGN cut short. */
#ifndef CHUHAN_MATCH_PRIVATE_H
#define CHUHAN_MATCH_PRIVATE_H

#include <pthread.h>

#include "book/book.h"
#include "match.h"

/* A growing text buffer; out of memory makes it stop growing (oom). */
typedef struct {
    char *s;
    size_t len, cap;
    bool oom;
} Text;

void match_text_add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void match_text_clear(Text *t);

typedef struct {
    char fen[FEN_MAX]; /* "" for the start position */
    int nmoves;
    Move *moves;
} Opening;

typedef struct {
    long index;      /* game number from 0 */
    int red, black;  /* engine indices */
    GameResult result;
    Termination term;
    char reason[384];
    /* the clock, by colour (see MatchResult) */
    long timed_moves[2], late_moves[2];
    int64_t late_worst_ms[2];
    bool clocked[2];
    int64_t low_ms[2]; /* lowest time left after a move, when clocked */
    Text pgn;
} GameRecord;

typedef struct MatchRanks MatchRanks;

typedef struct Match {
    const MatchConfig *cfg;
    MatchRanks *ranks; /* NULL: one process plays the whole match */
    Opening *openings;
    int nopenings;
    int *order; /* opening order (a permutation with --openings-random) */
    Book *book;
    int npairs;
    int pairs[MATCH_MAX_ENGINES * (MATCH_MAX_ENGINES - 1) / 2][2];
    long total;
    char date[16];
    char tc_text[MATCH_MAX_ENGINES][96];

    pthread_mutex_t lock; /* guards everything below */
    long next;
    bool stop;
    MatchResult *res;
    unsigned char *pair_slots; /* by game pair, for match_pair_game */
    FILE *pgn;
    char **pending; /* finished PGN records not yet written, by game index */
    long next_write;
    int pgn_error; /* why the PGN could not be written (an errno value, the first), 0 while it can */
    int64_t t0;
    int64_t *lows[MATCH_MAX_ENGINES]; /* each clocked game's lowest time left, by engine */
    long nlows[MATCH_MAX_ENGINES], caplows[MATCH_MAX_ENGINES];
} Match;

typedef struct {
    Match *m;
    int index; /* among this process's workers */
    MatchEngine *eng[MATCH_MAX_ENGINES]; /* this worker's own processes, started when first needed */
    Referee *ref;
    Text moves; /* UCI moves so far, for the position command */
    pthread_t thread;
    bool started;
} Worker;

/* The usage on standard error; 2. */
int match_usage(void);

/* The next game to play here: -1 when none is left or the match stopped
 * (match.c, under m->lock). */
long match_take_game(Match *m);
bool match_stopped(Match *m);
/* Count a finished game: the results, the SPRT, the line and the PGN. */
void match_record_game(Match *m, GameRecord *rec);
/* Its result alone: the totals, the pair and the SPRT (a resumed game). */
void match_count_game(Match *m, long g, int red, int black, GameResult result);
/* --resume (match_resume.c): the games of the PGN file counted, the file
 * cut back to its whole games and opened in m->pgn to append, and play set
 * to go on after them; false with the reason when the file is not the
 * start of this match.  A missing file is a new match. */
bool match_resume(Match *m, char *err, size_t errlen);

/* ---- over the ranks of an MPI job (match_ranks.c) ----
 * Every rank runs the same match; rank 0 hands out the games one at a
 * time as each rank's workers ask, records every result (the totals, the
 * SPRT and the PGN are its own), and tells them when there is no game
 * left.  A rank not heard from for MATCH_RANK_SILENT_MS is given up and
 * its unfinished games are played again by the others.  In a job of one
 * none of this is used (m->ranks NULL). */
#define MATCH_RANK_SILENT_MS 15000
/* Join: false with the reason when out of memory. */
bool match_ranks_begin(Match *m, int nworkers, char *err, size_t errlen);
/* The next game for worker w, waiting while others may still give one
 * back: -1 when none is left. */
long match_ranks_next(Match *m, Worker *w);
/* A game worker played: recorded (rank 0) or sent to rank 0. */
void match_ranks_finished(Match *m, GameRecord *rec);
/* This rank has played its share (failure: why it could not, or NULL);
 * rank 0 stops the others when it failed, and waits until every rank has
 * finished or was given up. */
void match_ranks_end(Match *m, const char *failure);

bool match_load_openings(const char *path, Opening **out, int *count, char *err, size_t errlen);
/* The opening of game g: from the file, then plies of the book (a
 * generator of its own per opening); its moves in buf. */
void match_game_opening(const Match *m, long g, Opening *o, Move *buf, int bufmax);

/* Play game g; fills rec, its PGN record included. */
void match_play_game(Worker *w, long g, GameRecord *rec);

/* "1-0", "0-1", "1/2-1/2" or "*", into out (8 bytes). */
void match_result_text(GameResult r, char *out);
/* A PGN comment's text: braces made parentheses. */
void match_comment_text(char *out, size_t len, const char *s);
/* The record of a finished game (rec's result, termination and reason)
 * into rec->pgn: tags (FEN when start_fen is not NULL), then the move text
 * wrapped at 80 columns. */
void match_game_pgn(const Match *m, GameRecord *rec, const char *start_fen, int nplies, const char *moves);

#endif
