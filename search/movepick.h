/* Staged move picker: the TT move first, then good captures by MVV-LVA
 * (with SEE to push losing ones to the end), killers, the counter-move,
 * quiet moves by history, and the bad captures; check evasions and the
 * quiescence captures have stages of their own.  Yields pseudo-legal moves;
 * the search checks legality. */
#ifndef CHUHAN_MOVEPICK_H
#define CHUHAN_MOVEPICK_H

#include "search_private.h"

typedef struct {
    const Position *pos;
    const SearchThread *th;
    Move tt_move, killers[2], counter;
    const ContHist *cont[2]; /* after the previous move and the one before (NULL in quiescence) */
    int stage;
    int cur, end, bad_end;
    int sorted_end; /* quiet moves: the front sorted as it is used ends here */
    bool qs_checks;
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES];
    Move bad[MAX_MOVES];
} MovePicker;

/* Main search: all moves (evasions when in check). */
void mp_init(MovePicker *mp, const SearchThread *th, Move tt_move, const Move killers[2], Move counter,
             ContHist *const cont[2]);
/* Quiescence: captures, then the quiet checks if checks (evasions when in
 * check).  The TT move comes first if it is a capture, or, where checks
 * are tried, whatever it is: a quiet TT move there is the move that
 * answered this position in a real search (the variant measured; limiting
 * it to checks cost 6% more bench nodes and found the same mates). */
void mp_init_qs(MovePicker *mp, const SearchThread *th, Move tt_move, bool checks);
/* Next move, MOVE_NONE at the end; skip_quiets drops the remaining quiet
 * moves (late-move pruning). */
Move mp_next(MovePicker *mp, bool skip_quiets);

#endif
