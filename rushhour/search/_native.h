/* What the compiled searches of rushhour.search share (_native.c, _frontier.c): the layout as they
 * read it from Python (the spec) and the rules on it. */
#ifndef RUSHHOUR_NATIVE_H
#define RUSHHOUR_NATIVE_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* SPEC_VERSION, BATCH, ANALYSIS_CHUNK, KEY_FIELD_BITS and NEAR_* are defined once, in
 * rushhour/search/contract.py: setup.py passes them to the compiler; the module exports them and Python
 * compares them at import. */
#if !defined(SPEC_VERSION) || !defined(BATCH) || !defined(ANALYSIS_CHUNK) || !defined(KEY_FIELD_BITS) || \
    !defined(NEAR_MAYBE)
#error "build through setup.py: the shared constants come from rushhour/search/contract.py"
#endif
/* The record the searches read (rushhour.search.native_spec.NativeSpec), field by field in this order;
 * the module exports the version and the names, and Python compares them at import. */
#define SPEC_FIELDS "width", "height", "wrap", "steps", "goal", "won_offsets", "walls", "vehicles", "groups", \
                    "two_moves_complete"
#define SPEC_COUNT 10
#define WALL 255
#define MAX_VEHICLES 254
#define MAX_CELLS 256
#define MAX_OFFSETS 16

typedef struct {
    int width, height, cells, wrap, steps, n, goal, complete;
    unsigned char won[MAX_OFFSETS];
    unsigned char empty_grid[MAX_CELLS];
    int span[MAX_VEHICLES], length[MAX_VEHICLES], horizontal[MAX_VEHICLES];
    /* the cells of a lane in order along it, repeated before and after it (index position + 16), so
     * that positions off either end of a wrap-around lane need no division */
    int lane[MAX_VEHICLES][48];
    int ngroups;
    int group_start[MAX_VEHICLES + 1];
    int group_member[MAX_VEHICLES];
    /* for each position along the goal's lane: the crossing vehicles there, in vehicle order */
    int cross_start[17];
    int cross[MAX_VEHICLES];
    uint64_t zobrist[MAX_VEHICLES][MAX_OFFSETS];
} Spec;

int read_int(PyObject *seq, Py_ssize_t i, int *out);
int bad(const char *what);
int read_spec(PyObject *obj, Spec *s);
int read_state(const Spec *s, PyObject *obj, unsigned char *state);
/* The rules, inline: every search calls them for every position.  place() marks a vehicle on an
 * occupancy grid (a byte per cell: 0 empty, WALL, or vehicle + 1); fill_grid() marks them all. */
static inline void place(const Spec *s, unsigned char *grid, int v, int offset, unsigned char mark) {
    const int *lane = s->lane[v] + 16 + offset;
    for (int k = 0; k < s->length[v]; k++) grid[lane[k]] = mark;
}

static inline void fill_grid(const Spec *s, const unsigned char *state, unsigned char *grid) {
    memcpy(grid, s->empty_grid, (size_t)s->cells);
    for (int v = 0; v < s->n; v++) place(s, grid, v, state[v], (unsigned char)(v + 1));
}

/* the offsets vehicle v can slide to: nearest first, backward then forward (the reference order) */
static inline int slides(const Spec *s, const unsigned char *grid, int v, int offset, int *out) {
    int span = s->span[v], length = s->length[v], count = 0;
    const int *lane = s->lane[v] + 16;
    /* backward: the cells before the vehicle, nearest first */
    int room = s->wrap ? span - length : offset;
    if (s->steps && room > 1) room = 1;
    for (int d = 1; d <= room && !grid[lane[offset - d]]; d++) {
        int next = offset - d;
        out[count++] = next < 0 ? next + span : next;
    }
    /* forward: the cells after it */
    room = s->wrap ? span - length : span - length - offset;
    if (s->steps && room > 1) room = 1;
    for (int d = 1; d <= room && !grid[lane[offset + length - 1 + d]]; d++) {
        int next = offset + d;
        out[count++] = next >= span ? next - span : next;
    }
    return count;
}

double now(void);
/* append the offsets of a position to the list ``path`` as a tuple; -1 on failure */
int append_state(PyObject *path, int n, const unsigned char *state);

/* The store of positions (_native.c): each position's offsets, its hash and one value (its parent's
 * index in the searches, its distance to a win in the cluster analysis), found through an open
 * addressing table. */
typedef struct {
    int n;
    size_t count, capacity;     /* positions stored */
    unsigned char *states;      /* count * n offsets */
    int64_t *value;             /* per position: its parent's index, or its distance */
    uint64_t *hash;
    size_t slots;               /* a power of two, at least twice count */
    uint32_t *table;            /* position index + 1, or 0 */
} Store;

int store_init(Store *st, int n);
void store_free(Store *st);
/* The index of a stored position, or -1. */
static inline int64_t store_find(const Store *st, const unsigned char *state, uint64_t hash) {
    size_t j = hash & (st->slots - 1);
    for (uint32_t k; (k = st->table[j]) != 0; j = (j + 1) & (st->slots - 1)) {
        if (st->hash[k - 1] == hash && memcmp(st->states + (k - 1) * (size_t)st->n, state, (size_t)st->n) == 0)
            return (int64_t)(k - 1);
    }
    return -1;
}

int64_t store_add(Store *st, const unsigned char *state, uint64_t hash, int64_t value);
int64_t store_insert(Store *st, const unsigned char *state, uint64_t hash, int64_t value);

/* The limits of a search running without the GIL, checked between batches by watch(): 0 go on, 2 a
 * limit was reached, STOPPED_BY_POLL the poll callable answered true, -2 a signal handler or the poll
 * callable raised (Ctrl-C: KeyboardInterrupt is then set). */
typedef struct {
    PyThreadState *thread;  /* from PyEval_SaveThread() */
    double deadline;        /* 0: none */
    long long max_states;   /* 0: none */
    PyObject *poll;         /* NULL, or called (GIL held) at most every POLL_MILLISECONDS */
    double next_poll;
    int own_count;          /* poll is called as poll(stage, N): N is the count watch() is given (0),
                             * or ``done`` (1), where the search says it stands */
    int stage;              /* the search's stage (STAGE_FOUND, STAGE_DISTANCES), set by the search */
    long long done;         /* with own_count: the positions done in that stage, set by the search */
} Watch;
int watch(Watch *w, size_t count);

/* the cluster analysis (_analysis.c) */
PyObject *native_analyze(PyObject *self, PyObject *args);

/* the frontier search (_frontier.c) */
PyObject *native_frontier(PyObject *self, PyObject *args);

#endif
