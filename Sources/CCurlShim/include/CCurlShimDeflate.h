// Deflate: zlib compression of request bodies (DeflateRequestCompressor), so AF needs no
// Swift zlib binding.
#ifndef CCURLSHIM_DEFLATE_H
#define CCURLSHIM_DEFLATE_H

#include <stddef.h>

/// The most bytes a zlib stream of `length` input bytes can take.
size_t afc_zlib_bound(size_t length);

/// Compresses `length` bytes at `input` into a zlib stream (RFC 1950: header, deflate data,
/// Adler-32) at `output`, which holds `*output_length` bytes; on success returns 1 and sets
/// `*output_length` to the stream's length, else returns 0.
int afc_zlib_compress(const unsigned char *input, size_t length, unsigned char *output, size_t *output_length);

#endif
