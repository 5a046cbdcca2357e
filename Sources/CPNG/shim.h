#ifndef PUSHDECK_CPNG_SHIM_H
#define PUSHDECK_CPNG_SHIM_H
// Decodes a PNG in memory to 8-bit RGB through libpng, without ever exiting or crashing on a bad
// file: libpng's errors go to pushdeck_png_error_fn, which longjmps back to the setjmp in
// pushdeck_png_decode_rgb with the message kept for Swift. Swift cannot call setjmp itself, so
// the whole decode lives here.
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  jmp_buf jump;
  char message[256];
} pushdeck_png_failure;

typedef struct {
  const unsigned char *data;
  size_t size;
  size_t offset;
} pushdeck_png_source;

static void pushdeck_png_error_fn(png_structp png, png_const_charp message) {
  pushdeck_png_failure *failure = (pushdeck_png_failure *)png_get_error_ptr(png);
  strncpy(failure->message, message ? message : "libpng error", sizeof failure->message - 1);
  failure->message[sizeof failure->message - 1] = 0;
  longjmp(failure->jump, 1);
}

static void pushdeck_png_warning_fn(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;  // warnings never reach the terminal
}

static void pushdeck_png_read_fn(png_structp png, png_bytep out, png_size_t count) {
  pushdeck_png_source *source = (pushdeck_png_source *)png_get_io_ptr(png);
  if (source->size - source->offset < count) png_error(png, "the file ends early (truncated)");
  memcpy(out, source->data + source->offset, count);
  source->offset += count;
}

/// Decodes `size` bytes of PNG into malloc'ed RGB rows (*pixels, width*height*3 bytes; free()
/// it). Returns 0 on success; otherwise 1 with a message in `error` (capacity `errorSize`).
/// Images wider or taller than `maxSide` are refused before any pixel is allocated.
static inline int pushdeck_png_decode_rgb(
    const unsigned char *data, size_t size, unsigned maxSide, unsigned char **pixels, unsigned *width,
    unsigned *height, char *error, size_t errorSize) {
  *pixels = NULL;
  *width = 0;
  *height = 0;
  if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
    strncpy(error, "not a PNG file (no PNG signature)", errorSize - 1);
    error[errorSize - 1] = 0;
    return 1;
  }
  pushdeck_png_failure failure;
  failure.message[0] = 0;
  pushdeck_png_source source = {data, size, 0};
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, pushdeck_png_error_fn, pushdeck_png_warning_fn);
  if (!png) {
    strncpy(error, "libpng could not start", errorSize - 1);
    error[errorSize - 1] = 0;
    return 1;
  }
  png_infop info = png_create_info_struct(png);
  unsigned char *volatile rgb = NULL;
  png_bytep *volatile rows = NULL;
  if (!info || setjmp(failure.jump)) {
    free(rgb);
    free(rows);
    png_destroy_read_struct(&png, info ? &info : NULL, NULL);
    strncpy(error, failure.message[0] ? failure.message : "libpng failed", errorSize - 1);
    error[errorSize - 1] = 0;
    return 1;
  }
  png_set_read_fn(png, &source, pushdeck_png_read_fn);
  png_set_user_limits(png, maxSide, maxSide);
  png_read_info(png, info);
  png_uint_32 w = png_get_image_width(png, info);
  png_uint_32 h = png_get_image_height(png, info);
  int colorType = png_get_color_type(png, info);
  int bitDepth = png_get_bit_depth(png, info);
  if (bitDepth == 16) png_set_strip_16(png);
  if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (colorType == PNG_COLOR_TYPE_GRAY && bitDepth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (colorType == PNG_COLOR_TYPE_GRAY || colorType == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  // Transparency is composited over black, as a thumbnail on a dark card.
  png_color_16 black = {0, 0, 0, 0, 0};
  png_set_background(png, &black, PNG_BACKGROUND_GAMMA_SCREEN, 0, 1.0);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  size_t rowBytes = png_get_rowbytes(png, info);
  if (rowBytes != (size_t)w * 3) png_error(png, "unsupported PNG pixel layout");
  rgb = (unsigned char *)malloc(rowBytes * h);
  rows = (png_bytep *)malloc(sizeof(png_bytep) * h);
  if (!rgb || !rows) png_error(png, "out of memory");
  for (png_uint_32 y = 0; y < h; y++) rows[y] = rgb + y * rowBytes;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  free(rows);
  png_destroy_read_struct(&png, &info, NULL);
  *pixels = rgb;
  *width = w;
  *height = h;
  return 0;
}

#endif
