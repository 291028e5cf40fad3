// Counts swift_retain and swift_release per object, and which functions made the retains, in a
// process it is preloaded into (LD_PRELOAD). At exit it writes the most retained objects, with
// their class names, to $RC_OUT, and for each of them the return addresses that retained it
// (module and offset) to $RC_CALLERS; scripts/count-retains.sh names those functions.
// A profiling tool: one global lock makes the counted process much slower, never faster.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef void *(*retain_fn)(void *);
typedef void (*release_fn)(void *);
typedef void *(*retain_n_fn)(void *, uint32_t);
typedef void (*release_n_fn)(void *, uint32_t);
typedef struct { const char *data; uintptr_t length; } TypeName;

static retain_fn real_retain;
static release_fn real_release;
static retain_n_fn real_retain_n;
static release_n_fn real_release_n;

#define OBJECT_SLOTS (1u << 22)
#define CALLER_SLOTS (1u << 16)
#define PROBES 64
// An object's callers are recorded once it has been retained this often: only shared objects.
#define CALLERS_FROM 3000

struct object { void *address; void *metadata; uint64_t retains, releases; };
struct caller { void *address, *returnAddress; uint64_t retains; };
static struct object *objects;
static struct caller *callers;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counting;
static uint64_t totalRetains, totalReleases;

static void resolve(void) {
    if (real_retain) return;
    real_retain = (retain_fn)dlsym(RTLD_NEXT, "swift_retain");
    real_release = (release_fn)dlsym(RTLD_NEXT, "swift_release");
    real_retain_n = (retain_n_fn)dlsym(RTLD_NEXT, "swift_retain_n");
    real_release_n = (release_n_fn)dlsym(RTLD_NEXT, "swift_release_n");
}

__attribute__((constructor)) static void start(void) {
    resolve();
    objects = calloc(OBJECT_SLOTS, sizeof *objects);
    callers = calloc(CALLER_SLOTS, sizeof *callers);
    counting = objects && callers;
}

static uint64_t mix(uintptr_t value) { return (value >> 4) * 0x9E3779B97F4A7C15ull; }

static void count(void *address, int isRetain, uint32_t n, void *returnAddress) {
    if (!counting || (uintptr_t)address < 4096) return;
    pthread_mutex_lock(&lock);
    if (!counting) {
        pthread_mutex_unlock(&lock);
        return;
    }
    if (isRetain) totalRetains += n; else totalReleases += n;
    uint64_t hash = mix((uintptr_t)address);
    for (uint32_t probe = 0; probe < PROBES; probe++) {
        struct object *object = &objects[(hash + probe) & (OBJECT_SLOTS - 1)];
        if (object->address != NULL && object->address != address) continue;
        if (object->address == NULL) { object->address = address; object->metadata = *(void **)address; }
        if (!isRetain) { object->releases += n; break; }
        object->retains += n;
        if (object->retains < CALLERS_FROM) break;
        uint64_t callerHash = mix((uintptr_t)address ^ ((uintptr_t)returnAddress * 31));
        for (uint32_t step = 0; step < PROBES; step++) {
            struct caller *caller = &callers[(callerHash + step) & (CALLER_SLOTS - 1)];
            if (caller->address == NULL) { caller->address = address; caller->returnAddress = returnAddress; }
            if (caller->address == address && caller->returnAddress == returnAddress) { caller->retains += n; break; }
        }
        break;
    }
    pthread_mutex_unlock(&lock);
}

void *swift_retain(void *object) { resolve(); count(object, 1, 1, __builtin_return_address(0)); return real_retain(object); }
void swift_release(void *object) { resolve(); count(object, 0, 1, NULL); real_release(object); }
void *swift_retain_n(void *object, uint32_t n) { resolve(); count(object, 1, n, __builtin_return_address(0)); return real_retain_n(object, n); }
void swift_release_n(void *object, uint32_t n) { resolve(); count(object, 0, n, NULL); real_release_n(object, n); }

static int byRetains(const void *a, const void *b) {
    uint64_t x = ((const struct object *)a)->retains, y = ((const struct object *)b)->retains;
    return x < y ? 1 : x > y ? -1 : 0;
}

__attribute__((destructor)) static void report(void) {
    if (!counting) return;
    // Threads still running at exit stop counting before the table is sorted.
    pthread_mutex_lock(&lock);
    counting = 0;
    pthread_mutex_unlock(&lock);
    TypeName (*typeName)(void *, int) = (TypeName (*)(void *, int))dlsym(RTLD_DEFAULT, "swift_getTypeName");
    const char *outPath = getenv("RC_OUT"), *callersPath = getenv("RC_CALLERS");
    FILE *out = fopen(outPath ? outPath : "retains.txt", "w");
    FILE *callerOut = fopen(callersPath ? callersPath : "retain-callers.txt", "w");
    if (!out || !callerOut) return;
    fprintf(out, "total retains %lu releases %lu\n", totalRetains, totalReleases);
    qsort(objects, OBJECT_SLOTS, sizeof *objects, byRetains);
    for (int rank = 0; rank < 60 && objects[rank].address; rank++) {
        struct object *object = &objects[rank];
        // Class metadata (kind 0, or an isa pointer) has a name; a closure context or box does not.
        uintptr_t kind = object->metadata ? *(uintptr_t *)object->metadata : 0;
        char name[200] = "";
        if (typeName && object->metadata && (kind == 0 || kind > 0x7ff)) {
            TypeName found = typeName(object->metadata, 1);
            snprintf(name, sizeof name, "%.*s", (int)(found.length < 190 ? found.length : 190), found.data);
        } else {
            snprintf(name, sizeof name, "(metadata kind 0x%lx)", kind);
        }
        fprintf(out, "%10lu %10lu %p %s\n", object->retains, object->releases, object->address, name);
        if (rank >= 25) continue;
        for (uint32_t slot = 0; slot < CALLER_SLOTS; slot++) {
            struct caller *caller = &callers[slot];
            if (caller->address != object->address) continue;
            Dl_info info;
            if (dladdr(caller->returnAddress, &info) && info.dli_fname) {
                fprintf(callerOut, "%p %lu %s 0x%lx\n", caller->address, caller->retains, info.dli_fname,
                        (unsigned long)((uintptr_t)caller->returnAddress - (uintptr_t)info.dli_fbase));
            }
        }
    }
    fclose(out);
    fclose(callerOut);
}
