/* The referee (see match_referee.h). */
#include "match_referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/rules/rules.h"

struct Referee {
    int rule, sixty, repeats;
    Position pos;
    int start_top;
    RefereeEnd end;
};

Referee *referee_new(int rule, int sixty_plies, int min_repeats)
{
    Referee *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->rule = rule;
    r->sixty = sixty_plies;
    r->repeats = min_repeats < 2 ? 2 : min_repeats;
    char err[64];
    pos_set_fen(&r->pos, START_FEN, err, sizeof err);
    return r;
}

void referee_free(Referee *r) { free(r); }

bool referee_reset(Referee *r, const char *fen, char *err, size_t errlen)
{
    if (!fen || !*fen || !strcmp(fen, "startpos"))
        fen = START_FEN;
    if (!pos_set_fen(&r->pos, fen, err, errlen))
        return false;
    r->start_top = r->pos.top;
    r->end = END_NONE;
    return true;
}

Move referee_parse(const Referee *r, const char *text) { return parse_move(&r->pos, text, false); }

static bool is_legal(const Position *pos, Move m)
{
    Move list[MAX_MOVES];
    int n = gen_legal(pos, list);
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return true;
    return false;
}

GameResult referee_play(Referee *r, Move m, bool *illegal, char *reason, size_t reason_len)
{
    if (illegal)
        *illegal = false;
    if (reason && reason_len)
        reason[0] = 0;
    if (m == MOVE_NONE || m == MOVE_NULL || !is_legal(&r->pos, m)) {
        if (illegal)
            *illegal = true;
        return GAME_ONGOING;
    }
    pos_do_move(&r->pos, m);
    char why[320] = "";
    Verdict v = rules_judge_at(&r->pos, r->rule, r->sixty, r->repeats, why, sizeof why);
    int stm = r->pos.side;
    GameResult res = GAME_ONGOING;
    if (v == VERDICT_DRAW)
        res = GAME_DRAW;
    else if (v == VERDICT_WIN)
        res = stm == RED ? GAME_RED_WINS : GAME_BLACK_WINS;
    else if (v == VERDICT_LOSS)
        res = stm == RED ? GAME_BLACK_WINS : GAME_RED_WINS;
    else if (pos_room(&r->pos) < 2) {
        res = GAME_DRAW;
        snprintf(why, sizeof why, "game too long (%d plies)", referee_plies(r));
    }
    if (res != GAME_ONGOING) {
        if (count_legal(&r->pos) == 0)
            r->end = pos_in_check(&r->pos) ? END_CHECKMATE : END_STALEMATE;
        else if (pos_room(&r->pos) < 2 && v == VERDICT_NONE)
            r->end = END_TOO_LONG;
        else if (res != GAME_DRAW)
            r->end = END_REPETITION_LOSS;
        else if (r->sixty > 0 && pos_state(&r->pos)->rule60 >= r->sixty)
            r->end = END_SIXTY;
        else
            r->end = END_REPETITION_DRAW;
    }
    if (res != GAME_ONGOING && reason && reason_len)
        snprintf(reason, reason_len, "%s", why);
    return res;
}

RefereeEnd referee_end(const Referee *r) { return r->end; }

const Position *referee_position(const Referee *r) { return &r->pos; }

int referee_plies(const Referee *r) { return r->pos.top - r->start_top; }

Move referee_move(const Referee *r, int i) { return r->pos.st[r->start_top + 1 + i].move; }
