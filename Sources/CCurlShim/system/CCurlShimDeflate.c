#include "CCurlShimDeflate.h"

#include <zlib.h>

size_t afc_zlib_bound(size_t length) {
    return (size_t)compressBound((uLong)length);
}

int afc_zlib_compress(const unsigned char *input, size_t length, unsigned char *output, size_t *output_length) {
    uLongf produced = (uLongf)*output_length;
    if (compress2(output, &produced, input, (uLong)length, Z_DEFAULT_COMPRESSION) != Z_OK) {
        return 0;
    }
    *output_length = (size_t)produced;
    return 1;
}
