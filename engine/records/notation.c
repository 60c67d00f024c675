/* Move notations: Chinese (both character sets), WXF, ICCS and UCI.
 *
 * Reading turns the text into a description (piece type, file, place among
 * like pieces on the file, direction, target) and matches it against the
 * pseudo-legal moves of the position; exactly one legal move must fit. */
#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/error.h"

#include "engine/board/movegen.h"
#include "notation_private.h"

enum { FORWARD = 1, BACKWARD, SIDEWAYS };

/* Which of the like pieces on a file: by the place words of the notations. */
enum {
    PLACE_NONE,
    PLACE_FRONT,     /* 前: the frontmost */
    PLACE_MIDDLE,    /* 中: the middle one of three (or five) */
    PLACE_REAR,      /* 後: the rearmost */
    PLACE_INDEX,     /* 一二三四五: counted from the front (index in Desc.index) */
    PLACE_WXF_PLUS,  /* WXF '+': the front one, or the second of four or five */
    PLACE_WXF_MINUS, /* WXF '-': the rear one, or the second last of four or five */
};

typedef struct {
    int type;   /* piece type */
    int file;   /* board file the piece stands on, or -1 */
    int place;  /* PLACE_... */
    int index;  /* for PLACE_INDEX, 0 = front */
    int action; /* FORWARD, BACKWARD, SIDEWAYS */
    int target; /* 1..9: a file number or a count of ranks */
    bool wxf;   /* WXF: a plain file names the middle pawn when ambiguous */
} Desc;

static const char *const TYPE_WORDS[PIECE_TYPE_NB] = {"piece",  "pawn",   "advisor", "elephant",
                                                      "horse",  "cannon", "rook",    "king"};
static const char *const COLOR_WORDS[COLOR_NB] = {"red", "black"};

/* An error for the caller (engine/util/error.h), then the failure value. */
#define fail(...) (err_set(__VA_ARGS__), MOVE_NONE)

/* ---- geometry in the mover's own terms ---- */

/* The file number (1..9) a player calls a board file: from his own right. */
static int file_number(int c, int file) { return c == RED ? FILE_NB - file : file + 1; }
static int board_file(int c, int number) { return c == RED ? FILE_NB - number : number - 1; }

/* Ranks moved forward, from the mover's side (negative when backward). */
static int forward_delta(int c, int from, int to)
{
    int d = sq_rank(to) - sq_rank(from);
    return c == RED ? d : -d;
}

static bool moves_straight(int pt) { return pt == ROOK || pt == CANNON || pt == PAWN || pt == KING; }

/* Like pieces (same colour and type) on the file of s: their number, and
 * in *index the place of s among them counted from the front (the front is
 * the one furthest up the board from its owner's side). */
static int tandem(const Position *pos, int s, int *index)
{
    int pc = pos->board[s], file = sq_file(s), c = piece_color(pc);
    int n = 0, idx = 0;
    for (int r = 0; r < RANK_NB; r++) {
        int rank = c == RED ? RANK_NB - 1 - r : r; /* front first */
        int t = make_square(file, rank);
        if (pos->board[t] != pc)
            continue;
        if (t == s)
            idx = n;
        n++;
    }
    *index = idx;
    return n;
}

/* Files on which colour c has two or more pawns. */
static int tandem_pawn_files(const Position *pos, int c)
{
    int pc = make_piece(c, PAWN), files = 0;
    for (int f = 0; f < FILE_NB; f++) {
        int n = 0;
        for (int r = 0; r < RANK_NB; r++)
            n += pos->board[make_square(f, r)] == pc;
        files += n >= 2;
    }
    return files;
}

static bool place_fits(int place, int index, int n, int idx)
{
    switch (place) {
    case PLACE_NONE: return true;
    case PLACE_FRONT: return n >= 2 && idx == 0;
    case PLACE_REAR: return n >= 2 && idx == n - 1;
    case PLACE_MIDDLE: return n >= 3 && n % 2 == 1 && idx == n / 2;
    case PLACE_INDEX: return n >= 2 && idx == index;
    case PLACE_WXF_PLUS: return n >= 2 && idx == (n >= 4 ? 1 : 0);
    case PLACE_WXF_MINUS: return n >= 2 && idx == (n >= 4 ? n - 2 : n - 1);
    default: return false;
    }
}

/* The square a piece of type pt on from reaches by the action and target
 * (a file number or a count of ranks, in the mover's terms), or -1. */
static int destination(int c, int pt, int from, int action, int target)
{
    int up = c == RED ? 1 : -1; /* forward, in ranks */
    int file = sq_file(from), rank = sq_rank(from);
    int tfile = board_file(c, target);
    if (moves_straight(pt)) {
        if (action == SIDEWAYS)
            return tfile != file ? make_square(tfile, rank) : -1;
        rank += (action == FORWARD ? target : -target) * up;
        return rank >= 0 && rank < RANK_NB ? make_square(file, rank) : -1;
    }
    if (action == SIDEWAYS)
        return -1;
    int df = abs(tfile - file), dr;
    if (pt == HORSE && (df == 1 || df == 2))
        dr = 3 - df;
    else if ((pt == ELEPHANT && df == 2) || (pt == ADVISOR && df == 1))
        dr = df;
    else
        return -1;
    rank += (action == FORWARD ? dr : -dr) * up;
    return rank >= 0 && rank < RANK_NB ? make_square(tfile, rank) : -1;
}

/* Find the one legal move that fits the description: each piece of the
 * type (on the file, at the place) has at most one move that fits. */
static Move match(const Position *pos, const Desc *d, const char *text, char *err, size_t errlen)
{
    int us = pos->side, pc = make_piece(us, d->type);
    Move fits[16];
    int nfit = 0, nlegal = 0, pieces = 0, placed = 0;
    for (int from = 0; from < SQUARE_NB; from++) {
        if (pos->board[from] != pc || (d->file >= 0 && sq_file(from) != d->file))
            continue;
        pieces++;
        int idx, cnt = tandem(pos, from, &idx);
        if (!place_fits(d->place, d->index, cnt, idx))
            continue;
        placed++;
        int to = destination(us, d->type, from, d->action, d->target);
        if (to < 0)
            continue;
        Move m = make_move(from, to);
        if (!pos_pseudo_legal(pos, m))
            continue;
        nfit++;
        if (pos_legal(pos, m) && nlegal < 16)
            fits[nlegal++] = m;
    }
    if (nlegal == 1)
        return fits[0];
    if (nlegal > 1 && d->wxf && d->place == PLACE_NONE) {
        /* WXF names the middle one of three or five pawns by its file */
        Move mid = MOVE_NONE;
        int k = 0;
        for (int i = 0; i < nlegal; i++) {
            int idx, cnt = tandem(pos, move_from(fits[i]), &idx);
            if (cnt >= 3 && cnt % 2 == 1 && idx == cnt / 2)
                mid = fits[i], k++;
        }
        if (k == 1)
            return mid;
    }
    if (nlegal > 1)
        return fail(err, errlen, "'%s' is ambiguous: %d %s %ss can make it", text, nlegal, COLOR_WORDS[us],
                    TYPE_WORDS[d->type]);
    if (nfit > 0)
        return fail(err, errlen, "'%s' is illegal: it leaves the %s king in check or facing the other king", text,
                    COLOR_WORDS[us]);
    if (!pieces && d->file >= 0)
        return fail(err, errlen, "'%s': no %s %s on file %d", text, COLOR_WORDS[us], TYPE_WORDS[d->type],
                    file_number(us, d->file));
    if (!pieces)
        return fail(err, errlen, "'%s': no %s %s on the board", text, COLOR_WORDS[us], TYPE_WORDS[d->type]);
    if (!placed)
        return fail(err, errlen, "'%s': the %s %ss stand in no such order on one file", text, COLOR_WORDS[us],
                    TYPE_WORDS[d->type]);
    return fail(err, errlen, "'%s': no %s %s can move so", text, COLOR_WORDS[us], TYPE_WORDS[d->type]);
}

/* ---- UTF-8 ---- */

/* Decode one code point at s (at most len bytes); its length in *used.
 * Returns -1 for a malformed sequence. */
static long utf8_next(const unsigned char *s, size_t len, int *used)
{
    if (len == 0)
        return -1;
    unsigned c = s[0];
    int n;
    long cp;
    if (c < 0x80) {
        *used = 1;
        return c;
    } else if ((c & 0xE0) == 0xC0) {
        n = 2, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4, cp = c & 0x07;
    } else {
        return -1;
    }
    if ((size_t)n > len)
        return -1;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return -1;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    static const long MIN[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < MIN[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *used = n;
    return cp;
}

/* ---- Chinese ---- */

enum { T_PIECE = 1, T_NUM, T_PLACE, T_ACTION };

typedef struct {
    int kind;
    int val;
} Word;

static Word classify(long cp)
{
    Word w = {0, 0};
    switch (cp) {
    case 0x8ECA: /* 車 */
    case 0x8F66: /* 车 */
    case 0x4FE5: /* 俥 */
    case 0x4F21: /* 伡 */
        w.kind = T_PIECE, w.val = ROOK;
        break;
    case 0x99AC: /* 馬 */
    case 0x9A6C: /* 马 */
    case 0x508C: /* 傌 */
        w.kind = T_PIECE, w.val = HORSE;
        break;
    case 0x70AE: /* 炮 */
    case 0x7832: /* 砲 */
    case 0x5305: /* 包 */
        w.kind = T_PIECE, w.val = CANNON;
        break;
    case 0x76F8: /* 相 */
    case 0x8C61: /* 象 */
        w.kind = T_PIECE, w.val = ELEPHANT;
        break;
    case 0x4ED5: /* 仕 */
    case 0x58EB: /* 士 */
        w.kind = T_PIECE, w.val = ADVISOR;
        break;
    case 0x5E25: /* 帥 */
    case 0x5E05: /* 帅 */
    case 0x5C07: /* 將 */
    case 0x5C06: /* 将 */
        w.kind = T_PIECE, w.val = KING;
        break;
    case 0x5175: /* 兵 */
    case 0x5352: /* 卒 */
        w.kind = T_PIECE, w.val = PAWN;
        break;
    case 0x524D: /* 前 */
        w.kind = T_PLACE, w.val = PLACE_FRONT;
        break;
    case 0x4E2D: /* 中 */
        w.kind = T_PLACE, w.val = PLACE_MIDDLE;
        break;
    case 0x5F8C: /* 後 */
    case 0x540E: /* 后 */
        w.kind = T_PLACE, w.val = PLACE_REAR;
        break;
    case 0x9032: /* 進 */
    case 0x8FDB: /* 进 */
        w.kind = T_ACTION, w.val = FORWARD;
        break;
    case 0x9000: /* 退 */
        w.kind = T_ACTION, w.val = BACKWARD;
        break;
    case 0x5E73: /* 平 */
        w.kind = T_ACTION, w.val = SIDEWAYS;
        break;
    case 0x4E00: w.kind = T_NUM, w.val = 1; break; /* 一 */
    case 0x4E8C: w.kind = T_NUM, w.val = 2; break; /* 二 */
    case 0x4E09: w.kind = T_NUM, w.val = 3; break; /* 三 */
    case 0x56DB: w.kind = T_NUM, w.val = 4; break; /* 四 */
    case 0x4E94: w.kind = T_NUM, w.val = 5; break; /* 五 */
    case 0x516D: w.kind = T_NUM, w.val = 6; break; /* 六 */
    case 0x4E03: w.kind = T_NUM, w.val = 7; break; /* 七 */
    case 0x516B: w.kind = T_NUM, w.val = 8; break; /* 八 */
    case 0x4E5D: w.kind = T_NUM, w.val = 9; break; /* 九 */
    default:
        if (cp >= 0xFF11 && cp <= 0xFF19) /* １..９ */
            w.kind = T_NUM, w.val = (int)(cp - 0xFF10);
        else if (cp >= '1' && cp <= '9')
            w.kind = T_NUM, w.val = (int)(cp - '0');
        break;
    }
    return w;
}

static Move read_chinese(const Position *pos, const char *text, size_t len, char *err, size_t errlen)
{
    Word w[6];
    int n = 0;
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        int used;
        long cp = utf8_next(s + i, len - i, &used);
        if (cp < 0)
            return fail(err, errlen, "'%s' is not valid UTF-8", text);
        i += (size_t)used;
        if (cp == ' ' || cp == '\t' || cp == 0x3000) /* spaces, also the ideographic one */
            continue;
        if (n == 6)
            return fail(err, errlen, "'%s' is too long for a move", text);
        w[n] = classify(cp);
        if (!w[n].kind)
            return fail(err, errlen, "'%s': unknown character '%.*s' in Chinese notation", text, used,
                        (const char *)s + i - used);
        n++;
    }
    Desc d = {.type = 0, .file = -1, .place = PLACE_NONE, .index = 0, .action = 0, .target = 0, .wxf = false};
    int us = pos->side;
    /* the last two words: action and target */
    if (n < 4 || w[n - 2].kind != T_ACTION || w[n - 1].kind != T_NUM)
        return fail(err, errlen, "'%s' is not a move in Chinese notation", text);
    d.action = w[n - 2].val;
    d.target = w[n - 1].val;
    const Word *a = &w[0], *b = &w[1];
    if (n == 4) {
        if (a->kind == T_PIECE && b->kind == T_NUM) { /* 炮二 */
            d.type = a->val, d.file = board_file(us, b->val);
        } else if (a->kind == T_PLACE && b->kind == T_PIECE) { /* 前炮 */
            d.type = b->val, d.place = a->val;
        } else if (a->kind == T_PIECE && b->kind == T_PLACE) { /* 炮前 */
            d.type = a->val, d.place = b->val;
        } else if (a->kind == T_NUM && b->kind == T_PIECE && a->val <= 5) { /* 二兵 */
            d.type = b->val, d.place = PLACE_INDEX, d.index = a->val - 1;
        } else if (a->kind == T_PLACE && b->kind == T_NUM) { /* 前五: pawns on two files */
            d.type = PAWN, d.place = a->val, d.file = board_file(us, b->val);
        } else if (a->kind == T_NUM && b->kind == T_NUM && a->val <= 5) { /* 二五 */
            d.type = PAWN, d.place = PLACE_INDEX, d.index = a->val - 1, d.file = board_file(us, b->val);
        } else {
            return fail(err, errlen, "'%s' is not a move in Chinese notation", text);
        }
    } else if (n == 5 && (a->kind == T_PLACE || (a->kind == T_NUM && a->val <= 5)) && b->kind == T_PIECE &&
               w[2].kind == T_NUM) { /* 前兵五 */
        d.type = b->val, d.file = board_file(us, w[2].val);
        if (a->kind == T_PLACE)
            d.place = a->val;
        else
            d.place = PLACE_INDEX, d.index = a->val - 1;
    } else {
        return fail(err, errlen, "'%s' is not a move in Chinese notation", text);
    }
    return match(pos, &d, text, err, errlen);
}

/* ---- WXF ---- */

static int wxf_piece(char ch)
{
    switch (toupper((unsigned char)ch)) {
    case 'K': case 'G': return KING;
    case 'A': case 'M': return ADVISOR;
    case 'E': case 'B': return ELEPHANT;
    case 'H': case 'N': return HORSE;
    case 'R': return ROOK;
    case 'C': return CANNON;
    case 'P': case 'S': return PAWN;
    default: return 0;
    }
}

static Move read_wxf(const Position *pos, const char *text, size_t len, char *err, size_t errlen)
{
    if (len != 4)
        return fail(err, errlen, "'%s' is not a move in WXF notation", text);
    Desc d = {.type = 0, .file = -1, .place = PLACE_NONE, .index = 0, .action = 0, .target = 0, .wxf = true};
    int us = pos->side;
    char c0 = text[0], c1 = text[1], c2 = text[2], c3 = text[3];
    if (c3 < '1' || c3 > '9')
        return fail(err, errlen, "'%s' is not a move in WXF notation", text);
    d.target = c3 - '0';
    switch (c2) {
    case '+': d.action = FORWARD; break;
    case '-': d.action = BACKWARD; break;
    case '.': case '=': d.action = SIDEWAYS; break;
    default: return fail(err, errlen, "'%s' is not a move in WXF notation", text);
    }
    if (wxf_piece(c0)) {
        d.type = wxf_piece(c0);
        if (c1 >= '1' && c1 <= '9')
            d.file = board_file(us, c1 - '0');
        else if (c1 == '+')
            d.place = PLACE_WXF_PLUS;
        else if (c1 == '-')
            d.place = PLACE_WXF_MINUS;
        else
            return fail(err, errlen, "'%s' is not a move in WXF notation", text);
    } else if ((c0 == '+' || c0 == '-') && c1 == c0) { /* ++ foremost, -- rearmost of 4 or 5 pawns */
        d.type = PAWN;
        d.place = c0 == '+' ? PLACE_FRONT : PLACE_REAR;
        /* only meant for four or five pawns, but unambiguous anyway */
    } else if (c0 >= '1' && c0 <= '9') { /* pawns on two files: 3+ 33 3- */
        d.type = PAWN;
        d.file = board_file(us, c0 - '0');
        if (c1 == '+')
            d.place = PLACE_FRONT;
        else if (c1 == '-')
            d.place = PLACE_REAR;
        else if (c1 == c0)
            d.place = PLACE_MIDDLE;
        else
            return fail(err, errlen, "'%s' is not a move in WXF notation", text);
    } else {
        return fail(err, errlen, "'%s' is not a move in WXF notation", text);
    }
    return match(pos, &d, text, err, errlen);
}

/* ---- ICCS and UCI ---- */

static bool coordinate_shape(const char *t, size_t len)
{
    size_t k = 0;
    if (len != 4 && len != 5)
        return false;
    if (tolower((unsigned char)t[k]) < 'a' || tolower((unsigned char)t[k]) > 'i' || !isdigit((unsigned char)t[k + 1]))
        return false;
    k += 2;
    if (len == 5 && t[k++] != '-')
        return false;
    return tolower((unsigned char)t[k]) >= 'a' && tolower((unsigned char)t[k]) <= 'i' &&
           isdigit((unsigned char)t[k + 1]);
}

static Move read_coordinates(const Position *pos, const char *text, size_t len, char *err, size_t errlen)
{
    if (!coordinate_shape(text, len))
        return fail(err, errlen, "'%s' is not a coordinate move like h2e2 or H2-E2", text);
    int k = len == 5 ? 3 : 2;
    int from = make_square(tolower((unsigned char)text[0]) - 'a', text[1] - '0');
    int to = make_square(tolower((unsigned char)text[k]) - 'a', text[k + 1] - '0');
    int pc = pos->board[from];
    if (pc == NO_PIECE)
        return fail(err, errlen, "'%s': no piece on %c%c", text, tolower((unsigned char)text[0]), text[1]);
    if (piece_color(pc) != pos->side)
        return fail(err, errlen, "'%s': the piece on %c%c is not %s's", text, tolower((unsigned char)text[0]),
                    text[1], COLOR_WORDS[pos->side]);
    Move m = make_move(from, to);
    if (from == to || !pos_pseudo_legal(pos, m))
        return fail(err, errlen, "'%s': the %s cannot move so", text, TYPE_WORDS[piece_type(pc)]);
    if (!pos_legal(pos, m))
        return fail(err, errlen, "'%s' is illegal: it leaves the %s king in check or facing the other king", text,
                    COLOR_WORDS[pos->side]);
    return m;
}

/* ---- reading ---- */

Move notation_read(const Position *pos, const char *text, NotationFormat fmt, char *err, size_t errlen)
{
    if (!text)
        return fail(err, errlen, "no move text");
    char buf[64];
    while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n')
        text++;
    size_t len = strlen(text);
    if (len >= sizeof buf)
        return fail(err, errlen, "'%.20s...' is too long for a move", text);
    memcpy(buf, text, len + 1);
    /* trailing space, check and annotation marks: no notation ends in one */
    while (len > 0 && strchr(" \t\r\n+#!?", buf[len - 1]))
        buf[--len] = 0;
    if (len == 0)
        return fail(err, errlen, "no move text");
    if (fmt == NOTATION_AUTO) {
        if ((unsigned char)buf[0] >= 0x80)
            fmt = NOTATION_CHINESE;
        else if (isupper((unsigned char)buf[0]) && san_shape(buf, len))
            fmt = NOTATION_SAN; /* C3h4: a piece letter, a lower-case point */
        else if (coordinate_shape(buf, len))
            fmt = NOTATION_UCI;
        else if (san_shape(buf, len))
            fmt = NOTATION_SAN;
        else
            fmt = NOTATION_WXF;
    }
    switch (fmt) {
    case NOTATION_UCI:
    case NOTATION_ICCS: return read_coordinates(pos, buf, len, err, errlen);
    case NOTATION_WXF: return read_wxf(pos, buf, len, err, errlen);
    case NOTATION_SAN: return san_read(pos, buf, len, err, errlen);
    case NOTATION_CHINESE:
    case NOTATION_CHINESE_SC: return read_chinese(pos, buf, len, err, errlen);
    default: return fail(err, errlen, "unknown notation");
    }
}

/* ---- writing ---- */

static const char *const ZH_PIECE[2][COLOR_NB][PIECE_TYPE_NB] = {
    {{"", "兵", "仕", "相", "馬", "炮", "車", "帥"}, {"", "卒", "士", "象", "馬", "炮", "車", "將"}},
    {{"", "兵", "仕", "相", "马", "炮", "车", "帅"}, {"", "卒", "士", "象", "马", "炮", "车", "将"}},
};
static const char *const ZH_ACTION[2][4] = {{"", "進", "退", "平"}, {"", "进", "退", "平"}};
static const char *const ZH_REAR[2] = {"後", "后"};
static const char *const ZH_NUMERAL[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
static const char *const ZH_DIGIT[10] = {"", "１", "２", "３", "４", "５", "６", "７", "８", "９"};

/* The file or rank count as the mover writes it. */
static const char *zh_number(int c, int n) { return c == RED ? ZH_NUMERAL[n] : ZH_DIGIT[n]; }

static int move_action(int c, Move m)
{
    int df = forward_delta(c, move_from(m), move_to(m));
    return df > 0 ? FORWARD : df < 0 ? BACKWARD : SIDEWAYS;
}

static int move_target(int c, int pt, Move m)
{
    int from = move_from(m), to = move_to(m);
    int df = forward_delta(c, from, to);
    if (moves_straight(pt) && df != 0)
        return df > 0 ? df : -df;
    return file_number(c, sq_file(to));
}

/* Would the plain form (piece and file) name more than one legal move?  Only
 * possible for advisors and elephants, which are written plainly even when
 * two stand on one file (odd setups can defeat the direction rule). */
static bool plain_ambiguous(const Position *pos, Move m)
{
    int from = move_from(m), c = pos->side, pt = piece_type(pos->board[from]);
    int action = move_action(c, m), target = move_target(c, pt, m);
    Move moves[MAX_MOVES];
    int n = gen_pseudo(pos, moves), k = 0;
    for (int i = 0; i < n; i++) {
        int f = move_from(moves[i]);
        if (pos->board[f] == pos->board[from] && sq_file(f) == sq_file(from) &&
            move_action(c, moves[i]) == action && move_target(c, pt, moves[i]) == target && pos_legal(pos, moves[i]))
            k++;
    }
    return k > 1;
}

/* Plain (piece and file) or by place among like pieces on the file? */
static bool write_plain(const Position *pos, Move m, int n)
{
    int pt = piece_type(pos->board[move_from(m)]);
    return n == 1 || ((pt == ADVISOR || pt == ELEPHANT) && !plain_ambiguous(pos, m));
}

static void write_chinese(const Position *pos, Move m, int set, char *out)
{
    int from = move_from(m), pc = pos->board[from];
    int c = piece_color(pc), pt = piece_type(pc);
    int idx, n = tandem(pos, from, &idx);
    int fnum = file_number(c, sq_file(from));
    const char *piece = ZH_PIECE[set][c][pt];
    const char *place = idx == 0 ? "前" : idx == n - 1 ? ZH_REAR[set] : "中";
    char head[16];
    if (write_plain(pos, m, n))
        snprintf(head, sizeof head, "%s%s", piece, zh_number(c, fnum));
    else if (pt == PAWN && tandem_pawn_files(pos, c) >= 2) /* at most three on this file then */
        snprintf(head, sizeof head, "%s%s", place, zh_number(c, fnum));
    else if (n <= 3)
        snprintf(head, sizeof head, "%s%s", place, piece);
    else
        snprintf(head, sizeof head, "%s%s", ZH_NUMERAL[idx + 1], piece);
    int action = move_action(c, m);
    snprintf(out, NOTATION_MAX, "%s%s%s", head, ZH_ACTION[set][action], zh_number(c, move_target(c, pt, m)));
}

static void write_wxf(const Position *pos, Move m, char *out)
{
    static const char LETTER[PIECE_TYPE_NB] = {'?', 'P', 'A', 'E', 'H', 'C', 'R', 'K'};
    int from = move_from(m), pc = pos->board[from];
    int c = piece_color(pc), pt = piece_type(pc);
    int idx, n = tandem(pos, from, &idx);
    char fdigit = (char)('0' + file_number(c, sq_file(from)));
    char h0 = LETTER[pt], h1 = fdigit;
    if (write_plain(pos, m, n)) {
        /* plain */
    } else if (pt == PAWN && tandem_pawn_files(pos, c) >= 2) {
        h0 = fdigit;
        h1 = idx == 0 ? '+' : idx == n - 1 ? '-' : fdigit;
    } else if (n <= 3) {
        h1 = idx == 0 ? '+' : idx == n - 1 ? '-' : fdigit;
    } else if (idx == 0 || idx == n - 1) { /* four or five pawns */
        h0 = h1 = idx == 0 ? '+' : '-';
    } else {
        h1 = idx == 1 ? '+' : idx == n - 2 ? '-' : fdigit;
    }
    static const char ACTION[4] = {'?', '+', '-', '.'};
    out[0] = h0;
    out[1] = h1;
    out[2] = ACTION[move_action(c, m)];
    out[3] = (char)('0' + move_target(c, pt, m));
    out[4] = 0;
}

bool notation_write(const Position *pos, Move m, NotationFormat fmt, char *out)
{
    strcpy(out, "?");
    if (m == MOVE_NONE || m == MOVE_NULL || move_from(m) >= SQUARE_NB || move_to(m) >= SQUARE_NB ||
        !pos_pseudo_legal(pos, m) || !pos_legal(pos, m))
        return false;
    int from = move_from(m), to = move_to(m);
    switch (fmt) {
    case NOTATION_UCI: move_str(m, out, false); return true;
    case NOTATION_ICCS:
        snprintf(out, NOTATION_MAX, "%c%d-%c%d", 'A' + sq_file(from), sq_rank(from), 'A' + sq_file(to), sq_rank(to));
        return true;
    case NOTATION_WXF: write_wxf(pos, m, out); return true;
    case NOTATION_SAN: san_write(pos, m, out); return true;
    case NOTATION_CHINESE: write_chinese(pos, m, 0, out); return true;
    case NOTATION_CHINESE_SC: write_chinese(pos, m, 1, out); return true;
    default: return false;
    }
}

/* ---- names ---- */

static const struct {
    const char *name;
    NotationFormat fmt;
} FORMAT_NAMES[] = {
    {"auto", NOTATION_AUTO},       {"uci", NOTATION_UCI},
    {"iccs", NOTATION_ICCS},       {"wxf", NOTATION_WXF},
    {"chinese", NOTATION_CHINESE}, {"chinese-simplified", NOTATION_CHINESE_SC},
    {"zh", NOTATION_CHINESE},      {"zh-tw", NOTATION_CHINESE},
    {"traditional", NOTATION_CHINESE}, {"zh-cn", NOTATION_CHINESE_SC},
    {"sc", NOTATION_CHINESE_SC},   {"simplified", NOTATION_CHINESE_SC},
    {"san", NOTATION_SAN},         {"algebraic", NOTATION_SAN},
};

bool notation_parse_format(const char *name, NotationFormat *fmt)
{
    for (size_t i = 0; i < sizeof FORMAT_NAMES / sizeof FORMAT_NAMES[0]; i++)
        if (!strcasecmp(name, FORMAT_NAMES[i].name)) {
            *fmt = FORMAT_NAMES[i].fmt;
            return true;
        }
    return false;
}

bool notation_parse_write_format(const char *name, void *fmt)
{
    NotationFormat f;
    if (!notation_parse_format(name, &f) || f == NOTATION_AUTO)
        return false;
    *(NotationFormat *)fmt = f;
    return true;
}

const char *notation_format_name(NotationFormat fmt)
{
    for (size_t i = 0; i < sizeof FORMAT_NAMES / sizeof FORMAT_NAMES[0]; i++)
        if (FORMAT_NAMES[i].fmt == fmt)
            return FORMAT_NAMES[i].name;
    return "?";
}
