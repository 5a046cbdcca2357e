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
#include <ncursesw/curses.h>
#endif
