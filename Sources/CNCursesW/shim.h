#ifndef TL_CNCURSESW_SHIM_H
#define TL_CNCURSESW_SHIM_H
// SwiftPM drops pkg-config's -D flags; without this cchar_t, mvadd_wch and setcchar are missing.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <langinfo.h>
#include <ncursesw/term.h>

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
// setupterm, tigetstr and cur_term come from term.h as a C global and (char *)-1 sentinels: 1 when
// terminfo describes `name` as a screen that can address the cursor (not dumb, not hardcopy), 0 when it
// cannot, below 0 when setupterm failed (its error code - 10: -10 not found, -11 no terminfo database).
static inline int tl_terminal_can_draw(const char *name) {
    int err = 0;
    TERMINAL *saved = cur_term;
    if (setupterm(name, -1, &err) != OK) { set_curterm(saved); return err - 10; }
    char *cup = tigetstr("cup");
    int ok = cup != NULL && cup != (char *)-1 && tigetflag("hc") <= 0;
    del_curterm(cur_term);
    set_curterm(saved);
    return ok;
}
// The byte sequence terminfo lists for a string capability of `name` (NULL when absent), for tests.
static inline const char *tl_terminfo_string(const char *name, const char *cap) {
    int err = 0;
    if (setupterm(name, -1, &err) != OK) return NULL;
    char *value = tigetstr(cap);
    return value == (char *)-1 ? NULL : value;
}
// nl_langinfo(CODESET) after setlocale: the charset the terminal's locale uses ("UTF-8", "ANSI_X3.4-1968").
static inline const char *tl_locale_codeset(void) { return nl_langinfo(CODESET); }

#endif
