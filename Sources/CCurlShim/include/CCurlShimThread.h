#ifndef CCURLSHIM_THREAD_H
#define CCURLSHIM_THREAD_H

/// Names the calling thread (as `ps -L`, `top -H`, perf and debuggers show it); the kernel keeps
/// the first 15 bytes.
void afc_name_current_thread(const char *name);

/// The CPU the calling thread runs on now (-1 when unknown).
int afc_current_cpu(void);

#endif
