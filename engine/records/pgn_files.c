/* Every record of a list of PGN files, replayed (pgn_files.h). */
#include "pgn_files.h"

void pgn_files_start(PgnFiles *it, char **paths, int npaths, PgnEncoding enc, Position *pos, Move *moves, int max,
                     char *err, size_t errlen)
{
    *it = (PgnFiles){.paths = paths, .npaths = npaths, .enc = enc, .pos = pos, .moves = moves, .max = max,
                     .err = err, .errlen = errlen};
}

PgnFilesEvent pgn_files_next(PgnFiles *it)
{
    for (;;) {
        if (!it->reader) {
            if (it->next >= it->npaths)
                return PGN_FILES_END;
            it->path = it->paths[it->next++];
            it->game = NULL;
            it->reader = pgn_open_file(it->path, it->enc, it->err, it->errlen);
            if (!it->reader)
                return PGN_FILES_OPEN_FAILED;
        }
        int k = pgn_next(it->reader, &it->game, it->err, it->errlen);
        if (k > 0) {
            it->records++;
            it->error = pgn_replay(it->game, it->pos, it->moves, it->max, &it->nmoves, it->err, it->errlen);
            return it->error == PGN_OK ? PGN_FILES_RECORD : PGN_FILES_REJECTED;
        }
        pgn_close(it->reader);
        it->reader = NULL;
        it->game = NULL;
        if (k < 0)
            return PGN_FILES_READ_FAILED;
    }
}
