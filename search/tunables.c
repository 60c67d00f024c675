/* The search's tunables, listed and set by name (tunables.h).  The list is
 * SEARCH_TUNABLES of tunable_list.h; only the SPSA build compiles it. */
#include "tunables.h"

#include <strings.h>

#include "engine/util/error.h"
#include "search.h"
#include "tunable_list.h"

#ifdef CHUHAN_SPSA

/* SPSA build only: the values the search reads (tunable_list.h declares them),
 * process-wide mutable state by design: one engine per tuning process. */
#define TUNABLE_DEFINE(name, def, lo, hi, step) int name = (def);
SEARCH_TUNABLES(TUNABLE_DEFINE)
#undef TUNABLE_DEFINE

#define TUNABLE_INFO(name, def, lo, hi, step) {#name, #def, (def), (lo), (hi), (step)},
static const TunableInfo INFO[] = {SEARCH_TUNABLES(TUNABLE_INFO)};
#undef TUNABLE_INFO

#define TUNABLE_ADDRESS(name, def, lo, hi, step) &name,
static int *const VALUE[] = {SEARCH_TUNABLES(TUNABLE_ADDRESS)};
#undef TUNABLE_ADDRESS

#define TUNABLE_COUNT ((int)(sizeof INFO / sizeof INFO[0]))
_Static_assert(sizeof INFO / sizeof INFO[0] <= TUNABLES_MAX, "more tunables than TUNABLES_MAX");

/* A range that holds its default, and a name that fits, for every line. */
#define TUNABLE_CHECK(name, def, lo, hi, step)                                                             \
    _Static_assert((lo) <= (def) && (def) <= (hi) && (step) > 0 && sizeof #name <= TUNABLE_NAME_MAX, #name);
SEARCH_TUNABLES(TUNABLE_CHECK)
#undef TUNABLE_CHECK

int tunables_count(void) { return TUNABLE_COUNT; }

const TunableInfo *tunables_info(int i) { return i >= 0 && i < TUNABLE_COUNT ? &INFO[i] : NULL; }

int tunables_find(const char *name)
{
    for (int i = 0; name && i < TUNABLE_COUNT; i++)
        if (!strcasecmp(INFO[i].name, name))
            return i;
    return -1;
}

int tunables_value(int i) { return i >= 0 && i < TUNABLE_COUNT ? *VALUE[i] : 0; }

/* The reductions table is built from two of them. */
static bool in_reductions(const int *value) { return value == &LMR_BASE_X100 || value == &LMR_DIV_X100; }

bool tunables_set(const char *name, long value, char *err, size_t errlen)
{
    int i = tunables_find(name);
    if (i < 0)
        return err_set(err, errlen, "no search tunable '%s'", name ? name : "");
    const TunableInfo *t = &INFO[i];
    if (value < t->min || value > t->max)
        return err_set(err, errlen, "%s must be from %d to %d, not %ld", t->name, t->min, t->max, value);
    *VALUE[i] = (int)value;
    if (in_reductions(VALUE[i]))
        search_init();
    return true;
}

void tunables_reset(void)
{
    for (int i = 0; i < TUNABLE_COUNT; i++)
        *VALUE[i] = INFO[i].def;
    search_init();
}

#else

/* The normal build: the constants are compiled into the search. */
int tunables_count(void) { return 0; }
const TunableInfo *tunables_info(int i)
{
    (void)i;
    return NULL;
}
int tunables_find(const char *name)
{
    (void)name;
    return -1;
}
int tunables_value(int i)
{
    (void)i;
    return 0;
}
bool tunables_set(const char *name, long value, char *err, size_t errlen)
{
    (void)value;
    return err_set(err, errlen, "no search tunable '%s': this is not an SPSA build (make SPSA=1)", name ? name : "");
}
void tunables_reset(void) {}

#endif
