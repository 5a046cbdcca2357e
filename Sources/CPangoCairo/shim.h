#ifndef PUSHDECK_CPANGOCAIRO_SHIM_H
#define PUSHDECK_CPANGOCAIRO_SHIM_H
// Pango lays out and cairo draws the text runs that hold emoji, in colour (librsvg 2.54 draws
// text as outlines, so a colour emoji font's bitmaps lose their colour).
#include <pango/pangocairo.h>
#endif
