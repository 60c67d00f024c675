/* Move notations: reading and writing the ways people record xiangqi moves.
 *
 *   Chinese   炮二平五 馬８進７ 前車進一 後炮平五 中兵進一 二兵平四 前五平四
 *             (traditional or simplified characters; file numbers as 一..九,
 *             full-width １..９ or ASCII 1..9 for either side)
 *   WXF       C2.5 H8+7 R+.3 C--1 ++.4 3-.4 ('.' or '=' sideways)
 *   ICCS      H2-E2
 *   UCI       h2e2 (ranks 0-9)
 *   SAN       Che3 Nc3 Rxa10+ (algebraic, ranks 1-10: cutechess, Fairy-Stockfish)
 *
 * Files are counted from each player's own right: Red's file 一 is the
 * i-file, Black's file １ is the a-file.  Two like pieces on one file are
 * told apart by 前/後 (front/rear); three pawns by 前/中/後, four or five by
 * 一二三四五 (from the front).  When two files each hold two or more pawns
 * of the mover, the pawn is named by its place and file (前五平四).
 * Advisors and elephants never need 前/後: the direction tells them apart.
 *
 * Reading needs the position: the text must describe exactly one legal move
 * there.  It accepts more than the writer produces: 前/後 or a file number
 * for tandem pieces (炮七平四 when only one of the two can make the move),
 * the piece after its place (車前平三), 砲/包/俥/傌, and so on.
 * All text is UTF-8. */
#ifndef CHUHAN_NOTATION_H
#define CHUHAN_NOTATION_H

#include "engine/board/position.h"

/* Room for any move text notation_write() produces, with its NUL. */
#define NOTATION_MAX 32

typedef enum {
    NOTATION_AUTO,       /* reading only: recognise the notation from the text */
    NOTATION_UCI,        /* h2e2 */
    NOTATION_ICCS,       /* H2-E2 */
    NOTATION_WXF,        /* C2.5 */
    NOTATION_CHINESE,    /* 炮二平五, traditional characters (as most records) */
    NOTATION_CHINESE_SC, /* 炮二平五, simplified characters (车 马 进 后 帅 将) */
    NOTATION_SAN,        /* Che3 Nc3 Rxa10+: algebraic, as cutechess and Fairy-Stockfish (ranks 1-10) */
} NotationFormat;

/* The legal move that text describes in pos, or MOVE_NONE with a one-line
 * reason in err (which may be NULL).  Leading and trailing white space and
 * trailing check or annotation marks (+ # ! ?) are ignored; for Chinese both
 * character sets are accepted whichever of the two is named. */
Move notation_read(const Position *pos, const char *text, NotationFormat fmt, char *err, size_t errlen);

/* Write the legal move m of pos in the standard form of fmt (not AUTO) to
 * out (at least NOTATION_MAX bytes).  Returns false, with out set to "?",
 * when m is not a legal move in pos. */
bool notation_write(const Position *pos, Move m, NotationFormat fmt, char *out);

/* Names for the command line: "uci", "iccs", "wxf", "chinese" (or "zh"),
 * "chinese-simplified" (or "zh-cn", "sc"), "auto".  False if unknown. */
bool notation_parse_format(const char *name, NotationFormat *fmt);
/* The same for a notation to write, so "auto" is refused; fmt is a
 * NotationFormat (the shape of an args.h reader). */
bool notation_parse_write_format(const char *name, void *fmt);
const char *notation_format_name(NotationFormat fmt);

#endif
