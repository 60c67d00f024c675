#include "limits_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

void *limits_xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        abort();
    return p;
}

int limits_start(EngineProc *ep, const char *hello)
{
    if (!ep_start_engine(ep))
        return -1;
    if (hello)
        ep_send(ep, "%s", hello);
    return 0;
}

int limits_setup_uci(void **state)
{
    EngineProc *ep = *state;
    if (limits_start(ep, "uci"))
        return -1;
    ep_send(ep, "setoption name OwnBook value false");
    return 0;
}

int limits_setup_ucci(void **state)
{
    EngineProc *ep = *state;
    if (limits_start(ep, "ucci"))
        return -1;
    ep_send(ep, "setoption usebook false");
    return 0;
}

int limits_setup_xboard(void **state)
{
    EngineProc *ep = *state;
    if (limits_start(ep, "xboard"))
        return -1;
    ep_send(ep, "protover 2");
    ep_send(ep, "option OwnBook=0");
    return 0;
}

int limits_setup_bare(void **state)
{
    return limits_start(*state, NULL);
}

int limits_teardown(void **state)
{
    EngineProc *ep = *state;
    ep_send(ep, "quit");
    return ep_finish(ep, 10000) == 0 ? 0 : -1;
}

const char *limits_expect_either(EngineProc *ep, const char *a, const char *b, int timeout_ms)
{
    ep->log[0] = 0;
    long deadline = now_ms() + timeout_ms;
    for (;;) {
        long left = deadline - now_ms();
        const char *l = ep_read_line(ep, left > 0 ? (int)left : 0);
        if (!l) {
            fail_msg("no '%s' or '%s' within %d ms; got:\n%.4000s", a, b, timeout_ms, ep->log);
            return NULL;
        }
        size_t n = strlen(ep->log);
        snprintf(ep->log + n, sizeof ep->log - n, "%s\n", l);
        if (!strncmp(l, a, strlen(a)) || !strncmp(l, b, strlen(b)))
            return l;
    }
}

void limits_expect_in_log(const EngineProc *ep, const char *text)
{
    if (!strstr(ep->log, text))
        fail_msg("expected '%s' in:\n%.4000s", text, ep->log);
}

void limits_sync_uci(EngineProc *ep)
{
    ep_send(ep, "isready");
    ep_want(ep, "readyok", LIMITS_WAIT_MS);
}

void limits_sync_xboard(EngineProc *ep, int n)
{
    char want[32];
    ep_send(ep, "ping %d", n);
    snprintf(want, sizeof want, "pong %d", n);
    ep_want(ep, want, LIMITS_WAIT_MS);
}

char *limits_horse_shuffle(int plies)
{
    static const char *const cycle[4] = {"h0g2", "h9g7", "g2h0", "g7h9"};
    char *s = limits_xmalloc((size_t)plies * 5 + 1);
    size_t len = 0;
    for (int i = 0; i < plies; i++)
        len += (size_t)sprintf(s + len, "%s%s", i ? " " : "", cycle[i % 4]);
    s[len] = 0;
    return s;
}
