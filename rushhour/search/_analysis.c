/* The cluster analysis of rushhour.search.analysis, compiled: a board's whole reachable set and every
 * position's distance to its nearest win, without handing each position back to Python.
 *
 * analyze(spec, start, max_states, seconds, edge_bytes, poll=None) -> (status, size, won, histogram,
 *                                                                      hardest, start_distance, smallest)
 *   status 1: done; 2: max_states (> 0) or the time limit (seconds > 0) stopped it, or poll answered
 *   true (the rest None).  poll: None, or a callable called as poll(stage, done) at most every
 *   POLL_MILLISECONDS while the analysis runs: STAGE_FOUND while the cluster is collected (done: the
 *   positions found so far), STAGE_DISTANCES while the distances are given (done: the positions given
 *   theirs).
 *   size: the positions of the cluster; won: how many of them are won; histogram: a tuple, the count
 *   of positions at each distance to the nearest win (empty when none is won); hardest: the farthest
 *   position (the smallest state among ties, states compared offset by offset as the search keys
 *   compare); start_distance: the start's distance (-1 when no win is reachable); smallest: the
 *   smallest state of the cluster (its key; also the hardest when no win is reachable).
 *
 * The same answer as rushhour.search.analysis.analyze_python, which tests/test_search_native.py
 * compares it with: one breadth-first search collects the cluster (the rules of _native.c: slides()),
 * a second one from all its won positions at once gives the distances (moves are reversible).
 *
 * analyze(..., edge_bytes): the first search may keep the moves it finds (each position's neighbours'
 * indices, 4 bytes a move) in at most edge_bytes bytes; the second then walks them instead of making
 * every move and looking every position up again.  When they would not fit, they are dropped and the
 * second search makes the moves (the answer is the same either way).
 */
#include "_native.h"

#include <stdlib.h>
#include <string.h>

/* The cluster in the store of _native.c; each position's value is its distance to the nearest win
 * (-1 until the second search reaches it). */

/* calls visit(st, z, successor index or -1 when new, state, hash) for each move from position z */
typedef int (*Visit)(Store *st, size_t z, int64_t at, const unsigned char *state, uint64_t hash, void *data);

/* A position's moves are looked up in chunks of at least ANALYSIS_CHUNK (or all of them): the table
 * slot of each is asked of memory as the move is found (PREFETCH) and read once the chunk is complete,
 * so that the slots come from memory together rather than one after another (on 9x9 the analysis takes
 * about a tenth less time for it, docs/benchmarks.md).  The moves are visited in the order slides()
 * gives them. */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)(address))
#endif

/* visit the m moves of position z (whose offsets are in state) that vehicles who[i] slide to to[i] */
static int visit_chunk(Store *st, size_t z, Visit visit, void *data, unsigned char *state,
                       const unsigned char *who, const unsigned char *to, const uint64_t *hash, int m) {
    for (int i = 0; i < m; i++) {
        unsigned char was = state[who[i]];
        state[who[i]] = to[i];
        int got = visit(st, z, store_find(st, state, hash[i]), state, hash[i], data);
        state[who[i]] = was;
        if (got) return got;
    }
    return 0;
}

static int each_move(const Spec *s, Store *st, size_t z, Visit visit, void *data) {
    /* a chunk is cut once it holds ANALYSIS_CHUNK moves: one vehicle adds at most 30 (two 15-cell runs) */
    unsigned char grid[MAX_CELLS], state[MAX_VEHICLES], who[ANALYSIS_CHUNK + 32], to[ANALYSIS_CHUNK + 32];
    uint64_t hash[ANALYSIS_CHUNK + 32];
    int moves[32], m = 0;
    memcpy(state, st->states + z * (size_t)s->n, (size_t)s->n);
    uint64_t here = st->hash[z];
    fill_grid(s, state, grid);
    for (int v = 0; v < s->n; v++) {
        int offset = state[v];
        int count = slides(s, grid, v, offset, moves);
        for (int i = 0; i < count; i++, m++) {
            who[m] = (unsigned char)v;
            to[m] = (unsigned char)moves[i];
            hash[m] = here ^ s->zobrist[v][offset] ^ s->zobrist[v][moves[i]];
            PREFETCH(&st->table[hash[m] & (st->slots - 1)]);
        }
        if (m >= ANALYSIS_CHUNK) {
            int got = visit_chunk(st, z, visit, data, state, who, to, hash, m);
            if (got) return got;
            m = 0;
        }
    }
    return visit_chunk(st, z, visit, data, state, who, to, hash, m);
}

/* The moves between the cluster's positions, as the first search finds them: the neighbours of position
 * z are next[first[z]] to next[first[z + 1] - 1]. */
typedef struct {
    uint32_t *next, *first;
    size_t count, capacity, budget; /* moves kept; room for them; bytes allowed (0: none kept) */
    int kept;                       /* 0 once they were dropped */
} Edges;

static void edges_drop(Edges *e) {
    free(e->next);
    free(e->first);
    e->next = e->first = NULL;
    e->kept = 0;
}

static void edges_add(Edges *e, size_t to) {
    if (!e->kept) return;
    if (e->count == e->capacity) {
        size_t cap = e->capacity ? 2 * e->capacity : 4096;
        uint32_t *next = cap * sizeof(uint32_t) <= e->budget ? realloc(e->next, cap * sizeof(uint32_t)) : NULL;
        if (!next) {
            edges_drop(e);
            return;
        }
        e->next = next;
        e->capacity = cap;
    }
    e->next[e->count++] = (uint32_t)to;
}

static int collect(Store *st, size_t z, int64_t at, const unsigned char *state, uint64_t hash, void *data) {
    (void)z;
    if (at < 0) {
        at = store_insert(st, state, hash, -1);
        if (at == -2) return -1;
    }
    edges_add(data, (size_t)at);
    return 0;
}

typedef struct {
    size_t *queue, tail;
} Rings;

static int spread_distance(Store *st, size_t z, int64_t at, const unsigned char *state, uint64_t hash, void *data) {
    (void)state, (void)hash;
    Rings *r = data;
    if (at < 0 || st->value[at] >= 0) return 0;
    st->value[at] = st->value[z] + 1;
    r->queue[r->tail++] = (size_t)at;
    return 0;
}

/* the whole cluster of the start (already stored), its moves kept in e while they fit: 1 done, 2 a limit,
 * -1 out of memory, -2 a signal */
static int cluster(const Spec *s, Store *st, Watch *w, Edges *e) {
    size_t room = 0; /* entries of e->first */
    for (size_t z = 0; z < st->count; z++) {
        if (e->kept && z + 2 > room) {
            size_t cap = room ? 2 * room : 4096;
            uint32_t *first = cap * sizeof(uint32_t) <= e->budget ? realloc(e->first, cap * sizeof(uint32_t)) : NULL;
            if (first) {
                e->first = first;
                room = cap;
            } else {
                edges_drop(e);
            }
        }
        if (e->kept) e->first[z] = (uint32_t)e->count;
        if (each_move(s, st, z, collect, e)) return -1;
        if (e->kept && (e->capacity + room) * sizeof(uint32_t) > e->budget) edges_drop(e);
        if ((z + 1) % BATCH == 0) {
            int stop = watch(w, st->count);
            if (stop) return stop == STOPPED_BY_POLL ? 2 : stop;
        }
    }
    if (e->kept) e->first[st->count] = (uint32_t)e->count;
    int stop = watch(w, st->count);
    return stop == STOPPED_BY_POLL ? 2 : stop ? stop : 1;
}

/* the distances to the nearest win; the queue ends with the farthest positions.  Returns the number
 * of positions with a distance (0 when none is won), or -1 out of memory, -2 a signal, -3 a limit */
static long long distances(const Spec *s, Store *st, Watch *w, const Edges *e, size_t *queue) {
    Rings r = {queue, 0};
    w->stage = STAGE_DISTANCES;
    w->own_count = 1; /* poll gets the positions given their distance, not the cluster's size */
    for (size_t z = 0; z < st->count; z++)
        if (s->won[st->states[z * (size_t)s->n + s->goal]]) {
            st->value[z] = 0;
            queue[r.tail++] = z;
        }
    for (size_t head = 0; head < r.tail; head++) {
        size_t z = queue[head];
        if (e->kept) {
            for (uint32_t k = e->first[z]; k < e->first[z + 1]; k++) {
                uint32_t at = e->next[k];
                if (st->value[at] < 0) {
                    st->value[at] = st->value[z] + 1;
                    queue[r.tail++] = at;
                }
            }
        } else if (each_move(s, st, z, spread_distance, &r)) {
            return -1;
        }
        if ((head + 1) % BATCH == 0) {
            w->done = (long long)head + 1;
            int stop = watch(w, st->count);
            if (stop) return stop == 2 || stop == STOPPED_BY_POLL ? -3 : -2;
        }
    }
    return (long long)r.tail;
}

static PyObject *state_tuple(int n, const unsigned char *state) {
    PyObject *t = PyTuple_New(n);
    for (int v = 0; t && v < n; v++) {
        PyObject *o = PyLong_FromLong(state[v]);
        if (!o) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, v, o);
    }
    return t;
}

/* the answer tuple of a finished analysis (see the top of this file) */
static PyObject *answer(const Spec *s, const Store *st, const size_t *queue, long long reached) {
    int n = s->n;
    size_t smallest = 0;
    for (size_t z = 1; z < st->count; z++)
        if (memcmp(st->states + z * n, st->states + smallest * n, (size_t)n) < 0) smallest = z;
    if (reached == 0)
        return Py_BuildValue("(inn()NiN)", 1, (Py_ssize_t)st->count, (Py_ssize_t)0,
                             state_tuple(n, st->states + smallest * n), -1, state_tuple(n, st->states + smallest * n));
    int64_t top = st->value[queue[reached - 1]];
    size_t hardest = queue[reached - 1], won = 0;
    PyObject *hist = PyTuple_New(top + 1);
    if (!hist) return NULL;
    long long *counts = calloc((size_t)top + 1, sizeof(long long));
    if (!counts) {
        Py_DECREF(hist);
        return PyErr_NoMemory();
    }
    for (long long k = 0; k < reached; k++) {
        size_t z = queue[k];
        counts[st->value[z]]++;
        won += st->value[z] == 0;
        if (st->value[z] == top && memcmp(st->states + z * n, st->states + hardest * n, (size_t)n) < 0) hardest = z;
    }
    for (int32_t d = 0; d <= top; d++) PyTuple_SET_ITEM(hist, d, PyLong_FromLongLong(counts[d]));
    free(counts);
    return Py_BuildValue("(innNNiN)", 1, (Py_ssize_t)st->count, (Py_ssize_t)won, hist,
                         state_tuple(n, st->states + hardest * n), (int)st->value[0],
                         state_tuple(n, st->states + smallest * n));
}

PyObject *native_analyze(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *spec_obj, *start_obj, *poll = Py_None, *out = NULL;
    long long max_states, edge_bytes;
    double seconds;
    if (!PyArg_ParseTuple(args, "OOLdL|O", &spec_obj, &start_obj, &max_states, &seconds, &edge_bytes, &poll))
        return NULL;
    if (poll != Py_None && !PyCallable_Check(poll)) {
        PyErr_SetString(PyExc_TypeError, "analyze: poll must be callable or None");
        return NULL;
    }
    Spec *s = malloc(sizeof(Spec));
    if (!s) return PyErr_NoMemory();
    Store st;
    size_t *queue = NULL;
    unsigned char start[MAX_VEHICLES];
    if (read_spec(spec_obj, s) || read_state(s, start_obj, start)) goto fail;
    if (store_init(&st, s->n)) {
        store_free(&st);
        PyErr_NoMemory();
        goto fail;
    }
    uint64_t h = 0;
    for (int v = 0; v < s->n; v++) h ^= s->zobrist[v][start[v]];
    if (store_add(&st, start, h, -1) == -2) {
        store_free(&st);
        PyErr_NoMemory();
        goto fail;
    }
    /* indices are 32 bits: at most 2^32 moves */
    long long most = (long long)UINT32_MAX * (long long)sizeof(uint32_t);
    Edges e = {NULL, NULL, 0, 0, (size_t)(edge_bytes > most ? most : edge_bytes > 0 ? edge_bytes : 0), edge_bytes > 0};
    Watch w = {PyEval_SaveThread(), seconds > 0 ? now() + seconds : 0, max_states, poll == Py_None ? NULL : poll,
               now() + POLL_MILLISECONDS / 1000.0, 0, STAGE_FOUND, 0};
    int result = cluster(s, &st, &w, &e);
    long long reached = 0;
    if (result == 1) {
        queue = malloc(st.count * sizeof(size_t));
        reached = queue ? distances(s, &st, &w, &e, queue) : -1;
        if (reached < 0) result = reached == -3 ? 2 : (int)reached;
    }
    edges_drop(&e);
    PyEval_RestoreThread(w.thread);
    if (result == 2) out = Py_BuildValue("(inOOOOO)", 2, (Py_ssize_t)st.count, Py_None, Py_None, Py_None,
                                         Py_None, Py_None);
    else if (result == -1) PyErr_NoMemory();
    else if (result == 1) out = answer(s, &st, queue, reached);
    /* -2: the signal handler's error (KeyboardInterrupt) is set */
    free(queue);
    store_free(&st);
fail:
    free(s);
    return out;
}
