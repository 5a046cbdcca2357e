#ifndef PUSHDECK_CNCURSESW_SHIM_H
#define PUSHDECK_CNCURSESW_SHIM_H
// SwiftPM drops pkg-config's -D flags, so the wide-character API must be switched on here.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <stdio.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <langinfo.h>

// wcwidth is not visible from Swift without an explicit declaration (architecture.md 5.3).
extern int wcwidth(wchar_t c);

// Macros do not import into Swift; these wrappers expose what the backend needs.
static inline attr_t pushdeck_a_normal(void) { return A_NORMAL; }
static inline attr_t pushdeck_a_bold(void) { return A_BOLD; }
static inline attr_t pushdeck_a_dim(void) { return A_DIM; }
static inline attr_t pushdeck_a_italic(void) { return A_ITALIC; }
static inline attr_t pushdeck_a_underline(void) { return A_UNDERLINE; }
static inline attr_t pushdeck_a_reverse(void) { return A_REVERSE; }
static inline attr_t pushdeck_color_pair(int pair) { return COLOR_PAIR(pair); }

// The global stdscr is rejected by Swift 6's concurrency checking; read it through a function.
static inline WINDOW *pushdeck_stdscr(void) { return stdscr; }
// COLORS and COLOR_PAIRS are globals too.
static inline int pushdeck_colors(void) { return COLORS; }
static inline int pushdeck_color_pairs(void) { return COLOR_PAIRS; }
static inline int pushdeck_lines(void) { return LINES; }
static inline int pushdeck_cols(void) { return COLS; }

// setcchar takes the colour pair as a short plus an optional int through `opts`;
// this wrapper passes extended pairs (> 32767) correctly.
static inline int pushdeck_setcchar(cchar_t *cell, const wchar_t *text, attr_t attrs, int pair) {
  return setcchar(cell, text, attrs, (short)(pair > 32767 ? 0 : pair), &pair);
}
// Mouse: button 1 clicks and the wheel (buttons 4 and 5), and one event read as plain ints.
static inline void pushdeck_enable_mouse(void) {
  mmask_t mask = BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
  mask |= BUTTON5_PRESSED;
#endif
  mousemask(mask, NULL);
  mouseinterval(200);
}
static inline int pushdeck_key_mouse(void) { return KEY_MOUSE; }
// 1 click, 2 double click, 4 wheel up, 5 wheel down, 0 anything else; -1 when no event.
static inline int pushdeck_get_mouse(int *x, int *y) {
  MEVENT event;
  if (getmouse(&event) != OK) return -1;
  *x = event.x;
  *y = event.y;
  if (event.bstate & BUTTON1_DOUBLE_CLICKED) return 2;
  if (event.bstate & BUTTON1_CLICKED) return 1;
  if (event.bstate & BUTTON4_PRESSED) return 4;
#ifdef BUTTON5_PRESSED
  if (event.bstate & BUTTON5_PRESSED) return 5;
#endif
  return 0;
}
// What terminfo says about a terminal type, without starting a screen: 1 a screen ncurses can
// draw on (it can move the cursor), 2 a terminal that cannot (dumb, hardcopy), 0 a type
// terminfo does not know, -1 no terminfo database at all.
static inline int pushdeck_terminal_kind(const char *name) {
  int status = 0;
  TERMINAL *previous = cur_term;
  if (setupterm(name, 1, &status) != OK) return status == -1 ? -1 : 0;
  char *cup = tigetstr("cup");
  int hardcopy = tigetflag("hc");
  int drawable = cup != NULL && cup != (char *)-1 && hardcopy <= 0;
  del_curterm(cur_term);
  set_curterm(previous);
  return drawable ? 1 : 2;
}
// The character set of the current locale (LC_CTYPE), such as "UTF-8" or "ANSI_X3.4-1968".
static inline const char *pushdeck_codeset(void) { return nl_langinfo(CODESET); }
#endif
