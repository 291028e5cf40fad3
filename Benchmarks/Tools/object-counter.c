// Counts the Swift objects a process makes (swift_allocObject), by kind and by the function
// that made them, in a process it is preloaded into (LD_PRELOAD). At exit it writes one line
// per kind and making function: count, size in bytes of the first one, module, offset of the
// return address, and the class name (a closure context or box has none) to $OC_OUT;
// scripts/count-objects.sh names the functions and subtracts a short run from a long one.
// The function is the runtime's caller: an object made through a runtime or standard library
// helper (a box, an array's storage) shows under that helper.
// A profiling tool: one global lock makes the counted process slower, never faster.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef void *(*alloc_object_fn)(void *metadata, size_t size, size_t alignMask);
typedef struct { const char *data; uintptr_t length; } TypeName;

struct kind { void *metadata, *returnAddress; size_t size; uint64_t count; };

#define KIND_SLOTS (1u << 16)
#define PROBES 64

static alloc_object_fn realAllocObject;
static struct kind kinds[KIND_SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counting = 1;

static void note(void *metadata, size_t size, void *returnAddress) {
    uint64_t hash = (((uintptr_t)metadata >> 3) ^ ((uintptr_t)returnAddress * 31)) * 0x9E3779B97F4A7C15ull;
    pthread_mutex_lock(&lock);
    if (!counting) {
        pthread_mutex_unlock(&lock);
        return;
    }
    for (uint32_t probe = 0; probe < PROBES; probe++) {
        struct kind *kind = &kinds[(hash + probe) & (KIND_SLOTS - 1)];
        if (kind->metadata == NULL) {
            kind->metadata = metadata;
            kind->returnAddress = returnAddress;
            kind->size = size;
        }
        if (kind->metadata == metadata && kind->returnAddress == returnAddress) {
            kind->count++;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

void *swift_allocObject(void *metadata, size_t size, size_t alignMask) {
    if (!realAllocObject) realAllocObject = (alloc_object_fn)dlsym(RTLD_NEXT, "swift_allocObject");
    note(metadata, size, __builtin_return_address(0));
    return realAllocObject(metadata, size, alignMask);
}

static int byCount(const void *a, const void *b) {
    uint64_t x = ((const struct kind *)a)->count, y = ((const struct kind *)b)->count;
    return x < y ? 1 : x > y ? -1 : 0;
}

__attribute__((destructor)) static void report(void) {
    // Threads still running at exit stop counting before the table is sorted.
    pthread_mutex_lock(&lock);
    counting = 0;
    pthread_mutex_unlock(&lock);
    TypeName (*typeName)(void *, int) = (TypeName (*)(void *, int))dlsym(RTLD_DEFAULT, "swift_getTypeName");
    const char *path = getenv("OC_OUT");
    FILE *out = fopen(path ? path : "objects.txt", "w");
    if (!out) return;
    qsort(kinds, KIND_SLOTS, sizeof *kinds, byCount);
    for (uint32_t rank = 0; rank < KIND_SLOTS && kinds[rank].metadata; rank++) {
        struct kind *kind = &kinds[rank];
        // Class metadata (kind 0, or an isa pointer) has a name; a closure context or box does not.
        uintptr_t metadataKind = *(uintptr_t *)kind->metadata;
        char name[200] = "";
        if (typeName && (metadataKind == 0 || metadataKind > 0x7ff)) {
            TypeName found = typeName(kind->metadata, 1);
            snprintf(name, sizeof name, "%.*s", (int)(found.length < 190 ? found.length : 190), found.data);
        } else {
            snprintf(name, sizeof name, "(metadata kind 0x%lx)", (unsigned long)metadataKind);
        }
        Dl_info info;
        const char *module = "?";
        unsigned long offset = 0;
        if (dladdr(kind->returnAddress, &info) && info.dli_fname) {
            module = info.dli_fname;
            offset = (unsigned long)((uintptr_t)kind->returnAddress - (uintptr_t)info.dli_fbase);
        }
        fprintf(out, "%lu\t%zu\t%s\t0x%lx\t%s\n", (unsigned long)kind->count, kind->size, module, offset, name);
    }
    fclose(out);
}
