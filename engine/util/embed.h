/* A file built into the binary with the assembler's .incbin, so that the
 * program needs no data file at run time: the bytes lie between the
 * symbols NAME_start and NAME_end, read-only, with a NUL after them (text
 * may be read as a string).  The Makefile makes the object that embeds a
 * file depend on it, so a changed file is built in again.  Use at file
 * scope: EMBED_FILE(chuhan_default_book, "book/default.book"); */
#ifndef CHUHAN_UTIL_EMBED_H
#define CHUHAN_UTIL_EMBED_H

#define EMBED_FILE(name, path)                                                                                   \
    __asm__(".pushsection .rodata\n"                                                                             \
            ".balign 16\n"                                                                                       \
            ".globl " #name "_start\n"                                                                           \
            ".hidden " #name "_start\n" #name "_start:\n"                                                        \
            ".incbin \"" path "\"\n"                                                                             \
            ".globl " #name "_end\n"                                                                             \
            ".hidden " #name "_end\n" #name "_end:\n"                                                            \
            ".byte 0\n"                                                                                          \
            ".popsection\n");                                                                                    \
    extern const unsigned char name##_start[];                                                                   \
    extern const unsigned char name##_end[]

#endif
