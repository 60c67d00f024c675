/* One game of a match: the opening, then the engines' moves through the
 * referee, the clock, the time forfeits, crashes and stalls, and the
 * adjudication by the engines' scores. */
#include <stdlib.h>
#include <string.h>

#include "engine/util/error.h"
#include "match_private.h"

static Termination termination_of(RefereeEnd end)
{
    return end == END_CHECKMATE         ? TERM_CHECKMATE
           : end == END_STALEMATE       ? TERM_STALEMATE
           : end == END_REPETITION_LOSS ? TERM_PERPETUAL
           : end == END_SIXTY           ? TERM_SIXTY
           : end == END_TOO_LONG        ? TERM_TOO_LONG
                                        : TERM_REPETITION;
}

static void score_comment(const MeReply *r, char *out, size_t len)
{
    char sc[32] = "";
    if (r->has_score) {
        if (r->mate)
            snprintf(sc, sizeof sc, "%sM%d/%d ", r->mate > 0 ? "+" : "-", abs(r->mate), r->depth);
        else
            snprintf(sc, sizeof sc, "%+.2f/%d ", r->score / 100.0, r->depth);
    }
    snprintf(out, len, "%s%.3fs", sc, (double)r->elapsed_ms / 1000.0);
}

static bool ensure_engine(Worker *w, int e, char *why, size_t len)
{
    if (!w->eng[e]) {
        w->eng[e] = me_new(&w->m->cfg->engines[e]);
        if (!w->eng[e])
            return err_set(why, len, "out of memory");
    }
    if (!me_running(w->eng[e]) && !me_start(w->eng[e], why, len))
        return false;
    return me_new_game(w->eng[e], why, len);
}

/* Play game g; fills rec. */
void match_play_game(Worker *w, long g, GameRecord *rec)
{
    Match *m = w->m;
    const MatchConfig *cfg = m->cfg;
    int pair = (int)((g / 2) % m->npairs);
    int a = m->pairs[pair][0], b = m->pairs[pair][1];
    bool swap = g % 2;
    int side_engine[2] = {swap ? b : a, swap ? a : b};
    rec->index = g;
    rec->red = side_engine[RED];
    rec->black = side_engine[BLACK];
    rec->result = GAME_ONGOING;
    rec->reason[0] = 0;
    for (int c = 0; c < 2; c++) {
        rec->timed_moves[c] = rec->late_moves[c] = 0;
        rec->late_worst_ms[c] = rec->low_ms[c] = 0;
        rec->clocked[c] = false;
    }
    match_text_clear(&rec->pgn);

    static const int OPENING_MAX = 512;
    Move obuf[512];
    Opening op;
    match_game_opening(m, g, &op, obuf, OPENING_MAX);
    char why[320];
    referee_reset(w->ref, op.fen[0] ? op.fen : NULL, why, sizeof why);
    match_text_clear(&w->moves);
    Text mv = {0}; /* PGN move text */
    char start_fen[FEN_MAX];
    pos_fen(referee_position(w->ref), start_fen);
    int start_side = referee_position(w->ref)->side;
    int start_move = referee_position(w->ref)->fen_ply / 2 + 1;

    GameResult result = GAME_ONGOING;
    Termination term = TERM_CHECKMATE;
    int ply = 0; /* moves played in this game, opening included */

#define MOVE_NUMBER_PREFIX(side, first)                                                                       \
    do {                                                                                                      \
        int num_ = start_move + (ply + (start_side == BLACK)) / 2;                                          \
        if ((side) == RED)                                                                                    \
            match_text_add(&mv, "%s%d. ", mv.len ? " " : "", num_);                                                 \
        else if (first)                                                                                       \
            match_text_add(&mv, "%s%d... ", mv.len ? " " : "", num_);                                               \
        else                                                                                                  \
            match_text_add(&mv, " ");                                                                               \
    } while (0)

    /* the opening moves */
    for (int i = 0; i < op.nmoves && result == GAME_ONGOING; i++) {
        const Position *pos = referee_position(w->ref);
        char nt[NOTATION_MAX], uci[8];
        notation_write(pos, op.moves[i], cfg->notation, nt);
        move_str(op.moves[i], uci, false);
        int side = pos->side;
        MOVE_NUMBER_PREFIX(side, i == 0);
        match_text_add(&mv, "%s", nt);
        match_text_add(&w->moves, "%s%s", w->moves.len ? " " : "", uci);
        bool illegal;
        result = referee_play(w->ref, op.moves[i], &illegal, rec->reason, sizeof rec->reason);
        ply++;
        if (i == op.nmoves - 1)
            match_text_add(&mv, " {opening}");
    }
    if (result != GAME_ONGOING) {
        term = termination_of(referee_end(w->ref));
    }

    /* both engines ready for a new game */
    for (int c = 0; c < 2 && result == GAME_ONGOING; c++) {
        char e_why[300];
        if (!ensure_engine(w, side_engine[c], e_why, sizeof e_why)) {
            result = c == RED ? GAME_BLACK_WINS : GAME_RED_WINS;
            term = TERM_CRASH;
            snprintf(rec->reason, sizeof rec->reason, "%s could not start a game: %s",
                     cfg->engines[side_engine[c]].name, e_why);
        }
    }

    int64_t time_left[2], inc[2];
    int side_moves[2] = {0, 0};
    int resign_run[2] = {0, 0}, draw_run[2] = {0, 0};
    int last_score[2] = {0, 0};
    bool have_score[2] = {false, false};
    for (int c = 0; c < 2; c++) {
        const MatchLimits *l = &cfg->engines[side_engine[c]].limits;
        time_left[c] = l->clock ? l->base_ms : 0;
        inc[c] = l->clock ? l->inc_ms : 0;
        if (l->clock && l->base_ms == 0)
            time_left[c] = l->inc_ms; /* increment-only: the first move gets one increment */
        rec->clocked[c] = l->clock;
        rec->low_ms[c] = time_left[c];
    }
    bool first_engine_move = true;
    while (result == GAME_ONGOING) {
        const Position *pos = referee_position(w->ref);
        int stm = pos->side, e = side_engine[stm];
        const EngineSpec *spec = &cfg->engines[e];
        const MatchLimits *l = &spec->limits;
        MeClock clock = {.side = stm};
        for (int c = 0; c < 2; c++) {
            clock.time_ms[c] = time_left[c];
            clock.inc_ms[c] = inc[c];
        }
        if (l->clock && l->moves)
            clock.movestogo = l->moves - side_moves[stm] % l->moves;
        MeReply reply;
        MeStatus st = me_go(w->eng[e], op.fen[0] ? op.fen : NULL, w->moves.s ? w->moves.s : "", &clock, &reply);
        int winner = stm == RED ? BLACK : RED;
        GameResult lose = winner == RED ? GAME_RED_WINS : GAME_BLACK_WINS;
        const char *who = stm == RED ? "red" : "black";
        if (st == ME_DEAD) {
            result = lose;
            term = TERM_CRASH;
            snprintf(rec->reason, sizeof rec->reason, "%s (%s) disconnects: %s", who, spec->name,
                     me_exit_text(w->eng[e]));
            break;
        }
        bool timed = l->clock || l->movetime_ms;
        if (st == ME_TIMEOUT) {
            result = lose;
            term = timed ? TERM_TIME : TERM_STALL;
            if (timed)
                snprintf(rec->reason, sizeof rec->reason, "%s (%s) loses on time", who, spec->name);
            else
                snprintf(rec->reason, sizeof rec->reason, "%s (%s) gave no move within %lld ms", who, spec->name,
                         (long long)l->timeout_ms);
            break;
        }
        if (timed) {
            int64_t over = reply.elapsed_ms - (l->clock ? time_left[stm] : l->movetime_ms);
            rec->timed_moves[stm]++;
            if (over > 0 && over <= l->margin_ms) {
                rec->late_moves[stm]++;
                if (over > rec->late_worst_ms[stm])
                    rec->late_worst_ms[stm] = over;
            }
            if (l->clock && -over < rec->low_ms[stm])
                rec->low_ms[stm] = -over;
        }
        if (l->clock) {
            if (reply.elapsed_ms > time_left[stm] + l->margin_ms) {
                result = lose;
                term = TERM_TIME;
                snprintf(rec->reason, sizeof rec->reason, "%s (%s) loses on time (%lld ms used, %lld left)", who,
                         spec->name, (long long)reply.elapsed_ms, (long long)time_left[stm]);
                break;
            }
            time_left[stm] -= reply.elapsed_ms;
            if (time_left[stm] < 0)
                time_left[stm] = 0;
            time_left[stm] += inc[stm];
            side_moves[stm]++;
            if (l->moves && side_moves[stm] % l->moves == 0)
                time_left[stm] += l->base_ms;
        } else if (l->movetime_ms && reply.elapsed_ms > l->movetime_ms + l->margin_ms) {
            result = lose;
            term = TERM_TIME;
            snprintf(rec->reason, sizeof rec->reason, "%s (%s) loses on time (%lld ms for a %lld ms move)", who,
                     spec->name, (long long)reply.elapsed_ms, (long long)l->movetime_ms);
            break;
        }
        if (reply.nobestmove || !reply.move[0] || !strcmp(reply.move, "(none)") || !strcmp(reply.move, "0000")) {
            result = lose;
            term = TERM_NO_MOVE;
            snprintf(rec->reason, sizeof rec->reason, "%s (%s) gives no move in a position with legal moves", who,
                     spec->name);
            break;
        }
        Move move = referee_parse(w->ref, reply.move);
        if (move == MOVE_NONE) {
            char shown[20];
            match_comment_text(shown, sizeof shown, reply.move);
            result = lose;
            term = TERM_ILLEGAL;
            snprintf(rec->reason, sizeof rec->reason, "%s (%s) plays an illegal move: %s", who, spec->name, shown);
            break;
        }
        char nt[NOTATION_MAX], cm[64];
        notation_write(pos, move, cfg->notation, nt);
        score_comment(&reply, cm, sizeof cm);
        MOVE_NUMBER_PREFIX(stm, first_engine_move && op.nmoves == 0);
        first_engine_move = false;
        match_text_add(&mv, "%s {%s}", nt, cm);
        match_text_add(&w->moves, "%s%s", w->moves.len ? " " : "", reply.move);
        bool illegal;
        result = referee_play(w->ref, move, &illegal, rec->reason, sizeof rec->reason);
        ply++;
        if (result != GAME_ONGOING) {
            term = termination_of(referee_end(w->ref));
            break;
        }
        /* adjudication by the engines' scores */
        have_score[stm] = reply.has_score;
        last_score[stm] = reply.score;
        if (cfg->resign_movecount) {
            bool down = reply.has_score && reply.score <= -cfg->resign_score;
            resign_run[stm] = down ? resign_run[stm] + 1 : 0;
            bool agreed = !cfg->resign_twosided
                       || (have_score[!stm] && last_score[!stm] >= cfg->resign_score && resign_run[!stm] == 0);
            if (resign_run[stm] >= cfg->resign_movecount && agreed) {
                result = lose;
                term = TERM_RESIGN;
                snprintf(rec->reason, sizeof rec->reason, "%s (%s) resigns: score %d for %d moves (adjudication)",
                         who, spec->name, reply.score, resign_run[stm]);
                break;
            }
        }
        if (cfg->draw_movecount) {
            bool level = reply.has_score && abs(reply.score) <= cfg->draw_score;
            draw_run[stm] = level ? draw_run[stm] + 1 : 0;
            int number = start_move + (ply + (start_side == BLACK)) / 2;
            if (number >= cfg->draw_movenumber && draw_run[RED] >= cfg->draw_movecount
                && draw_run[BLACK] >= cfg->draw_movecount) {
                result = GAME_DRAW;
                term = TERM_DRAW_ADJ;
                snprintf(rec->reason, sizeof rec->reason, "draw by adjudication: scores within %d for %d moves",
                         cfg->draw_score, cfg->draw_movecount);
                break;
            }
        }
        if (cfg->maxmoves && referee_plies(w->ref) >= 2 * cfg->maxmoves) {
            result = GAME_DRAW;
            term = TERM_MAXMOVES;
            snprintf(rec->reason, sizeof rec->reason, "draw by the move limit (%d moves)", cfg->maxmoves);
            break;
        }
    }
#undef MOVE_NUMBER_PREFIX
    rec->result = result;
    rec->term = term;

    match_game_pgn(m, rec, op.fen[0] ? start_fen : NULL, referee_plies(w->ref), mv.s ? mv.s : "");
    free(mv.s);
}

