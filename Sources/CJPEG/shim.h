#ifndef PUSHDECK_CJPEG_SHIM_H
#define PUSHDECK_CJPEG_SHIM_H
// Decodes a JPEG in memory to 8-bit RGB through libjpeg. libjpeg's default error handler calls
// exit(); here error_exit formats the message and longjmps back to the setjmp in
// pushdeck_jpeg_decode_rgb, so a bad file becomes a message, never an exit or a crash.
#include <stdio.h>  // jpeglib.h needs FILE and size_t first
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
} pushdeck_jpeg_failure;

static void pushdeck_jpeg_error_exit(j_common_ptr info) {
  pushdeck_jpeg_failure *failure = (pushdeck_jpeg_failure *)info->err;
  (*info->err->format_message)(info, failure->message);
  longjmp(failure->jump, 1);
}

static void pushdeck_jpeg_output_message(j_common_ptr info) {
  (void)info;  // warnings never reach the terminal
}

/// Decodes `size` bytes of JPEG into malloc'ed RGB rows (*pixels, width*height*3 bytes; free()
/// it), scaled down by libjpeg (1/2, 1/4 or 1/8) while the result stays at least `minSide`
/// pixels on its shorter side. Returns 0 on success; otherwise 1 with a message in `error`.
/// Images wider or taller than `maxSide` are refused before any pixel is allocated.
static inline int pushdeck_jpeg_decode_rgb(
    const unsigned char *data, size_t size, unsigned minSide, unsigned maxSide, unsigned char **pixels,
    unsigned *width, unsigned *height, char *error, size_t errorSize) {
  *pixels = NULL;
  *width = 0;
  *height = 0;
  if (size < 3 || data[0] != 0xFF || data[1] != 0xD8 || data[2] != 0xFF) {
    strncpy(error, "not a JPEG file (no JPEG marker)", errorSize - 1);
    error[errorSize - 1] = 0;
    return 1;
  }
  struct jpeg_decompress_struct info;
  pushdeck_jpeg_failure failure;
  failure.message[0] = 0;
  unsigned char *volatile rgb = NULL;
  info.err = jpeg_std_error(&failure.manager);
  failure.manager.error_exit = pushdeck_jpeg_error_exit;
  failure.manager.output_message = pushdeck_jpeg_output_message;
  if (setjmp(failure.jump)) {
    jpeg_destroy_decompress(&info);
    free(rgb);
    strncpy(error, failure.message[0] ? failure.message : "libjpeg failed", errorSize - 1);
    error[errorSize - 1] = 0;
    return 1;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, (unsigned char *)data, (unsigned long)size);
  jpeg_read_header(&info, TRUE);
  if (info.image_width > maxSide || info.image_height > maxSide) {
    snprintf(failure.message, sizeof failure.message, "the image is %ux%u pixels; at most %ux%u are decoded",
             (unsigned)info.image_width, (unsigned)info.image_height, maxSide, maxSide);
    longjmp(failure.jump, 1);
  }
  info.out_color_space = JCS_RGB;
  unsigned shorter = info.image_width < info.image_height ? info.image_width : info.image_height;
  unsigned denominator = 1;
  while (denominator < 8 && shorter / (denominator * 2) >= minSide) denominator *= 2;
  info.scale_num = 1;
  info.scale_denom = denominator;
  jpeg_start_decompress(&info);
  if (info.output_components != 3) {
    strncpy(failure.message, "unsupported JPEG colour layout", sizeof failure.message - 1);
    longjmp(failure.jump, 1);
  }
  size_t rowBytes = (size_t)info.output_width * 3;
  rgb = (unsigned char *)malloc(rowBytes * info.output_height);
  if (!rgb) {
    strncpy(failure.message, "out of memory", sizeof failure.message - 1);
    longjmp(failure.jump, 1);
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = rgb + (size_t)info.output_scanline * rowBytes;
    jpeg_read_scanlines(&info, &row, 1);
  }
  *width = info.output_width;
  *height = info.output_height;
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  *pixels = rgb;
  return 0;
}

#endif
