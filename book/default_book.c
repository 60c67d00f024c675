/* The default opening book, book/default.book, built into the binary. */
#include "book.h"

#include "engine/util/embed.h"
#include "engine/util/error.h"

EMBED_FILE(chuhan_default_book, "book/default.book");

Book *book_load_default(char *err, size_t errlen)
{
    size_t size = (size_t)(chuhan_default_book_end - chuhan_default_book_start);
    if (size == 0) {
        err_set(err, errlen, "no default book was built into this binary");
        return NULL;
    }
    return book_load_memory(chuhan_default_book_start, size, err, errlen);
}
