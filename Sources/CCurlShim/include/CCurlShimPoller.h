// CCurlShimPoller: the engine's waiting, with curl's multi_socket interface and epoll.
//
// curl tells the poller which sockets it waits on (CURLMOPT_SOCKETFUNCTION) and when it next
// wants to run (CURLMOPT_TIMERFUNCTION). The engine thread waits in epoll outside the engine's
// lock; any thread holding that lock may drive curl meanwhile (add a handle, run what is due),
// and wakes the waiter only when curl now wants to run sooner than the waiter will look.
#ifndef CCURLSHIMPOLLER_H
#define CCURLSHIMPOLLER_H

#include <curl/curl.h>

#pragma clang assume_nonnull begin

typedef struct afc_poller afc_poller;

/// A poller for `multi` (installs curl's socket and timer callbacks); NULL when out of resources.
afc_poller *_Nullable afc_poller_create(CURLM *multi);
/// Closes the poller's descriptors and frees it; the multi handle must be cleaned up first.
void afc_poller_destroy(afc_poller *poller);

/// Under the engine's lock, before waiting: how long the wait may last in milliseconds (curl's
/// next deadline, at most `cap_ms`); records the waiter as asleep until then.
int afc_poller_prepare_wait(afc_poller *poller, int cap_ms);
/// Without the lock (engine thread only): waits up to `timeout_ms` for sockets or a wake-up.
void afc_poller_wait(afc_poller *poller, int timeout_ms);
/// Under the lock, after waiting: marks the waiter awake and hands curl every ready socket, then
/// runs curl's timer if it is due.
void afc_poller_act(afc_poller *poller);
/// Under the lock: runs curl's timer if it is due (after adding a handle or unpausing one).
void afc_poller_run_due(afc_poller *poller);
/// Under the lock: whether the waiter sleeps past curl's next deadline and must be woken.
int afc_poller_waiter_is_late(const afc_poller *poller);
/// Under the lock: whether the waiter is asleep in `afc_poller_wait`.
int afc_poller_waiter_sleeps(const afc_poller *poller);
/// Any thread, no lock needed: ends the waiter's current (or next) wait at once.
void afc_poller_wake(afc_poller *poller);

#pragma clang assume_nonnull end

#endif
