#ifndef PUSHDECK_CRSVG_SHIM_H
#define PUSHDECK_CRSVG_SHIM_H
// librsvg renders SVG through cairo; pushdeck draws its mockups' PNGs with it in-process (the
// SVG text never reaches a shell).
#include <cairo.h>
#include <librsvg/rsvg.h>
#endif
