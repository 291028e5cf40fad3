#ifndef CCURLSHIM_THREAD_H
#define CCURLSHIM_THREAD_H

/// Names the calling thread (as `ps -L`, `top -H`, perf and debuggers show it); the kernel keeps
/// the first 15 bytes.
void afc_name_current_thread(const char *name);

#endif
