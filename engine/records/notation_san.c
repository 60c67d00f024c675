/* Algebraic notation (SAN) as cutechess and Fairy-Stockfish write xiangqi:
 * the piece letter (K king, A advisor, B elephant, N horse, R rook, C
 * cannon; none for a pawn), the file and/or rank it comes from when
 * another piece of its kind could go there too, 'x' for a capture, the
 * point it goes to with ranks 1-10 from Red's side, '+' for check, '#'
 * for mate: Cbe3, Nc3, Rxa10+, exe6.
 *
 * Reading also takes E for the elephant and H for the horse, P for a pawn,
 * a file or rank given when not needed, the long form (Ch3e3, Ch3-e3),
 * and a pawn capture without its file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board/movegen.h"
#include "engine/util/error.h"
#include "notation_private.h"

#define fail(...) (err_set(__VA_ARGS__), MOVE_NONE)

static const char SAN_LETTER[PIECE_TYPE_NB] = {0, 'P', 'A', 'B', 'N', 'C', 'R', 'K'};

static int letter_type(char ch)
{
    switch (ch) {
    case 'K': return KING;
    case 'A': return ADVISOR;
    case 'B':
    case 'E': return ELEPHANT;
    case 'N':
    case 'H': return HORSE;
    case 'R': return ROOK;
    case 'C': return CANNON;
    case 'P': return PAWN;
    default: return NO_PIECE_TYPE;
    }
}

/* The point at the end: a file a-i and a rank 1-10; its length, 0 if none. */
static size_t dest_at_end(const char *t, size_t len, int *sq)
{
    size_t digits = 0;
    while (digits < len && digits < 2 && t[len - 1 - digits] >= '0' && t[len - 1 - digits] <= '9')
        digits++;
    if (digits == 0 || digits == len)
        return 0;
    char f = t[len - 1 - digits];
    if (f < 'a' || f > 'i')
        return 0;
    int rank = t[len - digits] - '0';
    if (digits == 2)
        rank = rank * 10 + (t[len - 1] - '0');
    if (rank < 1 || rank > RANK_NB || (digits == 2 && t[len - 2] == '0'))
        return 0;
    *sq = make_square(f - 'a', rank - 1);
    return digits + 1;
}

bool san_shape(const char *text, size_t len)
{
    int sq;
    return dest_at_end(text, len, &sq) > 0;
}

Move san_read(const Position *pos, const char *text, size_t len, char *err, size_t errlen)
{
    int to, type = PAWN, file = -1, rank = -1;
    size_t dlen = dest_at_end(text, len, &to);
    if (!dlen)
        return fail(err, errlen, "'%.*s' does not end in a point such as e3 or a10", (int)len, text);
    size_t i = 0, end = len - dlen;
    if (i < end && letter_type(text[i]) != NO_PIECE_TYPE)
        type = letter_type(text[i++]);
    if (i < end && text[i] >= 'a' && text[i] <= 'i')
        file = text[i++] - 'a';
    if (i < end && text[i] >= '1' && text[i] <= '9') {
        rank = text[i++] - '0';
        if (i < end && rank == 1 && text[i] == '0')
            rank = 10, i++;
        rank--;
    }
    if (i < end && (text[i] == 'x' || text[i] == '-'))
        i++;
    if (i != end)
        return fail(err, errlen, "'%.*s' is not a move in algebraic notation", (int)len, text);
    Move moves[MAX_MOVES], found = MOVE_NONE;
    int n = gen_legal(pos, moves), count = 0;
    for (int k = 0; k < n; k++) {
        int from = move_from(moves[k]);
        if (move_to(moves[k]) != to || piece_type(pos_piece_on(pos, from)) != type)
            continue;
        if ((file >= 0 && sq_file(from) != file) || (rank >= 0 && sq_rank(from) != rank))
            continue;
        found = moves[k];
        count++;
    }
    if (count == 1)
        return found;
    if (count)
        return fail(err, errlen, "'%.*s' fits %d legal moves", (int)len, text, count);
    return fail(err, errlen, "'%.*s' is not a legal move here", (int)len, text);
}

void san_write(const Position *pos, Move m, char *out)
{
    int from = move_from(m), to = move_to(m), pt = piece_type(pos_piece_on(pos, from));
    bool capture = pos_is_capture(pos, m);
    /* the other pieces of the kind that could go there */
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    bool others = false, same_file = false, same_rank = false;
    for (int k = 0; k < n; k++) {
        int f = move_from(moves[k]);
        if (moves[k] == m || move_to(moves[k]) != to || piece_type(pos_piece_on(pos, f)) != pt)
            continue;
        others = true;
        same_file |= sq_file(f) == sq_file(from);
        same_rank |= sq_rank(f) == sq_rank(from);
    }
    size_t k = 0;
    if (pt != PAWN)
        out[k++] = SAN_LETTER[pt];
    bool show_file = (others && (!same_file || same_rank)) || (pt == PAWN && capture);
    bool show_rank = others && same_file;
    if (show_file)
        out[k++] = (char)('a' + sq_file(from));
    if (show_rank)
        k += (size_t)snprintf(out + k, NOTATION_MAX - k, "%d", sq_rank(from) + 1);
    if (capture)
        out[k++] = 'x';
    k += (size_t)snprintf(out + k, NOTATION_MAX - k, "%c%d", 'a' + sq_file(to), sq_rank(to) + 1);
    if (pos_gives_check(pos, m)) {
        /* mate: no legal reply (a Position is too big for the stack) */
        Position *after = malloc(sizeof *after);
        bool mate = false;
        if (after) {
            pos_copy(after, pos);
            pos_do_move(after, m);
            mate = count_legal(after) == 0;
            free(after);
        }
        out[k++] = mate ? '#' : '+';
    }
    out[k] = 0;
}
