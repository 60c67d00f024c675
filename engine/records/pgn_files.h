/* Every record of a list of PGN files, replayed: the loop that the
 * commands reading game records share (chuhan pgn, chuhan analyze).  Each
 * file is opened in turn ("-" is standard input) and closed when it ends;
 * what happens comes back as an event, and the caller says it in its own
 * words.
 *
 *   PgnFiles it;
 *   pgn_files_start(&it, paths, n, PGN_ENC_AUTO, pos, moves, MAX_GAME_PLY, err, sizeof err);
 *   for (PgnFilesEvent ev; (ev = pgn_files_next(&it)) != PGN_FILES_END;)
 *       ... it.path, it.game, it.nmoves, it.error, err ...
 *
 * Run it to PGN_FILES_END, which closes the last file. */
#ifndef CHUHAN_PGN_FILES_H
#define CHUHAN_PGN_FILES_H

#include <stddef.h>

#include "pgn.h"

typedef enum {
    PGN_FILES_END,         /* every file read */
    PGN_FILES_RECORD,      /* it.game replayed: pos after its it.nmoves moves, those in moves */
    PGN_FILES_REJECTED,    /* it.game does not replay: it.error, and err says why */
    PGN_FILES_OPEN_FAILED, /* it.path cannot be opened (err); the next file follows */
    PGN_FILES_READ_FAILED, /* it.path cannot be read on (err); the next file follows */
} PgnFilesEvent;

typedef struct {
    /* given to pgn_files_start */
    char **paths;
    int npaths;
    PgnEncoding enc;
    Position *pos;
    Move *moves;
    int max;
    char *err;
    size_t errlen;
    /* the event's */
    const char *path;      /* the file */
    const PgnGame *game;   /* the record (RECORD, REJECTED), valid until the next event */
    int nmoves;            /* the moves replayed */
    PgnReplayError error;  /* why it does not replay (REJECTED) */
    long records;          /* records read so far, this one included */
    /* where it is */
    int next;
    PgnReader *reader;
} PgnFiles;

/* Read the npaths files of paths in encoding enc, each record replayed into
 * pos (and its moves into moves, room for max; see pgn_replay); the reasons
 * go to err (errlen bytes). */
void pgn_files_start(PgnFiles *it, char **paths, int npaths, PgnEncoding enc, Position *pos, Move *moves, int max,
                     char *err, size_t errlen);
/* The next event. */
PgnFilesEvent pgn_files_next(PgnFiles *it);

#endif
