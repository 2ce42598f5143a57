#ifndef TL_CNCURSESW_SHIM_H
#define TL_CNCURSESW_SHIM_H
// SwiftPM drops pkg-config's -D flags; without this cchar_t, mvadd_wch and setcchar are missing.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>

// wcwidth is declared only under _XOPEN_SOURCE, which the Swift Glibc module does not define.
static inline int tl_wcwidth(wchar_t c) { return wcwidth(c); }
// Swift 6 rejects reading C globals: stdscr, COLORS, COLOR_PAIRS through functions.
static inline WINDOW *tl_stdscr(void) { return stdscr; }
static inline int tl_colors(void) { return COLORS; }
static inline int tl_color_pairs(void) { return COLOR_PAIRS; }
// getmaxyx is a macro.
static inline void tl_getmaxyx(WINDOW *w, int *y, int *x) { int yy, xx; getmaxyx(w, yy, xx); *y = yy; *x = xx; }
// A_* attributes are macros built from NCURSES_BITS.
static inline attr_t tl_a_normal(void) { return A_NORMAL; }
static inline attr_t tl_a_bold(void) { return A_BOLD; }
static inline attr_t tl_a_dim(void) { return A_DIM; }
static inline attr_t tl_a_reverse(void) { return A_REVERSE; }
static inline attr_t tl_a_underline(void) { return A_UNDERLINE; }
// Mouse event masks are macros built from NCURSES_MOUSE_MASK.
static inline mmask_t tl_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t tl_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t tl_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t tl_button5_pressed(void) { return BUTTON5_PRESSED; }

#endif
