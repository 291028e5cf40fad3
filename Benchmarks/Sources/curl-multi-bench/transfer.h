#ifndef CURL_MULTI_BENCH_TRANSFER_H
#define CURL_MULTI_BENCH_TRANSFER_H

/// Runs one large-body workload (`download`, `upload-file`, `upload-multipart`) and prints its
/// result line; returns the process exit status.
int run_transfer(const char *mode, const char *url, const char *path);

#endif
