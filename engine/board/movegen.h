/* Move generation: pseudo-legal by kind (captures, quiets), legal moves,
 * check evasions, a bulk legal-move count, and perft. */
#ifndef CHUHAN_MOVEGEN_H
#define CHUHAN_MOVEGEN_H

#include "position.h"

/* Each generator writes to out (room for MAX_MOVES) and returns the count. */
int gen_captures(const Position *pos, Move *out); /* pseudo-legal captures */
int gen_quiets(const Position *pos, Move *out);   /* pseudo-legal non-captures */
int gen_pseudo(const Position *pos, Move *out);   /* all pseudo-legal moves */
int gen_legal(const Position *pos, Move *out);    /* all legal moves */
int gen_evasions(const Position *pos, Move *out); /* legal moves when in check */
int gen_quiet_checks(const Position *pos, Move *out); /* pseudo-legal non-captures that give check */

/* Number of legal moves, without writing them out. */
int count_legal(const Position *pos);

/* Leaf count of the legal-move tree (bulk-counted at the last ply). */
uint64_t perft(Position *pos, int depth);

/* The legal move written as UCI text (ranks 0-9, or 1-10 when rank1);
 * MOVE_NONE when the text is not a legal move here. */
Move parse_move(const Position *pos, const char *text, bool rank1);

#endif
