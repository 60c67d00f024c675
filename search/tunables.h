/* The search's tunables (search/tunable_list.h) as the layers above see them:
 * listed by name with their range and SPSA step, and set by name.  Only a
 * SPSA build (make SPSA=1) has any: in the normal build the list is
 * empty and every set is refused, the search's constants being compiled
 * in.  Setting one is for between searches; the engine refuses it during
 * one. */
#ifndef CHUHAN_SEARCH_TUNABLES_H
#define CHUHAN_SEARCH_TUNABLES_H

#include <stdbool.h>
#include <stddef.h>

#define TUNABLE_NAME_MAX 32 /* the longest name, its end included */
#define TUNABLES_MAX 64     /* the most there can be */

typedef struct {
    const char *name;
    const char *def_text; /* the default as text (for an option's listing) */
    int def, min, max;
    int step;             /* SPSA's perturbation */
} TunableInfo;

/* How many there are: 0 in the normal build. */
int tunables_count(void);
/* The i-th, NULL out of range. */
const TunableInfo *tunables_info(int i);
/* Its index by name (case-insensitive), -1 if none. */
int tunables_find(const char *name);
/* The current value of the i-th (its default until set). */
int tunables_value(int i);
/* Set one by name; false with the reason for an unknown name or a value
 * outside [min, max] (the old value is kept). */
bool tunables_set(const char *name, long value, char *err, size_t errlen);
/* Every one back to its default. */
void tunables_reset(void);

#endif
