/* The default opening book, book/default.book, built into the binary with
 * the assembler's .incbin (the Makefile makes this object depend on the
 * book file, so a rebuilt book is re-linked).  The bytes are read-only. */
#include "book.h"

__asm__(".pushsection .rodata\n"
        ".balign 16\n"
        ".globl chuhan_default_book_start\n"
        ".hidden chuhan_default_book_start\n"
        "chuhan_default_book_start:\n"
        ".incbin \"book/default.book\"\n"
        ".globl chuhan_default_book_end\n"
        ".hidden chuhan_default_book_end\n"
        "chuhan_default_book_end:\n"
        ".byte 0\n"
        ".popsection\n");

extern const unsigned char chuhan_default_book_start[];
extern const unsigned char chuhan_default_book_end[];

Book *book_load_default(char *err, size_t errlen)
{
    size_t size = (size_t)(chuhan_default_book_end - chuhan_default_book_start);
    if (size == 0) {
        if (err && errlen)
            snprintf(err, errlen, "no default book was built into this binary");
        return NULL;
    }
    return book_load_memory(chuhan_default_book_start, size, err, errlen);
}
