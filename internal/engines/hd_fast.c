/* hd_fast.c: hipdnnBackendExecute without entering Go.
 *
 * Every call from C into Go passes the Go runtime's cgo-callback path, which takes a lock of
 * the runtime's own (the package-initialisation channel): a bare exported call stops scaling
 * across threads, whatever the backend does. Execute is the one call made per inference step,
 * so a finalized plan and a finalized variant pack are also published here, by token, with
 * what a plain execute needs; hipdnnBackendExecute serves them in C and falls back to the Go
 * path whenever anything is unusual. The one rule: C serves a (plan, pack) pair only after the
 * Go path checked that pair (pack_check.go) and left the plan's context id in the pack's
 * verdicts; the checks and their messages live in Go alone.
 *
 * Safety with garbage and destroyed tokens: a token is only ever compared, never dereferenced.
 * Entries are never freed, only recycled (type-stable memory), so a racing lookup may touch a
 * retired entry but never freed memory. A lookup pins the entry and then re-checks that it
 * still answers for the token; retiring clears the token and waits until the entry is
 * unpinned, so whatever the entry points to (the plugin context, the buffer array) stays valid
 * while a fast call uses it. Both sides use sequentially consistent operations on token and
 * pins, so either the lookup sees the cleared token or the retirer sees the pin.
 *
 * Cost: lookups are lock-free reads of a fixed open-addressing table (bounded probing) and one
 * atomic add per entry; publishing and retiring take one mutex (finalize and destroy only). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "../../capi/fast_execute.h"
#include "shim.h"

enum { HD_FAST_PLAN = 1, HD_FAST_PACK = 2 };

#define HD_FAST_SLOTS 16384 /* power of two; live published tokens beyond ~1/2 use the Go path */
#define HD_FAST_PROBES 32 /* bounded probing: tombstones can never make a lookup long */
#define HD_FAST_TOMB ((uintptr_t)1)

typedef struct hd_fast_entry {
    _Atomic uintptr_t token; /* the token this entry answers for; 0 once retired */
    _Atomic int64_t pins; /* fast calls using the entry now */
    int kind;
    /* plan */
    uintptr_t handle, table, plugin, ctx;
    uint64_t ctx_id;
    /* variant pack */
    uintptr_t buffers, workspace;
    hd_verdicts* verdicts;
    uint32_t nbuffers;
    struct hd_fast_entry* next_free;
} hd_fast_entry;

typedef struct {
    _Atomic uintptr_t key;
    _Atomic(hd_fast_entry*) entry;
} hd_fast_slot;

static hd_fast_slot fast_slots[HD_FAST_SLOTS];
static pthread_mutex_t fast_mu = PTHREAD_MUTEX_INITIALIZER;
static hd_fast_entry* fast_free;
static _Atomic int fast_quiet; /* 1 while INFO logging is off: no API log line is owed */

void hd_fast_set_quiet(int quiet) { atomic_store(&fast_quiet, quiet); }

static size_t fast_hash(uintptr_t t) {
    uint64_t x = (uint64_t)t;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)(x & (HD_FAST_SLOTS - 1));
}

static hd_fast_entry* fast_new_locked(void) {
    hd_fast_entry* e = fast_free;
    if (e != NULL) {
        fast_free = e->next_free;
        return e;
    }
    return (hd_fast_entry*)calloc(1, sizeof(hd_fast_entry));
}

/* Links e under token; 0 when the token is already published or no slot is free nearby. */
static uintptr_t fast_publish(uintptr_t token, hd_fast_entry* proto) {
    if (token <= HD_FAST_TOMB)
        return 0;
    pthread_mutex_lock(&fast_mu);
    size_t i = fast_hash(token), free_slot = HD_FAST_SLOTS;
    for (int p = 0; p < HD_FAST_PROBES; p++, i = (i + 1) & (HD_FAST_SLOTS - 1)) {
        uintptr_t k = atomic_load(&fast_slots[i].key);
        if (k == token) {
            free_slot = HD_FAST_SLOTS; /* already published: keep the first */
            break;
        }
        if ((k == 0 || k == HD_FAST_TOMB) && free_slot == HD_FAST_SLOTS)
            free_slot = i;
        if (k == 0)
            break;
    }
    hd_fast_entry* e = NULL;
    if (free_slot != HD_FAST_SLOTS)
        e = fast_new_locked();
    if (e == NULL) {
        pthread_mutex_unlock(&fast_mu);
        return 0;
    }
    e->kind = proto->kind;
    e->handle = proto->handle;
    e->table = proto->table;
    e->plugin = proto->plugin;
    e->ctx = proto->ctx;
    e->ctx_id = proto->ctx_id;
    e->verdicts = proto->verdicts;
    e->buffers = proto->buffers;
    e->workspace = proto->workspace;
    e->nbuffers = proto->nbuffers;
    e->next_free = NULL;
    atomic_store(&e->token, token); /* after the fields: a reader that sees it sees them */
    atomic_store(&fast_slots[free_slot].entry, e);
    atomic_store(&fast_slots[free_slot].key, token);
    pthread_mutex_unlock(&fast_mu);
    return (uintptr_t)e;
}

uintptr_t hd_fast_publish_plan(uintptr_t token, uintptr_t handle, uintptr_t table, uintptr_t plugin, uintptr_t ctx,
                               uint64_t ctx_id) {
    hd_fast_entry proto = {0};
    proto.kind = HD_FAST_PLAN;
    proto.handle = handle;
    proto.table = table;
    proto.plugin = plugin;
    proto.ctx = ctx;
    proto.ctx_id = ctx_id;
    return fast_publish(token, &proto);
}

uintptr_t hd_fast_publish_pack(uintptr_t token, uintptr_t buffers, uint32_t nbuffers, uintptr_t workspace,
                               uintptr_t verdicts) {
    hd_fast_entry proto = {0};
    proto.kind = HD_FAST_PACK;
    proto.buffers = buffers;
    proto.nbuffers = nbuffers;
    proto.workspace = workspace;
    proto.verdicts = (hd_verdicts*)verdicts;
    return fast_publish(token, &proto);
}

/* Unlinks the token (only if it maps to expect, when expect is not 0), waits until no fast
 * call uses the entry, and recycles it. Returns 1 when something was retired. */
int hd_fast_retire(uintptr_t token, uintptr_t expect) {
    if (token <= HD_FAST_TOMB)
        return 0;
    pthread_mutex_lock(&fast_mu);
    hd_fast_entry* e = NULL;
    size_t i = fast_hash(token);
    for (int p = 0; p < HD_FAST_PROBES; p++, i = (i + 1) & (HD_FAST_SLOTS - 1)) {
        uintptr_t k = atomic_load(&fast_slots[i].key);
        if (k == 0)
            break;
        if (k != token)
            continue;
        e = atomic_load(&fast_slots[i].entry);
        if (expect != 0 && (uintptr_t)e != expect)
            e = NULL;
        else
            atomic_store(&fast_slots[i].key, HD_FAST_TOMB);
        break;
    }
    if (e == NULL) {
        pthread_mutex_unlock(&fast_mu);
        return 0;
    }
    atomic_store(&e->token, 0);
    pthread_mutex_unlock(&fast_mu);
    for (int spins = 0; atomic_load(&e->pins) != 0; spins++)
        if (spins > 64)
            sched_yield();
    pthread_mutex_lock(&fast_mu);
    e->verdicts = NULL;
    e->next_free = fast_free;
    fast_free = e;
    pthread_mutex_unlock(&fast_mu);
    return 1;
}

/* hd_fast_published reports (without locking) whether a token may be published, so that the
 * destroy of an ordinary descriptor does not take the mutex. */
int hd_fast_published(uintptr_t token) {
    if (token <= HD_FAST_TOMB)
        return 0;
    size_t i = fast_hash(token);
    for (int p = 0; p < HD_FAST_PROBES; p++, i = (i + 1) & (HD_FAST_SLOTS - 1)) {
        uintptr_t k = atomic_load(&fast_slots[i].key);
        if (k == token)
            return 1;
        if (k == 0)
            return 0;
    }
    return 0;
}

static hd_fast_entry* fast_pin(uintptr_t token, int kind) {
    if (token <= HD_FAST_TOMB)
        return NULL;
    size_t i = fast_hash(token);
    for (int p = 0; p < HD_FAST_PROBES; p++, i = (i + 1) & (HD_FAST_SLOTS - 1)) {
        uintptr_t k = atomic_load_explicit(&fast_slots[i].key, memory_order_acquire);
        if (k == 0)
            return NULL;
        if (k != token)
            continue;
        hd_fast_entry* e = atomic_load_explicit(&fast_slots[i].entry, memory_order_acquire);
        if (e == NULL)
            return NULL;
        atomic_fetch_add(&e->pins, 1);
        if (atomic_load(&e->token) == token && e->kind == kind)
            return e;
        atomic_fetch_sub(&e->pins, 1);
        return NULL;
    }
    return NULL;
}

static void fast_unpin(hd_fast_entry* e) { atomic_fetch_sub_explicit(&e->pins, 1, memory_order_release); }

/* fast_checked reports whether the Go path checked this (plan, pack) pair. */
static int fast_checked(const hd_fast_entry* plan, const hd_fast_entry* pack) {
    for (int i = 0; i < HD_VERDICTS; i++)
        if (__atomic_load_n(&pack->verdicts->ctx[i], __ATOMIC_ACQUIRE) == plan->ctx_id)
            return 1;
    return 0;
}

int hd_fast_execute(uintptr_t handle, uintptr_t plan, uintptr_t pack, int* plugin_status, char** plugin_error) {
    if (!atomic_load_explicit(&fast_quiet, memory_order_relaxed))
        return HD_FAST_NOT_HANDLED;
    hd_fast_entry* p = fast_pin(plan, HD_FAST_PLAN);
    if (p == NULL)
        return HD_FAST_NOT_HANDLED;
    hd_fast_entry* v = NULL;
    if (p->handle != handle || (v = fast_pin(pack, HD_FAST_PACK)) == NULL) {
        fast_unpin(p);
        return HD_FAST_NOT_HANDLED;
    }
    if (!fast_checked(p, v)) {
        fast_unpin(v);
        fast_unpin(p);
        return HD_FAST_NOT_HANDLED; /* first use of the pair: the Go path checks it */
    }
    hd_result r = hd_execute(p->table, p->plugin, p->ctx, v->workspace, v->buffers, v->nbuffers);
    fast_unpin(v);
    fast_unpin(p);
    if (r.status == 0)
        return HD_FAST_DONE;
    *plugin_status = r.status;
    *plugin_error = r.err;
    return HD_FAST_PLUGIN_FAILED;
}
