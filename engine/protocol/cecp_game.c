/* The CECP game controller.  Unlike UCI, in xboard the engine keeps the
 * game: it plays the moves it announces ("move h2e2"), keeps XBoard's
 * clock, ponders on its own, and ends the game with a claim ("1-0 {...}")
 * only when the rules end it (no legal move, a repetition ruled at its
 * third occurrence, the 60-move rule), as the engine API says the rules in
 * force are.  Everything here runs on the game thread but the three
 * callbacks, which only record and post. */
#include <stdlib.h>
#include <string.h>

#include "cecp_private.h"
#include "engine/board/movegen.h"
#include "engine/rules/rules.h"
#include "engine/util/clock.h"
#include "engine/util/text.h"

/* ---- callbacks (search thread) ---- */

/* Mates as 100000 + moves, the XBoard convention; a rule win the same, at
 * its distance (search/score.h). */
static int xboard_score(int v)
{
    if (!score_is_decisive(v))
        return v;
    return v > 0 ? 100000 + score_decisive_in(v) : -100000 + score_decisive_in(v);
}

static void on_info(void *ctx, const EngineInfo *info)
{
    Cecp *x = ctx;
    if (atomic_load(&x->kind) == S_NONE || info->multipv != 1)
        return;
    pthread_mutex_lock(&x->lock);
    x->info_depth = info->depth;
    x->info_time = info->time_ms;
    x->info_nodes = info->nodes;
    pthread_mutex_unlock(&x->lock);
    if (!atomic_load(&x->post))
        return;
    char pv[PV_TEXT_MAX];
    proto_pv_text(info, false, pv);
    /* a fail high ends the PV with '!', a fail low with '?' */
    const char *mark = info->bound == BOUND_LOWER ? "!" : info->bound == BOUND_UPPER ? "?" : "";
    out_line(x->out, "%d %d %lld %llu %s%s", info->depth, xboard_score(info->score), (long long)(info->time_ms / 10),
             (unsigned long long)info->nodes, pv + (pv[0] == ' '), mark);
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    Cecp *x = ctx;
    pthread_mutex_lock(&x->lock);
    x->result_ready = true;
    x->result_best = best;
    x->result_ponder = ponder;
    pthread_cond_signal(&x->wake);
    pthread_mutex_unlock(&x->lock);
}

static void on_message(void *ctx, const char *text)
{
    Cecp *x = ctx;
    if (atomic_load(&x->debug))
        out_line(x->out, "# %s", text);
}

bool game_open(Cecp *x, char *err, size_t errlen)
{
    EngineCallbacks cb = {on_info, on_bestmove, on_message, x};
    x->engine = engine_new(&cb, err, errlen);
    return x->engine != NULL;
}

/* ---- the game ---- */

/* Claim the result if the rules end the game here; true if they do. */
static bool claim_if_over(Cecp *x)
{
    char reason[256];
    Position *pos = x->scratch;
    pos_copy(pos, engine_position(x->engine));
    EngineRules rules = engine_rules(x->engine);
    Verdict v = rules_judge_at(pos, rules.rule, rules.sixty_move_plies, 3, reason, sizeof reason);
    if (v == VERDICT_NONE)
        return false;
    int stm = pos->side;
    if (count_legal(pos) == 0 && pos_in_check(pos))
        snprintf(reason, sizeof reason, "%s mates", stm == RED ? "Black" : "Red");
    for (char *p = reason; *p; p++) /* the reason goes between braces on one line */
        if (*p == '{' || *p == '}' || (unsigned char)*p < 32)
            *p = *p == '{' ? '(' : *p == '}' ? ')' : ' ';
    const char *result = v == VERDICT_DRAW ? "1/2-1/2" : (v == VERDICT_WIN) == (stm == RED) ? "1-0" : "0-1";
    out_line(x->out, "%s {%s}", result, reason);
    x->game_over = true;
    return true;
}

/* Stop the running search and forget its result; a ponder move comes off
 * the game. */
static void cancel_search(Cecp *x)
{
    int kind = atomic_exchange(&x->kind, S_NONE);
    if (kind == S_NONE)
        return;
    engine_stop(x->engine);
    engine_wait(x->engine);
    pthread_mutex_lock(&x->lock);
    x->result_ready = false;
    pthread_mutex_unlock(&x->lock);
    if (kind == S_PONDER)
        engine_pop_move(x->engine);
}

void game_close(Cecp *x)
{
    cancel_search(x);
}

static void clock_limits(Cecp *x, EngineLimits *lim, int us, int64_t our_time)
{
    const CecpClock *c = &x->clock;
    limits_clear(lim);
    lim->depth = c->sd;
    if (c->st_ms > 0) {
        lim->movetime = c->st_ms;
        return;
    }
    lim->time[us] = our_time < 0 ? 0 : our_time;
    lim->time[!us] = c->otim_ms < 0 ? 0 : c->otim_ms;
    lim->inc[us] = lim->inc[!us] = c->inc_ms;
    if (c->mps > 0) {
        int done = pos_game_ply(engine_position(x->engine)) / 2; /* moves made by the side to move */
        lim->movestogo = c->mps - done % c->mps;
    }
}

static void start_think(Cecp *x)
{
    EngineLimits lim;
    const Position *pos = engine_position(x->engine);
    clock_limits(x, &lim, pos->side, x->clock.time_ms);
    x->think_start = now_ms();
    atomic_store(&x->kind, S_THINK);
    engine_go(x->engine, &lim); /* a book move comes back at once, as a result */
}

static void start_analysis(Cecp *x)
{
    EngineLimits lim;
    limits_clear(&lim);
    lim.infinite = true;
    atomic_store(&x->kind, S_ANALYZE);
    engine_go(x->engine, &lim);
}

/* After the engine's move: think on the opponent's time about the reply
 * the search expects. */
static void start_ponder(Cecp *x, Move reply)
{
    if (!x->ponder_on || x->force || x->analyzing || !reply || !engine_push_move(x->engine, reply))
        return;
    move_str(reply, x->ponder_text, false);
    if (atomic_load(&x->post))
        out_line(x->out, "Hint: %s", x->ponder_text);
    EngineLimits lim;
    int us = engine_position(x->engine)->side;
    /* our clock: what it showed before this move, less the thinking, plus the increment */
    int64_t left = x->clock.time_ms - (now_ms() - x->think_start) + (x->clock.inc_ms > 0 ? x->clock.inc_ms : 0);
    clock_limits(x, &lim, us, left);
    lim.ponder = true;
    atomic_store(&x->kind, S_PONDER);
    engine_go(x->engine, &lim);
}

void game_result(Cecp *x)
{
    pthread_mutex_lock(&x->lock);
    bool ready = x->result_ready;
    Move best = x->result_best, ponder = x->result_ponder;
    x->result_ready = false;
    pthread_mutex_unlock(&x->lock);
    if (!ready)
        return;
    engine_wait(x->engine);
    int kind = atomic_exchange(&x->kind, S_NONE);
    if (kind != S_THINK)
        return; /* analysis and pondering only end when told; nothing to play */
    if (best == MOVE_NONE) {
        if (!claim_if_over(x))
            out_line(x->out, "Error (no move): the search found no move");
        return;
    }
    char text[8];
    move_str(best, text, false);
    if (!engine_push_move(x->engine, best)) {
        out_line(x->out, "Error (internal): the search's move %s cannot be played", text);
        return;
    }
    out_line(x->out, "move %s", text);
    if (!claim_if_over(x))
        start_ponder(x, ponder);
}

/* A command that cannot wait for the engine's own thinking: it moves now
 * (as the protocol allows), then the command is served. */
static void move_now(Cecp *x)
{
    if (atomic_load(&x->kind) != S_THINK)
        return;
    engine_stop(x->engine);
    engine_wait(x->engine);
    game_result(x);
}

void game_flush_pongs(Cecp *x)
{
    if (atomic_load(&x->kind) == S_THINK)
        return;
    for (size_t i = 0; i < x->npongs; i++)
        out_line(x->out, "pong %s", x->pongs[i]);
    x->npongs = 0;
}

/* In a live game: claim the result if the game is over, else think if it
 * is the engine's turn. */
static void play_on(Cecp *x)
{
    if (x->force || x->analyzing || x->game_over || x->bad_position || atomic_load(&x->kind) != S_NONE)
        return;
    if (!claim_if_over(x) && engine_position(x->engine)->side == x->engine_side)
        start_think(x);
}

static void restart_analysis(Cecp *x)
{
    if (x->analyzing && !x->bad_position) {
        cancel_search(x);
        start_analysis(x);
    }
}

/* ---- commands ---- */

void game_new(Cecp *x)
{
    cancel_search(x);
    char err[256];
    engine_set_position(x->engine, NULL, NULL, 0, false, err, sizeof err);
    engine_new_game(x->engine);
    x->force = false;
    x->game_over = false;
    x->bad_position = false;
    x->engine_side = BLACK;
    x->clock.sd = 0;
    x->clock.time_ms = x->clock.otim_ms = x->clock.base_ms;
    restart_analysis(x);
}

void game_setboard(Cecp *x, const char *fen)
{
    char err[256];
    cancel_search(x);
    if (!*fen || !engine_set_position(x->engine, fen, NULL, 0, false, err, sizeof err)) {
        /* as the protocol suggests: moves are refused until a good position */
        out_line(x->out, "tellusererror Illegal position");
        if (atomic_load(&x->debug))
            out_line(x->out, "# setboard: %s", *fen ? err : "no FEN");
        x->bad_position = true;
        return;
    }
    x->bad_position = false;
    x->game_over = false;
    restart_analysis(x);
}

void game_usermove(Cecp *x, const char *text)
{
    char shown[16];
    text_printable(shown, sizeof shown, text);
    if (x->bad_position) {
        out_line(x->out, "Illegal move (no legal position set): %s", shown);
        return;
    }
    int kind = atomic_load(&x->kind);
    if (kind == S_THINK) {
        /* a move while we think: ours comes first, and pondering may start
         * on it (the user's move is then a ponder hit or miss) */
        move_now(x);
        kind = atomic_load(&x->kind);
    }
    if (kind == S_PONDER) {
        if (!strcmp(text, x->ponder_text)) {
            /* the expected reply: the pondering becomes the search, unless
             * the move ended the game */
            if (claim_if_over(x)) {
                atomic_store(&x->kind, S_NONE);
                engine_stop(x->engine);
                engine_wait(x->engine);
                pthread_mutex_lock(&x->lock);
                x->result_ready = false;
                pthread_mutex_unlock(&x->lock);
                return;
            }
            x->think_start = now_ms();
            atomic_store(&x->kind, S_THINK);
            engine_ponderhit(x->engine);
            return;
        }
        cancel_search(x);
    }
    Move m = parse_move(engine_position(x->engine), text, false);
    if (m == MOVE_NONE) {
        out_line(x->out, "Illegal move: %s", shown);
        return;
    }
    if (atomic_load(&x->kind) == S_ANALYZE)
        cancel_search(x);
    if (!engine_push_move(x->engine, m)) {
        out_line(x->out, "Illegal move (the game is too long): %s", shown);
        return;
    }
    if (x->analyzing) {
        start_analysis(x);
        return;
    }
    play_on(x);
}

void game_undo(Cecp *x, int plies)
{
    cancel_search(x);
    const Position *pos = engine_position(x->engine);
    if (x->bad_position || pos->top < plies) {
        cecp_error(x, "command not legal now");
        return;
    }
    for (int i = 0; i < plies; i++)
        engine_pop_move(x->engine);
    x->game_over = false;
    restart_analysis(x);
}

void game_force(Cecp *x)
{
    int kind = atomic_load(&x->kind);
    if (kind == S_THINK || kind == S_PONDER)
        cancel_search(x);
    x->force = true;
}

void game_go(Cecp *x)
{
    if (x->bad_position || x->analyzing) {
        cecp_error(x, "command not legal now");
        return;
    }
    if (atomic_load(&x->kind) == S_PONDER)
        cancel_search(x);
    x->force = false;
    x->engine_side = engine_position(x->engine)->side;
    play_on(x);
}

void game_playother(Cecp *x)
{
    if (atomic_load(&x->kind) == S_PONDER)
        cancel_search(x);
    x->force = false;
    x->engine_side = !engine_position(x->engine)->side;
}

void game_move_now(Cecp *x)
{
    if (atomic_load(&x->kind) == S_THINK)
        engine_stop(x->engine); /* the move follows as the search's result */
}

void game_ping(Cecp *x, const char *id)
{
    /* while the engine thinks on its move, the pong waits for the move:
     * every one of them, however many, and the search is left alone */
    if (x->npongs == x->cap_pongs) {
        size_t cap = x->cap_pongs ? 2 * x->cap_pongs : 16;
        void *more = realloc(x->pongs, cap * sizeof x->pongs[0]);
        if (!more) { /* out of memory: answered now rather than never */
            char text[sizeof x->pongs[0]];
            out_line(x->out, "pong %s", text_printable(text, sizeof text, id));
            return;
        }
        x->pongs = more;
        x->cap_pongs = cap;
    }
    text_printable(x->pongs[x->npongs++], sizeof x->pongs[0], id);
}

void game_over(Cecp *x)
{
    cancel_search(x);
    x->game_over = true;
}

void game_ponder(Cecp *x, bool on)
{
    x->ponder_on = on;
    if (!on && atomic_load(&x->kind) == S_PONDER)
        cancel_search(x);
}

void game_analyze(Cecp *x)
{
    move_now(x);
    cancel_search(x);
    x->analyzing = true;
    restart_analysis(x);
}

void game_exit(Cecp *x)
{
    if (x->analyzing) {
        cancel_search(x);
        x->analyzing = false;
    }
}

void game_stat(Cecp *x)
{
    if (atomic_load(&x->kind) != S_ANALYZE)
        return;
    pthread_mutex_lock(&x->lock);
    long long t = x->info_time / 10;
    unsigned long long nodes = x->info_nodes;
    int depth = x->info_depth;
    pthread_mutex_unlock(&x->lock);
    out_line(x->out, "stat01: %lld %llu %d 0 %d", t, nodes, depth, count_legal(engine_position(x->engine)));
}

void game_set_option(Cecp *x, const char *name, const char *value)
{
    char err[256];
    int kind = atomic_load(&x->kind);
    if (kind == S_THINK)
        move_now(x);
    else if (kind != S_NONE)
        cancel_search(x);
    if (!engine_set_option(x->engine, name, value, err, sizeof err)) {
        /* the reason goes to the debug channel: XBoard reads words like
         * "draw" or "time" in an error line as a protocol refusal */
        cecp_error(x, "bad value");
        if (atomic_load(&x->debug))
            out_line(x->out, "# %s", err);
    }
    if (kind == S_ANALYZE)
        restart_analysis(x);
}
