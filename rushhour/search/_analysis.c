/* The cluster analysis of rushhour.search.analysis, compiled: a board's whole reachable set and every
 * position's distance to its nearest win, without handing each position back to Python.
 *
 * analyze(spec, start, max_states, seconds) -> (status, size, won, histogram, hardest, start_distance,
 *                                               smallest)
 *   status 1: done; 2: max_states (> 0) or the time limit (seconds > 0) stopped it (the rest None).
 *   size: the positions of the cluster; won: how many of them are won; histogram: a tuple, the count
 *   of positions at each distance to the nearest win (empty when none is won); hardest: the farthest
 *   position (the smallest state among ties, states compared offset by offset as the search keys
 *   compare); start_distance: the start's distance (-1 when no win is reachable); smallest: the
 *   smallest state of the cluster (its key; also the hardest when no win is reachable).
 *
 * The same answer as rushhour.search.analysis.analyze_python, which tests/test_search_native.py
 * compares it with: one breadth-first search collects the cluster (the rules of _native.c: slides()),
 * a second one from all its won positions at once gives the distances (moves are reversible).
 */
#include "_native.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int n;
    size_t count, capacity, slots;
    unsigned char *states;
    uint64_t *hash;
    int32_t *dist;
    uint32_t *table; /* index + 1, or 0 */
} Set;

static int set_init(Set *st, int n) {
    memset(st, 0, sizeof *st);
    st->n = n;
    st->capacity = 1024;
    st->slots = 4096;
    st->states = malloc(st->capacity * (size_t)n);
    st->hash = malloc(st->capacity * sizeof(uint64_t));
    st->dist = malloc(st->capacity * sizeof(int32_t));
    st->table = calloc(st->slots, sizeof(uint32_t));
    return st->states && st->hash && st->dist && st->table ? 0 : -1;
}

static void set_free(Set *st) {
    free(st->states);
    free(st->hash);
    free(st->dist);
    free(st->table);
}

static int set_grow(Set *st) {
    if (st->count + 1 > st->capacity) {
        size_t cap = st->capacity * 2;
        unsigned char *states = realloc(st->states, cap * (size_t)st->n);
        if (!states) return -1;
        st->states = states;
        uint64_t *hash = realloc(st->hash, cap * sizeof(uint64_t));
        if (!hash) return -1;
        st->hash = hash;
        int32_t *dist = realloc(st->dist, cap * sizeof(int32_t));
        if (!dist) return -1;
        st->dist = dist;
        st->capacity = cap;
    }
    if ((st->count + 1) * 2 > st->slots) {
        if (st->count + 1 >= UINT32_MAX / 2) return -1;
        size_t slots = st->slots * 2;
        uint32_t *table = calloc(slots, sizeof(uint32_t));
        if (!table) return -1;
        for (size_t i = 0; i < st->count; i++) {
            size_t j = st->hash[i] & (slots - 1);
            while (table[j]) j = (j + 1) & (slots - 1);
            table[j] = (uint32_t)(i + 1);
        }
        free(st->table);
        st->table = table;
        st->slots = slots;
    }
    return 0;
}

/* the index of a stored position, or -1 */
static int64_t set_find(const Set *st, const unsigned char *state, uint64_t hash) {
    size_t j = hash & (st->slots - 1);
    for (uint32_t k; (k = st->table[j]) != 0; j = (j + 1) & (st->slots - 1))
        if (st->hash[k - 1] == hash && memcmp(st->states + (k - 1) * (size_t)st->n, state, (size_t)st->n) == 0)
            return (int64_t)(k - 1);
    return -1;
}

/* adds a position not stored yet: 0, or -1 when memory runs out */
static int set_add(Set *st, const unsigned char *state, uint64_t hash) {
    if (set_grow(st)) return -1;
    size_t j = hash & (st->slots - 1);
    while (st->table[j]) j = (j + 1) & (st->slots - 1);
    size_t i = st->count++;
    memcpy(st->states + i * (size_t)st->n, state, (size_t)st->n);
    st->hash[i] = hash;
    st->dist[i] = -1;
    st->table[j] = (uint32_t)(i + 1);
    return 0;
}

/* calls visit(st, z, successor index or -1 when new, state, hash) for each move from position z */
typedef int (*Visit)(Set *st, size_t z, int64_t at, const unsigned char *state, uint64_t hash, void *data);

static int each_move(const Spec *s, Set *st, size_t z, Visit visit, void *data) {
    unsigned char grid[MAX_CELLS], state[MAX_VEHICLES];
    int moves[32];
    fill_grid(s, st->states + z * (size_t)s->n, grid);
    for (int v = 0; v < s->n; v++) {
        int offset = st->states[z * (size_t)s->n + v];
        int count = slides(s, grid, v, offset, moves);
        for (int i = 0; i < count; i++) {
            memcpy(state, st->states + z * (size_t)s->n, (size_t)s->n);
            state[v] = (unsigned char)moves[i];
            uint64_t h = st->hash[z] ^ s->zobrist[v][offset] ^ s->zobrist[v][moves[i]];
            int got = visit(st, z, set_find(st, state, h), state, h, data);
            if (got) return got;
        }
    }
    return 0;
}

static int collect(Set *st, size_t z, int64_t at, const unsigned char *state, uint64_t hash, void *data) {
    (void)z, (void)data;
    return at >= 0 ? 0 : set_add(st, state, hash);
}

typedef struct {
    size_t *queue, tail;
} Rings;

static int spread_distance(Set *st, size_t z, int64_t at, const unsigned char *state, uint64_t hash, void *data) {
    (void)state, (void)hash;
    Rings *r = data;
    if (at < 0 || st->dist[at] >= 0) return 0;
    st->dist[at] = st->dist[z] + 1;
    r->queue[r->tail++] = (size_t)at;
    return 0;
}

/* the whole cluster of the start (already stored): 1 done, 2 a limit, -1 out of memory, -2 a signal */
static int cluster(const Spec *s, Set *st, Watch *w) {
    for (size_t z = 0; z < st->count; z++) {
        if (each_move(s, st, z, collect, NULL)) return -1;
        if ((z + 1) % BATCH == 0) {
            int stop = watch(w, st->count);
            if (stop) return stop;
        }
    }
    int stop = watch(w, st->count);
    return stop ? stop : 1;
}

/* the distances to the nearest win; the queue ends with the farthest positions.  Returns the number
 * of positions with a distance (0 when none is won), or -1 out of memory, -2 a signal, -3 a limit */
static long long distances(const Spec *s, Set *st, Watch *w, size_t *queue) {
    Rings r = {queue, 0};
    for (size_t z = 0; z < st->count; z++)
        if (s->won[st->states[z * (size_t)s->n + s->goal]]) {
            st->dist[z] = 0;
            queue[r.tail++] = z;
        }
    for (size_t head = 0; head < r.tail; head++) {
        if (each_move(s, st, queue[head], spread_distance, &r)) return -1;
        int stop = (head + 1) % BATCH == 0 ? watch(w, st->count) : 0;
        if (stop) return stop == 2 ? -3 : -2;
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
static PyObject *answer(const Spec *s, const Set *st, const size_t *queue, long long reached) {
    int n = s->n;
    size_t smallest = 0;
    for (size_t z = 1; z < st->count; z++)
        if (memcmp(st->states + z * n, st->states + smallest * n, (size_t)n) < 0) smallest = z;
    if (reached == 0)
        return Py_BuildValue("(inn()NiN)", 1, (Py_ssize_t)st->count, (Py_ssize_t)0,
                             state_tuple(n, st->states + smallest * n), -1, state_tuple(n, st->states + smallest * n));
    int32_t top = st->dist[queue[reached - 1]];
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
        counts[st->dist[z]]++;
        won += st->dist[z] == 0;
        if (st->dist[z] == top && memcmp(st->states + z * n, st->states + hardest * n, (size_t)n) < 0) hardest = z;
    }
    for (int32_t d = 0; d <= top; d++) PyTuple_SET_ITEM(hist, d, PyLong_FromLongLong(counts[d]));
    free(counts);
    return Py_BuildValue("(innNNiN)", 1, (Py_ssize_t)st->count, (Py_ssize_t)won, hist,
                         state_tuple(n, st->states + hardest * n), (int)st->dist[0],
                         state_tuple(n, st->states + smallest * n));
}

PyObject *native_analyze(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *spec_obj, *start_obj, *out = NULL;
    long long max_states;
    double seconds;
    if (!PyArg_ParseTuple(args, "OOLd", &spec_obj, &start_obj, &max_states, &seconds)) return NULL;
    Spec *s = malloc(sizeof(Spec));
    if (!s) return PyErr_NoMemory();
    Set st;
    size_t *queue = NULL;
    unsigned char start[MAX_VEHICLES];
    if (read_spec(spec_obj, s) || read_state(s, start_obj, start)) goto fail;
    if (set_init(&st, s->n)) {
        set_free(&st);
        PyErr_NoMemory();
        goto fail;
    }
    uint64_t h = 0;
    for (int v = 0; v < s->n; v++) h ^= s->zobrist[v][start[v]];
    if (set_add(&st, start, h)) {
        set_free(&st);
        PyErr_NoMemory();
        goto fail;
    }
    Watch w = {PyEval_SaveThread(), seconds > 0 ? now() + seconds : 0, max_states};
    int result = cluster(s, &st, &w);
    long long reached = 0;
    if (result == 1) {
        queue = malloc(st.count * sizeof(size_t));
        reached = queue ? distances(s, &st, &w, queue) : -1;
        if (reached < 0) result = reached == -3 ? 2 : (int)reached;
    }
    PyEval_RestoreThread(w.thread);
    if (result == 2) out = Py_BuildValue("(inOOOOO)", 2, (Py_ssize_t)st.count, Py_None, Py_None, Py_None,
                                         Py_None, Py_None);
    else if (result == -1) PyErr_NoMemory();
    else if (result == 1) out = answer(s, &st, queue, reached);
    /* -2: the signal handler's error (KeyboardInterrupt) is set */
    free(queue);
    set_free(&st);
fail:
    free(s);
    return out;
}
