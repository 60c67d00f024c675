/* A file built into the binary with the assembler's .incbin, so that the
 * program needs no data file at run time: the bytes lie between the
 * symbols NAME_start and NAME_end, read-only, with a NUL after them (text
 * may be read as a string).  The Makefile makes the object that embeds a
 * file depend on it, so a changed file is built in again.  Use at file
 * scope: EMBED_FILE(chuhan_default_book, "book/default.book"); */
#ifndef CHUHAN_UTIL_EMBED_H
#define CHUHAN_UTIL_EMBED_H

/* The object format's words: ELF hides the symbols from other modules and
 * restores the section; PE/COFF (Windows) knows neither, so there the
 * bytes go in its read-only data and the assembler is sent back to the
 * text section, where the compiler expects it after a top-level asm.
 * WebAssembly (emcc) wants each data symbol typed and sized, in a data
 * section of its own, and knows no push or pop of sections. */
#if defined(__wasm__)
#define EMBED_OPEN_(name) ".section .rodata." name ",\"\",@\n"
#define EMBED_HIDE_(sym) ".hidden " sym "\n.type " sym ",@object\n"
#define EMBED_SIZE_(sym, size) ".size " sym ", " size "\n"
#define EMBED_CLOSE_ ".text\n"
#elif defined(_WIN32)
#define EMBED_OPEN_(name) ".section .rdata,\"dr\"\n"
#define EMBED_HIDE_(sym) ""
#define EMBED_SIZE_(sym, size) ""
#define EMBED_CLOSE_ ".text\n"
#else
#define EMBED_OPEN_(name) ".pushsection .rodata\n"
#define EMBED_HIDE_(sym) ".hidden " sym "\n"
#define EMBED_SIZE_(sym, size) ""
#define EMBED_CLOSE_ ".popsection\n"
#endif

#define EMBED_FILE(name, path)                                                                                       \
    __asm__(EMBED_OPEN_(#name) ".balign 16\n"                                                                        \
            ".globl " #name "_start\n" EMBED_HIDE_(#name "_start") #name "_start:\n"                                 \
            ".incbin \"" path "\"\n" EMBED_SIZE_(#name "_start", ". - " #name "_start")                              \
            ".globl " #name "_end\n" EMBED_HIDE_(#name "_end") #name "_end:\n"                                       \
            ".byte 0\n" EMBED_SIZE_(#name "_end", "1") EMBED_CLOSE_);                                                \
    extern const unsigned char name##_start[];                                                                       \
    extern const unsigned char name##_end[]

#endif
