/* The engine's input in a web page (the WebAssembly build, webinput_wasm.c):
 * the page posts lines to the engine's worker, whose script hands each one
 * to webinput_push; the protocol reads them back through an ordinary FILE,
 * blocking until a line comes, as it reads stdin elsewhere. */
#ifndef CHUHAN_UTIL_WEBINPUT_H
#define CHUHAN_UTIL_WEBINPUT_H

#include <stddef.h>
#include <stdio.h>

typedef struct WebInput WebInput;

/* A FILE that reads what is pushed to a new queue, whose address the
 * worker's script is given (Module.chuhanInput) until the FILE is closed;
 * NULL with the reason. */
FILE *webinput_open(char *err, size_t errlen);
/* Queue text (a newline is added) for the reader; called from JavaScript
 * on the worker's own thread.  Returns 0, or -1 when out of memory (the
 * text is dropped). */
int webinput_push(WebInput *in, const char *text);

#endif
