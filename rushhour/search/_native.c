/* The breadth-first searches of rushhour.search.bfs (shortest, and the layers of reachable and
 * layers), compiled; built by setup.py when a C compiler is present.
 *
 * They follow the Python searches step for step: the same layers, the same chunks of BATCH positions,
 * the same vehicle groups in the same order, the same slides in the same order, the same test of a
 * win within two moves on each discovered position and the same stopping rule.  So they discover the
 * same positions, return the same path, count the same positions and give the same layers in the same
 * order; tests/test_search_native.py compares the two.
 *
 * A position is the tuple of vehicle offsets (one byte each here).  Discovered positions live in one
 * growing array, found again through an open-addressing hash table with Zobrist hashes (a slide
 * changes one offset, so a successor's hash is its parent's with two words xor-ed in and out).  Each
 * position of a chunk gets its occupancy grid (a byte per cell: 0 empty, WALL, or vehicle + 1).
 *
 * shortest(spec, start, max_states, seconds, poll=None) -> (status, explored, states)
 *   poll: None, or a callable called as poll(STAGE_FOUND, explored) at most every POLL_MILLISECONDS (the
 *   progress display; a true answer stops the search as a limit does);
 *   status 1: states is the path (start first) ending with a won position;
 *   status 0: no won position is reachable (explored is the size of the reachable set);
 *   status 2: max_states (> 0) or the time limit (seconds > 0) stopped the search; states is None.
 * layers(spec, sources, max_states, seconds) -> (status, count, layers)
 *   the breadth-first layers of search keys from the source states (rushhour.search.bfs._spread);
 *   status 1 with the layers, or 2 (a limit) with None.
 * spec = (width, height, wrap, steps, goal, won_offsets, wall_cells, vehicles, groups, complete) with
 * vehicles = ((lane_cells, length, horizontal), ...) and groups = ((vehicle, ...), ...).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "_clusters.h"
#include "_native.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>




/* ---------------------------------------------------------------- reading the spec from Python */

int read_int(PyObject *seq, Py_ssize_t i, int *out) {
    PyObject *item = PyTuple_GetItem(seq, i);
    if (item == NULL) return -1;
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = (int)v;
    return 0;
}

int bad(const char *what) {
    PyErr_Format(PyExc_ValueError, "native search: %s", what);
    return -1;
}

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int read_spec(PyObject *obj, Spec *s) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != SPEC_COUNT) return bad("the spec is a NativeSpec");
    if (read_int(obj, 0, &s->width) || read_int(obj, 1, &s->height) || read_int(obj, 2, &s->wrap) ||
        read_int(obj, 3, &s->steps) || read_int(obj, 4, &s->goal) || read_int(obj, 9, &s->complete))
        return -1;
    s->cells = s->width * s->height;
    if (s->width < 1 || s->height < 1 || s->width > 16 || s->height > 16 || s->cells > MAX_CELLS)
        return bad("boards are at most 16x16");
    PyObject *won = PyTuple_GET_ITEM(obj, 5), *walls = PyTuple_GET_ITEM(obj, 6);
    PyObject *vehicles = PyTuple_GET_ITEM(obj, 7), *groups = PyTuple_GET_ITEM(obj, 8);
    if (!PyTuple_Check(won) || !PyTuple_Check(walls) || !PyTuple_Check(vehicles) || !PyTuple_Check(groups))
        return bad("won offsets, walls, vehicles and groups are tuples");
    memset(s->won, 0, sizeof s->won);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(won); i++) {
        int o;
        if (read_int(won, i, &o)) return -1;
        if (o < 0 || o >= MAX_OFFSETS) return bad("an offset is below 16");
        s->won[o] = 1;
    }
    memset(s->empty_grid, 0, sizeof s->empty_grid);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(walls); i++) {
        int c;
        if (read_int(walls, i, &c)) return -1;
        if (c < 0 || c >= s->cells) return bad("a wall cell is on the board");
        s->empty_grid[c] = WALL;
    }
    s->n = (int)PyTuple_GET_SIZE(vehicles);
    if (s->n < 1 || s->n > MAX_VEHICLES || s->goal < 0 || s->goal >= s->n) return bad("vehicle count");
    for (int v = 0; v < s->n; v++) {
        PyObject *veh = PyTuple_GET_ITEM(vehicles, v);
        if (!PyTuple_Check(veh) || PyTuple_GET_SIZE(veh) != 3) return bad("a vehicle is a 3-tuple");
        PyObject *lane = PyTuple_GET_ITEM(veh, 0);
        if (!PyTuple_Check(lane)) return bad("a lane is a tuple");
        s->span[v] = (int)PyTuple_GET_SIZE(lane);
        if (s->span[v] < 1 || s->span[v] > 16) return bad("a lane has 1 to 16 cells");
        int cells[16], span = s->span[v];
        for (int p = 0; p < span; p++) {
            if (read_int(lane, p, &cells[p])) return -1;
            if (cells[p] < 0 || cells[p] >= s->cells) return bad("a lane cell is on the board");
        }
        for (int q = 0; q < 48; q++) s->lane[v][q] = cells[((q - 16) % span + span) % span];
        if (read_int(veh, 1, &s->length[v]) || read_int(veh, 2, &s->horizontal[v])) return -1;
        if (s->length[v] < 1 || s->length[v] > s->span[v]) return bad("a vehicle fits its lane");
    }
    s->ngroups = (int)PyTuple_GET_SIZE(groups);
    int k = 0;
    for (int g = 0; g < s->ngroups; g++) {
        PyObject *members = PyTuple_GET_ITEM(groups, g);
        if (!PyTuple_Check(members)) return bad("a group is a tuple");
        s->group_start[g] = k;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(members); i++) {
            int v;
            if (read_int(members, i, &v)) return -1;
            if (v < 0 || v >= s->n || k >= MAX_VEHICLES) return bad("groups hold each vehicle once");
            s->group_member[k++] = v;
        }
    }
    s->group_start[s->ngroups] = k;
    if (k != s->n) return bad("groups hold each vehicle once");
    /* crossing vehicles, by position along the goal's lane */
    int g = s->goal, m = 0;
    for (int p = 0; p < s->span[g]; p++) {
        s->cross_start[p] = m;
        for (int v = 0; v < s->n; v++) {
            if (v == g || s->horizontal[v] == s->horizontal[g]) continue;
            for (int q = 0; q < s->span[v]; q++)
                if (s->lane[v][16 + q] == s->lane[g][16 + p]) s->cross[m++] = v;
        }
    }
    s->cross_start[s->span[g]] = m;
    uint64_t seed = 0x5EED;
    for (int v = 0; v < s->n; v++)
        for (int o = 0; o < MAX_OFFSETS; o++) s->zobrist[v][o] = splitmix(&seed);
    return 0;
}

/* ---------------------------------------------------------------- the rules (place, fill_grid and slides:
 * inline in _native.h, as every search calls them for every position) */

/* the goal's new offset after its first winning slide, or -1 */
static int one_move(const Spec *s, const unsigned char *grid, int goal_offset) {
    int to[32];
    int count = slides(s, grid, s->goal, goal_offset, to);
    for (int i = 0; i < count; i++)
        if (s->won[to[i]]) return to[i];
    return -1;
}

/* What the goal's offset and the occupancy of its lane say about a win (Tables.near_win): kind ONE
 * (a: the goal's winning offset), TWO (the goal slides to a, then wins at b), MAYBE (cells: the lane
 * positions that, once free, let the goal win) or 0.  Memoised on the goal's offset and lane. */
enum { NONE = NEAR_NONE, ONE = NEAR_ONE, TWO = NEAR_TWO, MAYBE = NEAR_MAYBE };
typedef struct {
    unsigned char known, kind, a, b;
    uint32_t cells;
} Near;

static const Near *near_of(const Spec *s, Near *memo, unsigned char *grid, int go) {
    int g = s->goal, to[32];
    uint32_t lane = 0;
    for (int p = 0; p < s->span[g]; p++)
        if (grid[s->lane[g][16 + p]]) lane |= 1u << p;
    Near *e = &memo[((size_t)lane << 4) | (size_t)go];
    if (e->known) return e;
    e->known = 1;
    int win = one_move(s, grid, go);
    if (win >= 0) {
        e->kind = ONE, e->a = (unsigned char)win;
        return e;
    }
    int count = slides(s, grid, g, go, to);
    for (int i = 0; i < count; i++) {
        place(s, grid, g, go, 0);
        place(s, grid, g, to[i], (unsigned char)(g + 1));
        win = one_move(s, grid, to[i]);
        place(s, grid, g, to[i], 0);
        place(s, grid, g, go, (unsigned char)(g + 1));
        if (win >= 0) {
            e->kind = TWO, e->a = (unsigned char)to[i], e->b = (unsigned char)win;
            return e;
        }
    }
    for (int p = 0; p < s->span[g]; p++) {
        int cell = s->lane[g][16 + p];
        unsigned char held = grid[cell];
        if (!held || held == g + 1) continue;
        grid[cell] = 0;
        if (one_move(s, grid, go) >= 0) e->cells |= 1u << p;
        grid[cell] = held;
    }
    e->kind = e->cells ? MAYBE : NONE;
    return e;
}

/* Two moves that win from a position that is not one move from a win, given its Near: the vehicles
 * and offsets after them in out[0..3].  The same tests in the same order as Tables.two_moves. */
static int two_moves(const Spec *s, unsigned char *grid, const unsigned char *state, const Near *e, int *out) {
    int g = s->goal, go = state[g];
    if (e->kind == TWO) {
        out[0] = g, out[1] = e->a, out[2] = g, out[3] = e->b;
        return 1;
    }
    if (e->kind != MAYBE) return 0;
    for (int p = 0; p < s->span[g]; p++) {
        if (!(e->cells & (1u << p))) continue;
        for (int c = s->cross_start[p]; c < s->cross_start[p + 1]; c++) {
            int v = s->cross[c], vo = state[v], moves[32], m = slides(s, grid, v, vo, moves);
            for (int i = 0; i < m; i++) {
                place(s, grid, v, vo, 0);
                place(s, grid, v, moves[i], (unsigned char)(v + 1));
                int win = one_move(s, grid, go);
                place(s, grid, v, moves[i], 0);
                place(s, grid, v, vo, (unsigned char)(v + 1));
                if (win >= 0) {
                    out[0] = v, out[1] = moves[i], out[2] = g, out[3] = win;
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- the store of positions */

int store_init(Store *st, int n) {
    memset(st, 0, sizeof *st);
    st->n = n;
    st->capacity = 1024;
    st->slots = 4096;
    st->states = malloc(st->capacity * (size_t)n);
    st->value = malloc(st->capacity * sizeof(int64_t));
    st->hash = malloc(st->capacity * sizeof(uint64_t));
    st->table = calloc(st->slots, sizeof(uint32_t));
    return st->states && st->value && st->hash && st->table ? 0 : -1;
}

void store_free(Store *st) {
    free(st->states);
    free(st->value);
    free(st->hash);
    free(st->table);
}

static int store_grow(Store *st) {
    if (st->count + 1 > st->capacity) {
        size_t cap = st->capacity * 2;
        unsigned char *states = realloc(st->states, cap * (size_t)st->n);
        if (!states) return -1;
        st->states = states;
        int64_t *value = realloc(st->value, cap * sizeof(int64_t));
        if (!value) return -1;
        st->value = value;
        uint64_t *hash = realloc(st->hash, cap * sizeof(uint64_t));
        if (!hash) return -1;
        st->hash = hash;
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

/* Add a position that is not stored (the caller looked: store_find() gave -1) with its ``value``:
 * its index, or -2 when out of memory. */
int64_t store_insert(Store *st, const unsigned char *state, uint64_t hash, int64_t value) {
    if (store_grow(st)) return -2;
    size_t j = hash & (st->slots - 1);
    while (st->table[j]) j = (j + 1) & (st->slots - 1);
    size_t i = st->count++;
    memcpy(st->states + i * (size_t)st->n, state, (size_t)st->n);
    st->value[i] = value;
    st->hash[i] = hash;
    st->table[j] = (uint32_t)(i + 1);
    return (int64_t)i;
}

/* Add the position unless it is stored, with its ``value``: its index, -1 when it was there,
 * -2 when out of memory. */
int64_t store_add(Store *st, const unsigned char *state, uint64_t hash, int64_t value) {
    return store_find(st, state, hash) >= 0 ? -1 : store_insert(st, state, hash, value);
}

/* Store position z with vehicle v slid from offset to offset ``to`` (its offsets are left in state):
 * its index, -1 when it was stored already, -2 when out of memory. */
static int64_t add_successor(const Spec *s, Store *st, size_t z, int v, int offset, int to,
                             unsigned char *state) {
    memcpy(state, st->states + z * s->n, (size_t)s->n);
    state[v] = (unsigned char)to;
    uint64_t h = st->hash[z] ^ s->zobrist[v][offset] ^ s->zobrist[v][to];
    return store_add(st, state, h, (int64_t)z);
}

double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int watch(Watch *w, size_t count) {
    if (w->max_states > 0 && (long long)count > w->max_states) return 2;
    if (w->deadline > 0 && now() > w->deadline) return 2;
    PyEval_RestoreThread(w->thread);
    int stop = PyErr_CheckSignals() ? -2 : 0;
    if (!stop && w->poll) {
        double t = now();
        if (t >= w->next_poll) {
            long long done = w->own_count ? w->done : (long long)count;
            PyObject *answer = PyObject_CallFunction(w->poll, "iL", w->stage, done);
            int asked = answer ? PyObject_IsTrue(answer) : -1;
            Py_XDECREF(answer);
            stop = asked < 0 ? -2 : asked ? STOPPED_BY_POLL : 0;
            w->next_poll = t + POLL_MILLISECONDS / 1000.0;
        }
    }
    w->thread = PyEval_SaveThread();
    return stop;
}

/* ---------------------------------------------------------------- the search */

typedef struct {
    int64_t at;        /* the discovered position, or -1 */
    int extra;         /* how many slides follow it: 1 or 2 */
    int vehicle[2], offset[2];
} Answer;

/* Append the offsets of a position to the list ``path`` as a tuple; -1 on failure. */
int append_state(PyObject *path, int n, const unsigned char *state) {
    PyObject *t = PyTuple_New(n);
    if (!t) return -1;
    for (int v = 0; v < n; v++) PyTuple_SET_ITEM(t, v, PyLong_FromLong(state[v]));
    int failed = PyList_Append(path, t);
    Py_DECREF(t);
    return failed;
}

static PyObject *path_of(const Spec *s, const Store *st, const Answer *a) {
    PyObject *path = PyList_New(0);
    if (!path) return NULL;
    unsigned char state[MAX_VEHICLES];
    for (int64_t i = a->at; i >= 0; i = st->value[i])
        if (append_state(path, s->n, st->states + i * s->n)) goto fail;
    if (PyList_Reverse(path)) goto fail;
    memcpy(state, st->states + a->at * s->n, (size_t)s->n);
    for (int k = 0; k < a->extra; k++) {
        state[a->vehicle[k]] = (unsigned char)a->offset[k];
        if (append_state(path, s->n, state)) goto fail;
    }
    return path;
fail:
    Py_DECREF(path);
    return NULL;
}

/* 1: found (answer set), 0: none reachable, 2: a limit stopped it, -1: out of memory, -2: a signal */
static int search(const Spec *s, Store *st, const unsigned char *start, Watch *w, Answer *answer) {
    int n = s->n, moves[32], two[4];
    unsigned char *grids = malloc((size_t)BATCH * s->cells), grid[MAX_CELLS], state[MAX_VEHICLES];
    Near *memo = calloc((size_t)MAX_OFFSETS << s->span[s->goal], sizeof(Near));
    int64_t *frontier = malloc(sizeof(int64_t) * 1024), *next = malloc(sizeof(int64_t) * 1024);
    size_t fcount = 0, ncount = 0, fcap = 1024, ncap = 1024;
    int result = -1;
    if (!grids || !frontier || !next || !memo) goto done;
    uint64_t h0 = 0;
    for (int v = 0; v < n; v++) h0 ^= s->zobrist[v][start[v]];
    if (store_add(st, start, h0, -1) < 0) goto done;
    /* the start itself: within two moves of a win? */
    fill_grid(s, start, grid);
    const Near *near = near_of(s, memo, grid, start[s->goal]);
    if (near->kind == ONE) {
        *answer = (Answer){0, 1, {s->goal, 0}, {near->a, 0}};
        result = 1;
        goto done;
    }
    if (s->complete && two_moves(s, grid, start, near, two)) {
        *answer = (Answer){0, 2, {two[0], two[2]}, {two[1], two[3]}};
        result = 1;
        goto done;
    }
    answer->at = -1;
    frontier[fcount++] = 0;
    int have_two = !s->complete;  /* no two-move search when it is incomplete */
    while (fcount) {
        ncount = 0;
        for (size_t lo = 0; lo < fcount; lo += BATCH) {
            size_t hi = lo + BATCH < fcount ? lo + BATCH : fcount;
            for (size_t k = lo; k < hi; k++)
                fill_grid(s, st->states + frontier[k] * n, grids + (k - lo) * s->cells);
            for (int g = 0; g < s->ngroups; g++) {
                for (size_t k = lo; k < hi; k++) {
                    int64_t z = frontier[k];
                    const unsigned char *zgrid = grids + (k - lo) * s->cells;
                    for (int gm = s->group_start[g]; gm < s->group_start[g + 1]; gm++) {
                        int v = s->group_member[gm];
                        int offset = st->states[z * n + v];
                        int count = slides(s, zgrid, v, offset, moves);
                        for (int i = 0; i < count; i++) {
                            int64_t t = add_successor(s, st, (size_t)z, v, offset, moves[i], state);
                            if (t == -1) continue;
                            if (t == -2) goto done;
                            memcpy(grid, zgrid, (size_t)s->cells);
                            place(s, grid, v, offset, 0);
                            place(s, grid, v, moves[i], (unsigned char)(v + 1));
                            near = near_of(s, memo, grid, state[s->goal]);
                            if (near->kind == ONE) {
                                *answer = (Answer){t, 1, {s->goal, 0}, {near->a, 0}};
                                result = 1;
                                goto done;
                            }
                            if (!have_two && near->kind && two_moves(s, grid, state, near, two)) {
                                *answer = (Answer){t, 2, {two[0], two[2]}, {two[1], two[3]}};
                                have_two = 1;
                            }
                            if (ncount == ncap) {
                                int64_t *more = realloc(next, sizeof(int64_t) * ncap * 2);
                                if (!more) goto done;
                                next = more;
                                ncap *= 2;
                            }
                            next[ncount++] = t;
                        }
                    }
                }
            }
            int stop = watch(w, st->count);
            if (stop) {
                result = stop == STOPPED_BY_POLL ? 2 : stop;
                goto done;
            }
        }
        if (answer->at >= 0) {
            result = 1;
            goto done;
        }
        int64_t *swap = frontier;
        frontier = next;
        next = swap;
        size_t cap = fcap;
        fcap = ncap;
        ncap = cap;
        fcount = ncount;
    }
    result = 0;
done:
    free(memo);
    free(grids);
    free(frontier);
    free(next);
    return result;
}

static PyObject *native_shortest(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *spec_obj, *start_obj, *poll = Py_None;
    long long max_states;
    double seconds;
    if (!PyArg_ParseTuple(args, "OOLd|O", &spec_obj, &start_obj, &max_states, &seconds, &poll)) return NULL;
    if (poll != Py_None && !PyCallable_Check(poll)) {
        PyErr_SetString(PyExc_TypeError, "shortest: poll must be callable or None");
        return NULL;
    }
    Spec *s = malloc(sizeof(Spec));
    if (!s) return PyErr_NoMemory();
    if (read_spec(spec_obj, s)) { free(s); return NULL; }
    unsigned char start[MAX_VEHICLES];
    if (!PyTuple_Check(start_obj) || PyTuple_GET_SIZE(start_obj) != s->n) {
        free(s);
        PyErr_SetString(PyExc_ValueError, "native search: the start has one offset per vehicle");
        return NULL;
    }
    for (int v = 0; v < s->n; v++) {
        int o;
        if (read_int(start_obj, v, &o)) { free(s); return NULL; }
        int top = s->wrap ? s->span[v] : s->span[v] - s->length[v] + 1;
        if (o < 0 || o >= top || o >= MAX_OFFSETS) {
            free(s);
            PyErr_SetString(PyExc_ValueError, "native search: an offset is off its lane");
            return NULL;
        }
        start[v] = (unsigned char)o;
    }
    Store st;
    Answer answer = {-1, 0, {0, 0}, {0, 0}};
    int result = -1;
    Watch w = {NULL, seconds > 0 ? now() + seconds : 0, max_states, poll == Py_None ? NULL : poll,
               now() + POLL_MILLISECONDS / 1000.0, 0, STAGE_FOUND, 0};
    if (store_init(&st, s->n) == 0) {
        w.thread = PyEval_SaveThread();
        result = search(s, &st, start, &w, &answer);
        PyEval_RestoreThread(w.thread);
    }
    PyObject *out = NULL;
    if (result == -2) {
        /* the signal handler's error (KeyboardInterrupt) is set */
    } else if (result < 0) {
        PyErr_NoMemory();
    } else if (result == 1) {
        PyObject *path = path_of(s, &st, &answer);
        if (path) out = Py_BuildValue("(inN)", 1, (Py_ssize_t)st.count, path);
    } else {
        out = Py_BuildValue("(inO)", result, (Py_ssize_t)st.count, Py_None);
    }
    store_free(&st);
    free(s);
    return out;
}

/* ---------------------------------------------------------------- the whole reachable set */

/* Breadth-first from the positions already in the store (the sources), as rushhour.search.bfs._spread
 * does it: every position is stored in the order it is discovered, so each layer is a run of the store;
 * layer k starts at starts[k].  1: done, 2: a limit stopped it, -1: out of memory, -2: a signal. */
static int spread(const Spec *s, Store *st, Watch *w, size_t **starts_out,
                  size_t *layers_out) {
    int n = s->n, moves[32];
    unsigned char *grids = malloc((size_t)BATCH * s->cells), state[MAX_VEHICLES];
    size_t cap = 64, layers = 0, *starts = malloc(sizeof(size_t) * cap);
    int result = -1;
    if (!grids || !starts) goto done;
    starts[layers++] = 0;
    size_t lo_layer = 0, hi_layer = st->count;
    while (lo_layer < hi_layer) {
        for (size_t lo = lo_layer; lo < hi_layer; lo += BATCH) {
            size_t hi = lo + BATCH < hi_layer ? lo + BATCH : hi_layer;
            for (size_t k = lo; k < hi; k++) fill_grid(s, st->states + k * n, grids + (k - lo) * s->cells);
            for (int g = 0; g < s->ngroups; g++) {
                for (size_t z = lo; z < hi; z++) {
                    const unsigned char *zgrid = grids + (z - lo) * s->cells;
                    for (int gm = s->group_start[g]; gm < s->group_start[g + 1]; gm++) {
                        int v = s->group_member[gm], offset = st->states[z * n + v];
                        int count = slides(s, zgrid, v, offset, moves);
                        for (int i = 0; i < count; i++) {
                            if (add_successor(s, st, z, v, offset, moves[i], state) == -2) goto done;
                        }
                    }
                }
            }
            int stop = watch(w, st->count);
            if (stop) {
                result = stop == STOPPED_BY_POLL ? 2 : stop;
                goto done;
            }
        }
        if (st->count == hi_layer) break;
        if (layers == cap) {
            size_t *more = realloc(starts, sizeof(size_t) * cap * 2);
            if (!more) goto done;
            starts = more;
            cap *= 2;
        }
        starts[layers++] = hi_layer;
        lo_layer = hi_layer;
        hi_layer = st->count;
    }
    result = 1;
done:
    free(grids);
    *starts_out = starts;
    *layers_out = layers;
    return result;
}

/* The search key of a stored position (rushhour.search.tables.Tables.pack): its offsets,
 * KEY_FIELD_BITS each with the first vehicle highest, above the occupancy bits of its cells and the
 * walls.  Written as hexadecimal digits, most significant first, and read by PyLong_FromString. */
static PyObject *key_of(const Spec *s, const unsigned char *state) {
    unsigned char grid[MAX_CELLS], bits[MAX_CELLS + KEY_FIELD_BITS * MAX_VEHICLES + 4];
    char text[(MAX_CELLS + KEY_FIELD_BITS * MAX_VEHICLES) / 4 + 8];
    size_t total = (size_t)s->cells + KEY_FIELD_BITS * (size_t)s->n, digits = (total + 3) / 4;
    memset(bits, 0, digits * 4);
    fill_grid(s, state, grid);
    for (int c = 0; c < s->cells; c++) bits[c] = grid[c] != 0;
    for (int v = 0; v < s->n; v++) {
        size_t at = (size_t)s->cells + KEY_FIELD_BITS * (size_t)(s->n - 1 - v);
        for (int b = 0; b < KEY_FIELD_BITS; b++) bits[at + b] = (state[v] >> b) & 1;
    }
    for (size_t d = 0; d < digits; d++) {
        size_t at = 4 * (digits - 1 - d);
        int nibble = bits[at] | bits[at + 1] << 1 | bits[at + 2] << 2 | bits[at + 3] << 3;
        text[d] = "0123456789abcdef"[nibble];
    }
    text[digits] = 0;
    return PyLong_FromString(text, NULL, 16);
}

int read_state(const Spec *s, PyObject *obj, unsigned char *state) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != s->n) return bad("a state has one offset per vehicle");
    for (int v = 0; v < s->n; v++) {
        int o;
        if (read_int(obj, v, &o)) return -1;
        int top = s->wrap ? s->span[v] : s->span[v] - s->length[v] + 1;
        if (o < 0 || o >= top || o >= MAX_OFFSETS) return bad("an offset is off its lane");
        state[v] = (unsigned char)o;
    }
    return 0;
}

static PyObject *native_layers(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *spec_obj, *sources;
    long long max_states;
    double seconds;
    if (!PyArg_ParseTuple(args, "OO!Ld", &spec_obj, &PyList_Type, &sources, &max_states, &seconds)) return NULL;
    Spec *s = malloc(sizeof(Spec));
    if (!s) return PyErr_NoMemory();
    Store st;
    PyObject *out = NULL;
    size_t *starts = NULL, layers = 0;
    int result = -1;
    if (read_spec(spec_obj, s)) goto fail;
    if (store_init(&st, s->n)) {
        PyErr_NoMemory();
        goto fail_store;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(sources); i++) {
        unsigned char state[MAX_VEHICLES];
        if (read_state(s, PyList_GET_ITEM(sources, i), state)) goto fail_store;
        uint64_t h = 0;
        for (int v = 0; v < s->n; v++) h ^= s->zobrist[v][state[v]];
        if (store_add(&st, state, h, -1) == -2) {
            PyErr_NoMemory();
            goto fail_store;
        }
    }
    Watch w = {PyEval_SaveThread(), seconds > 0 ? now() + seconds : 0, max_states};
    result = spread(s, &st, &w, &starts, &layers);
    PyEval_RestoreThread(w.thread);
    if (result == -2) {
        /* the signal handler's error (KeyboardInterrupt) is set */
    } else if (result < 0) {
        PyErr_NoMemory();
    } else if (result == 2) {
        out = Py_BuildValue("(inO)", 2, (Py_ssize_t)st.count, Py_None);
    } else {
        PyObject *rings = PyList_New((Py_ssize_t)layers);
        for (size_t k = 0; rings && k < layers; k++) {
            size_t end = k + 1 < layers ? starts[k + 1] : st.count;
            PyObject *ring = PyList_New((Py_ssize_t)(end - starts[k]));
            if (!ring) { Py_CLEAR(rings); break; }
            PyList_SET_ITEM(rings, (Py_ssize_t)k, ring);
            for (size_t i = starts[k]; i < end; i++) {
                PyObject *key = key_of(s, st.states + i * s->n);
                if (!key) { Py_CLEAR(rings); break; }
                PyList_SET_ITEM(ring, (Py_ssize_t)(i - starts[k]), key);
            }
        }
        if (rings) out = Py_BuildValue("(inN)", 1, (Py_ssize_t)st.count, rings);
    }
fail_store:
    store_free(&st);
fail:
    free(starts);
    free(s);
    return out;
}

static PyMethodDef methods[] = {
    {"shortest", native_shortest, METH_VARARGS,
     "shortest(spec, start, max_states, seconds, poll=None) -> (status, explored, path or None)"},
    {"layers", native_layers, METH_VARARGS,
     "layers(spec, sources, max_states, seconds) -> (status, count, layers of keys or None)"},
    {"frontier", native_frontier, METH_VARARGS,
     "frontier(spec, start, max_states, seconds) -> (status, explored, path or None, lower bound)"},
    {"analyze", native_analyze, METH_VARARGS,
     "analyze(spec, start, max_states, seconds, edge_bytes, poll=None) -> (status, size, won, histogram, hardest, start_distance, "
     "smallest); see _analysis.c"},
    {"clusters", native_clusters, METH_VARARGS,
     "clusters(width, height, goal_row, walls, rows, columns, distances) -> (lines, stats); see _clusters.c"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    /* the cluster search's limits and record, written once in _clusters.h */
    PyObject *fields = Py_BuildValue("(ssss)", ENUM_STATS_FIELDS);
    int failed = !fields || PyModule_AddObjectRef(m, "ENUM_STATS_FIELDS", fields) < 0 ||
                 PyModule_AddIntConstant(m, "ENUM_MAX_SIDE", ENUM_MAX_SIDE) < 0 ||
                 PyModule_AddIntConstant(m, "ENUM_MAX_VEHICLES", ENUM_MAX_VEHICLES) < 0;
    Py_XDECREF(fields); /* the module holds its own reference */
    /* the searches' record, and the constants shared with the Python search (rushhour/search/contract.py)
     * exported back so that Python can check them */
    PyObject *spec_fields = failed ? NULL : Py_BuildValue("(ssssssssss)", SPEC_FIELDS);
    failed = failed || !spec_fields || PyModule_AddObjectRef(m, "SPEC_FIELDS", spec_fields) < 0 ||
             PyModule_AddIntConstant(m, "SPEC_VERSION", SPEC_VERSION) < 0 ||
             PyModule_AddIntConstant(m, "BATCH", BATCH) < 0 ||
             PyModule_AddIntConstant(m, "ANALYSIS_CHUNK", ANALYSIS_CHUNK) < 0 ||
             PyModule_AddIntConstant(m, "POLL_MILLISECONDS", POLL_MILLISECONDS) < 0 ||
             PyModule_AddIntConstant(m, "STOPPED_BY_POLL", STOPPED_BY_POLL) < 0 ||
             PyModule_AddIntConstant(m, "STAGE_FOUND", STAGE_FOUND) < 0 ||
             PyModule_AddIntConstant(m, "STAGE_DISTANCES", STAGE_DISTANCES) < 0 ||
             PyModule_AddIntConstant(m, "FRONTIER_THREADS", FRONTIER_THREADS) < 0 ||
             PyModule_AddIntConstant(m, "KEY_FIELD_BITS", KEY_FIELD_BITS) < 0 ||
             PyModule_AddIntConstant(m, "NEAR_NONE", NEAR_NONE) < 0 ||
             PyModule_AddIntConstant(m, "NEAR_ONE", NEAR_ONE) < 0 ||
             PyModule_AddIntConstant(m, "NEAR_TWO", NEAR_TWO) < 0 ||
             PyModule_AddIntConstant(m, "NEAR_MAYBE", NEAR_MAYBE) < 0;
    Py_XDECREF(spec_fields);
    if (failed) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
