/* The evaluation weights as a plain text file of named values: the one
 * the engine plays with is eval/weights.txt, built into the binary and
 * read at start-up into DefaultEvalParams; `chuhan texel` writes such files
 * and can start from one.
 *
 * The format: '#' starts a comment to the end of the line; otherwise
 * words separated by blanks and line ends.  Every weight of EvalParams
 * appears once, as its name followed by its values, each value "mg/eg"
 * (middlegame and endgame centipawns, whole numbers from -32768 to
 * 32767): "tempo 23/6", "piece_value 0/0 83/126 ...".  The piece-square
 * tables are named psqt.pawn ... psqt.king, 90 values each: ten ranks of
 * nine files, rank 0 (the own back rank) first, files a to i, from Red's
 * side (Black's are mirrored). */
#ifndef CHUHAN_EVAL_WEIGHTS_H
#define CHUHAN_EVAL_WEIGHTS_H

#include <stdio.h>

#include "weight_list.h"

/* Read weights from text (name: how errors call it, e.g. a path).  False
 * with "name:line: what is wrong" in err; *out is then unspecified. */
bool weights_parse(const char *text, const char *name, EvalParams *out, char *err, size_t errlen);
/* The same from a file. */
bool weights_read_file(const char *path, EvalParams *out, char *err, size_t errlen);
/* Write weights in the format, comment (NULL, or lines) at the head. */
bool weights_write(FILE *out, const EvalParams *params, const char *comment);

/* DefaultEvalParams from the weights built into the binary (part of
 * chuhan_init); false with the reason if they do not read. */
bool weights_init(char *err, size_t errlen);

#endif
