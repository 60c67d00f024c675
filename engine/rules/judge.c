/* The judge: a game replayed from text and ruled on by the repetition
 * rules, mate/stalemate and the 60-move rule (rules_judge_game); its
 * command line, `chuhan judge`, is engine/cli/judge_cli.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "rules.h"

/* Why the text is not a legal move here. */
static void explain_illegal(const Position *pos, const char *text, char *err, size_t len)
{
    int n = 0;
    int from = parse_square(text, false, &n);
    int to = from >= 0 ? parse_square(text + n, false, &n) : -1;
    if (from < 0 || to < 0 || text[n]) {
        snprintf(err, len, "not a move in UCI form like h2e2 (files a-i, ranks 0-9)");
        return;
    }
    int pc = pos->board[from];
    if (!pc) {
        snprintf(err, len, "there is no piece on %.2s", text);
        return;
    }
    if (piece_color(pc) != pos->side) {
        snprintf(err, len, "the %s on %.2s is %s's, but %s is to move", piece_type_name(piece_type(pc)), text,
                 color_name(piece_color(pc)), color_name(pos->side));
        return;
    }
    Move m = make_move(from, to);
    if (!pos_pseudo_legal(pos, m)) {
        snprintf(err, len, "the %s on %.2s cannot move to %s", piece_type_name(piece_type(pc)), text, text + 2);
        return;
    }
    snprintf(err, len, "it would leave %s's king in check or facing the other king", color_name(pos->side));
}

int rules_judge_game(Position *pos, const char *fen, char *const *moves, int nmoves, int rule,
                     int sixty_move_limit, int min_repeats, Verdict *verdict, char *reason,
                     size_t reason_len, char *err, size_t err_len)
{
    char why[200];
    if (!fen || !strcmp(fen, "startpos"))
        fen = START_FEN;
    if (!pos_set_fen(pos, fen, why, sizeof why)) {
        snprintf(err, err_len, "bad FEN: %s", why);
        return -1;
    }
    for (int i = 0; i < nmoves; i++) {
        if (pos_room(pos) <= RULES_STACK_NEED + MAX_PLY) {
            snprintf(err, err_len, "too many moves (at most %d)", i);
            return -1;
        }
        Move m = parse_move(pos, moves[i], false);
        if (m == MOVE_NONE) {
            explain_illegal(pos, moves[i], why, sizeof why);
            snprintf(err, err_len, "illegal move %d '%s' (%s to move): %s", i + 1, moves[i],
                     color_name(pos->side), why);
            return -1;
        }
        pos_do_move(pos, m);
    }
    *verdict = rules_judge_at(pos, rule, sixty_move_limit, min_repeats, reason, reason_len);
    return 0;
}
