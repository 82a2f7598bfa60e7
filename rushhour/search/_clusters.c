/* The cluster search of rushhour.database, compiled: one part of a database (see docs/enumerate.md).
 *
 * clusters(width, height, goal_row, walls, rows, columns, distances) -> (text, stats)
 *   walls: the wall cells (row * width + col); rows[r] / columns[c]: the vehicle sequences allowed in
 *   that lane (each a tuple of lengths, in order along the lane; the last vehicle of the goal row is the
 *   goal car); distances: whether each line ends with the count of positions at each distance.
 *   text: the database lines of the part, "MOVES BOARD CLUSTER[ DISTANCES]\n" each, in the order found;
 *   stats: (shards, seeds, positions, clusters), see _clusters.h: the clusters searched are those
 *   with a won position, and positions counts theirs.
 *
 * It does what the reference, rushhour.database.reference.python_part, does, in the same order:
 * 1. every *seed* of every shard of the part: a won position where no other vehicle can move left or
 *    up by one cell, found by placing each row's horizontal vehicles, then each column's vertical ones
 *    (every cluster with a won position holds a seed: docs/enumerate.md);
 * 2. shard by shard (ordered by the sequences' ids), a breadth-first search from each seed not seen
 *    yet gives a cluster (in a hash table of its own, which stays small; the seeds it reaches are
 *    marked seen, and its moves are recorded), then its distances to a win by a breadth-first search
 *    over the recorded moves from all its won positions at once;
 * 3. its hardest position (the farthest, ties by least (horizontal cells, vertical cells)) is kept when
 *    removing any other vehicle or any wall gives a shorter solution (a search limited to one move
 *    less than the hardest distance).
 * A position is keyed by its two occupancy bitboards (horizontal cells, vertical cells): within a
 * shard the vehicles of a lane keep their order, so the cells give the offsets back.
 */
#define PY_SSIZE_T_CLEAN
#include "_clusters.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV ENUM_MAX_VEHICLES
#define MAXS ENUM_MAX_SIDE

/* a position: its two occupancy bitboards, and its code: the offsets in mixed radix when they fit 64
 * bits (`exact` shapes: the code alone tells positions apart), else a hash of the bitboards */
typedef struct {
    uint64_t h, v, code;
} Key;

/* Lookup tables of one board size: a lane's occupied cells (bit p: position p along it) give every
 * offset a vehicle can slide to; the occupancy read by columns (bit col * height + row) comes from
 * the rows' bits through `transpose`. */
typedef struct {
    uint64_t transpose[MAXS][256];                 /* row r's cells -> the same cells, column-major */
    unsigned char reach[2][MAXS + 1][MAXS][256];   /* [vertical][length][offset][lane] -> offsets */
} Lanes;

typedef struct {
    int width, height, n, goal, won;
    int nh;                    /* the horizontal vehicles come first: 0 to nh - 1 */
    uint64_t way[MAXS];        /* the cells between the goal car at each offset and the exit */
    uint64_t walls;
    const Lanes *lanes;
    int horizontal[MAXV], length[MAXV], span[MAXV];
    int shift[MAXV];           /* the lane's first bit: in the occupancy (rows), or read by columns */
    uint64_t bit[MAXV][MAXS];  /* the cell at each position along the vehicle's lane */
    uint64_t mask[MAXV][MAXS]; /* the vehicle's cells at each offset */
    uint64_t radix[MAXV];      /* the weight of each vehicle's offset in a position's code */
    int exact;                 /* whether the codes fit 64 bits */
} Shape;

static inline uint64_t hash_cells(uint64_t h, uint64_t v) {
    uint64_t x = h * 0x9E3779B97F4A7C15ULL ^ (v + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    return x;
}

/* the weights of the vehicles' offsets in the codes */
static void set_radix(Shape *s) {
    uint64_t w = 1;
    s->exact = 1;
    for (int i = 0; i < s->n; i++) {
        s->radix[i] = w;
        uint64_t range = (uint64_t)(s->span[i] - s->length[i] + 1);
        if (w > UINT64_MAX / range) s->exact = 0;
        w *= range;
    }
}

static inline uint64_t code_of(const Shape *s, const unsigned char *off, uint64_t h, uint64_t v) {
    if (!s->exact) return hash_cells(h, v);
    uint64_t code = 0;
    for (int i = 0; i < s->n; i++) code += off[i] * s->radix[i];
    return code;
}

static void lanes_init(Lanes *t, int width, int height) {
    memset(t, 0, sizeof(*t));
    for (int r = 0; r < height; r++)
        for (unsigned bits = 0; bits < (1u << width); bits++)
            for (int c = 0; c < width; c++)
                if (bits >> c & 1) t->transpose[r][bits] |= (uint64_t)1 << (c * height + r);
    for (int d = 0; d < 2; d++) {
        int span = d ? height : width;
        for (int len = 1; len <= span; len++)
            for (int o = 0; o + len <= span; o++)
                for (unsigned bits = 0; bits < (1u << span); bits++) {
                    unsigned reach = 0;
                    for (int p = o - 1; p >= 0 && !(bits >> p & 1); p--) reach |= 1u << p;
                    for (int p = o + 1; p + len <= span && !(bits >> (p + len - 1) & 1); p++) reach |= 1u << p;
                    t->reach[d][len][o][bits] = (unsigned char)reach;
                }
    }
}

#if defined(__GNUC__) || defined(__clang__)
#define LOWEST_BIT(x) __builtin_ctz(x)
#define POPCOUNT(x) __builtin_popcountll(x)
#else
static int POPCOUNT(uint64_t x) {
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}
static int LOWEST_BIT(unsigned x) {
    int n = 0;
    while (!(x & 1)) x >>= 1, n++;
    return n;
}
#endif

/* ------------------------------------------------------------------ a hash set of positions */

/* One slot of the open-addressing table: the key itself (a lookup reads one cache line), the
 * position's index, and the generation that makes the slot valid (a reset is O(1)). */
typedef struct {
    uint64_t code;
    uint32_t index, gen;
} Slot;

typedef struct {
    int n;
    size_t count, capacity, bytes;
    unsigned char *offsets; /* count * n, in `bytes` allocated */
    Key *keys;
    int32_t *dist;
    size_t slots; /* a power of two, at least twice count */
    Slot *table;  /* valid when table[i].gen == gen */
    uint32_t gen;
    int exact;    /* whether a code alone tells positions apart (else the bitboards are compared) */
} Store;

#define STORE_FIRST_SLOTS 1024
#define STORE_KEPT_SLOTS ((size_t)1 << 12) /* a reset shrinks a larger table back to this */

static inline uint64_t mix(Key k) {
    uint64_t x = k.code * 0x9E3779B97F4A7C15ULL;
    return x ^ x >> 29;
}

static int store_init(Store *st) {
    memset(st, 0, sizeof(*st));
    st->slots = STORE_FIRST_SLOTS;
    st->table = calloc(st->slots, sizeof(Slot));
    st->gen = 1;
    return st->table ? 0 : -1;
}

static void store_free(Store *st) {
    free(st->offsets);
    free(st->keys);
    free(st->dist);
    free(st->table);
}


/* the position's index, looking from slot i (its hash's slot), or -1 */
static inline int64_t store_find_from(const Store *st, Key k, size_t i) {
    size_t m = st->slots - 1;
    while (st->table[i].gen == st->gen) {
        if (st->table[i].code == k.code) {
            uint32_t j = st->table[i].index;
            if (st->exact || (st->keys[j].h == k.h && st->keys[j].v == k.v)) return j;
        }
        i = (i + 1) & m;
    }
    return -1;
}

static inline int64_t store_find(const Store *st, Key k) {
    return store_find_from(st, k, mix(k) & (st->slots - 1));
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

static int store_rehash(Store *st, size_t slots) {
    Slot *table = calloc(slots, sizeof(Slot));
    if (!table) return -1;
    free(st->table);
    st->table = table;
    st->slots = slots;
    st->gen = 1;
    for (size_t j = 0; j < st->count; j++) {
        size_t i = mix(st->keys[j]) & (slots - 1);
        while (table[i].gen == 1) i = (i + 1) & (slots - 1);
        table[i] = (Slot){st->keys[j].code, (uint32_t)j, 1};
    }
    return 0;
}

/* forgets every position: 0, or -1 when memory runs out */
static int store_reset(Store *st, int n, int exact) {
    st->n = n;
    st->exact = exact;
    st->count = 0;
    if (st->slots > STORE_KEPT_SLOTS) /* a small table for the next search: it stays in cache */
        return store_rehash(st, STORE_KEPT_SLOTS);
    if (++st->gen == 0) { /* wrapped: forget every generation */
        memset(st->table, 0, st->slots * sizeof(Slot));
        st->gen = 1;
    }
    return 0;
}

/* adds a position known to be new; returns its index, or -1 when memory runs out */
static int64_t store_add(Store *st, Key k, const unsigned char *off) {
    if ((st->count + 1) * (size_t)st->n > st->bytes) {
        size_t bytes = st->bytes ? st->bytes * 2 : 1024 * (size_t)MAXV;
        while (bytes < (st->count + 1) * (size_t)st->n) bytes *= 2;
        unsigned char *o = realloc(st->offsets, bytes);
        if (!o) return -1;
        st->offsets = o;
        st->bytes = bytes;
    }
    if (st->count == st->capacity) {
        size_t cap = st->capacity ? st->capacity * 2 : 1024;
        Key *ks = realloc(st->keys, cap * sizeof(Key));
        if (!ks) return -1;
        st->keys = ks;
        int32_t *d = realloc(st->dist, cap * sizeof(int32_t));
        if (!d) return -1;
        st->dist = d;
        st->capacity = cap;
    }
    if ((st->count + 1) * 4 > st->slots && store_rehash(st, st->slots * 2)) return -1;
    size_t j = st->count++;
    memcpy(st->offsets + j * (size_t)st->n, off, (size_t)st->n);
    st->keys[j] = k;
    size_t m = st->slots - 1, i = mix(k) & m;
    while (st->table[i].gen == st->gen) i = (i + 1) & m;
    st->table[i] = (Slot){k.code, (uint32_t)j, st->gen};
    return (int64_t)j;
}

/* ------------------------------------------------------------------ moves */

typedef struct {
    int vehicle, offset;
    Key key;
} Succ;

/* the moves of vehicle i from offset o to the offsets in `reach`, appended to out[m..]; the new m */
static inline int slides(const Shape *s, int i, int o, unsigned reach, Key k, int across, Succ *out, int m) {
    uint64_t own = s->mask[i][o];
    while (reach) {
        int p = LOWEST_BIT(reach);
        uint64_t change = own ^ s->mask[i][p];
        reach &= reach - 1;
        out[m].vehicle = i;
        out[m].offset = p;
        out[m].key.h = across ? k.h : k.h ^ change;
        out[m].key.v = across ? k.v ^ change : k.v;
        out[m].key.code = s->exact ? k.code + ((uint64_t)p - (uint64_t)o) * s->radix[i]
                                   : hash_cells(out[m].key.h, out[m].key.v);
        m++;
    }
    return m;
}

/* every position one move away (vehicle by vehicle, offsets in increasing order); the horizontal
 * vehicles come first, read from the rows, then the vertical ones, read from the columns */
static int successors(const Shape *s, const unsigned char *off, Key k, Succ *out) {
    const Lanes *t = s->lanes;
    uint64_t occ = s->walls | k.h | k.v;
    unsigned rows = (1u << s->width) - 1, cols = (1u << s->height) - 1;
    int m = 0, i = 0;
    for (; i < s->nh; i++) {
        int o = off[i];
        m = slides(s, i, o, t->reach[0][s->length[i]][o][(occ >> s->shift[i]) & rows], k, 0, out, m);
    }
    if (i == s->n) return m;
    uint64_t by_columns = 0;
    for (int r = 0; r < s->height; r++) by_columns |= t->transpose[r][(occ >> (r * s->width)) & rows];
    for (; i < s->n; i++) {
        int o = off[i];
        m = slides(s, i, o, t->reach[1][s->length[i]][o][(by_columns >> s->shift[i]) & cols], k, 1, out, m);
    }
    return m;
}

#define MAX_SUCC (MAXV * MAXS * 2)

/* whether a won position is less than `limit` moves from `start`: 1 yes, 0 no, -1 out of memory */
static int shorter(const Shape *s, const unsigned char *start, Key k, int limit, Store *tmp) {
    Succ succ[MAX_SUCC];
    unsigned char off[MAXV];
    if (store_reset(tmp, s->n, s->exact) || store_add(tmp, k, start) < 0) return -1;
    size_t begin = 0, end = 1;
    for (int depth = 1; depth < limit && begin < end; depth++) {
        for (size_t q = begin; q < end; q++) {
            memcpy(off, tmp->offsets + q * (size_t)s->n, (size_t)s->n);
            int m = successors(s, off, tmp->keys[q], succ);
            for (int j = 0; j < m; j++) {
                if (store_find(tmp, succ[j].key) >= 0) continue;
                int at = succ[j].vehicle == s->goal ? succ[j].offset : off[s->goal];
                if (at == s->won) return 1;
                /* a solution from here moves the goal car and every vehicle across its way: when that
                 * is not less than `limit` moves in all, no shorter solution passes here */
                uint64_t way = s->way[at];
                if (way & s->walls || depth + 1 + POPCOUNT(way & succ[j].key.v) >= limit) continue;
                unsigned char was = off[succ[j].vehicle];
                off[succ[j].vehicle] = (unsigned char)succ[j].offset;
                int64_t added = store_add(tmp, succ[j].key, off);
                off[succ[j].vehicle] = was;
                if (added < 0) return -1;
            }
        }
        begin = end;
        end = tmp->count;
    }
    return 0;
}

/* the shape without vehicle `gone`, and the position without its offset and cells */
static void without(const Shape *s, int gone, const unsigned char *off, Key k, Shape *r,
                    unsigned char *roff, Key *rk) {
    *r = *s;
    int j = 0;
    for (int i = 0; i < s->n; i++) {
        if (i == gone) continue;
        r->horizontal[j] = s->horizontal[i];
        r->length[j] = s->length[i];
        r->span[j] = s->span[i];
        r->shift[j] = s->shift[i];
        memcpy(r->bit[j], s->bit[i], sizeof(s->bit[i]));
        memcpy(r->mask[j], s->mask[i], sizeof(s->mask[i]));
        roff[j++] = off[i];
    }
    r->n = s->n - 1;
    r->nh = s->nh - s->horizontal[gone];
    r->goal = s->goal - (gone < s->goal);
    set_radix(r);
    *rk = k;
    if (s->horizontal[gone]) rk->h &= ~s->mask[gone][off[gone]];
    else rk->v &= ~s->mask[gone][off[gone]];
    rk->code = code_of(r, roff, rk->h, rk->v);
}

/* 1 when removing any vehicle but the goal, or any wall, makes the solution shorter; -1 out of memory.
 * The vehicles in `moved` are known to: each moves on some shortest solution, which without its moves
 * is a shorter solution of the position without it (docs/enumerate.md); the others are searched. */
static int minimal(const Shape *s, const unsigned char *off, Key k, int moves, uint32_t moved, Store *tmp) {
    Shape r;
    unsigned char roff[MAXV];
    Key rk;
    for (int i = 0; i < s->n; i++) {
        if (i == s->goal || moved >> i & 1) continue;
        without(s, i, off, k, &r, roff, &rk);
        int got = shorter(&r, roff, rk, moves, tmp);
        if (got <= 0) return got;
    }
    for (int cell = 0; cell < s->width * s->height; cell++) {
        uint64_t b = (uint64_t)1 << cell;
        if (!(s->walls & b)) continue;
        r = *s;
        r.walls &= ~b;
        int got = shorter(&r, off, k, moves, tmp);
        if (got <= 0) return got;
    }
    return 1;
}

/* ------------------------------------------------------------------ output */

typedef struct {
    char *text;
    size_t len, cap;
} Text;

static int text_add(Text *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->len + n + 1) cap *= 2;
        char *p = realloc(t->text, cap);
        if (!p) return -1;
        t->text = p;
        t->cap = cap;
    }
    memcpy(t->text + t->len, s, n);
    t->len += n;
    return 0;
}

/* the position in the published lettering: A the goal car; B, C... first for the walls of the goal row,
 * then for the horizontal vehicles and the walls of the other rows, row by row from the top in
 * reading order (a wall takes a letter and shows as x), then for the vertical vehicles column by
 * column, top to bottom (the order of the shape's vertical vehicles) */
static void render(const Shape *s, int goal_row, const unsigned char *off, char *out) {
    int cells = s->width * s->height;
    char next = 'B';
    for (int c = 0; c < cells; c++) out[c] = 'o';
    for (int k = -1; k < s->height; k++) {
        if (k == goal_row) continue;
        int r = k < 0 ? goal_row : k;
        for (int c = r * s->width; c < (r + 1) * s->width; c++) {
            uint64_t b = (uint64_t)1 << c;
            if (s->walls & b) {
                out[c] = 'x';
                next++;
                continue;
            }
            for (int i = 0; i < s->n; i++) {
                if (!s->horizontal[i] || !(s->mask[i][off[i]] & b) || out[c] != 'o') continue;
                char letter = i == s->goal ? 'A' : next++;
                for (int t = 0; t < s->length[i]; t++) out[c + t] = letter;
            }
        }
    }
    for (int i = 0; i < s->n; i++) {
        if (s->horizontal[i]) continue;
        for (int c = 0; c < cells; c++)
            if (s->mask[i][off[i]] >> c & 1) out[c] = next;
        next++;
    }
    out[cells] = 0;
}

/* ------------------------------------------------------------------ lanes and packed positions */

typedef struct {
    int seq;           /* index of the sequence among the lane's allowed ones */
    uint64_t mask;     /* the cells of the lane's vehicles */
    uint64_t need;     /* cells before a vehicle that something across must fill (seeds) */
} Entry;

typedef struct {
    Entry *items;
    size_t count, cap;
} Entries;

typedef struct {
    uint64_t rows, cols; /* the sequence id of each lane, a byte each: the shard */
    uint64_t h, v;
} Packed;

typedef struct {
    int width, height, goal_row;
    uint64_t walls;
    int nseq[2][MAXS];               /* [0] rows, [1] columns */
    int seqlen[2][MAXS][ENUM_MAX_SEQUENCES];
    unsigned char seq[2][MAXS][ENUM_MAX_SEQUENCES][MAXS];
    Entries lanes[2][MAXS];
    Packed *packed;
    size_t npacked, cap;
} Job;

static inline uint64_t cell(const Job *j, int horizontal, int lane, int pos) {
    return (uint64_t)1 << (horizontal ? lane * j->width + pos : pos * j->width + lane);
}

/* room for `count` items of `size` bytes in *items (of *cap): 0, or -1 when memory runs out */
static int reserve(void **items, size_t *cap, size_t count, size_t size) {
    if (count <= *cap) return 0;
    size_t more = *cap ? *cap : 1024;
    while (more < count) more *= 2;
    void *p = realloc(*items, more * size);
    if (!p) return -1;
    *items = p;
    *cap = more;
    return 0;
}

static int entries_add(Entries *e, Entry x) {
    if (reserve((void **)&e->items, &e->cap, e->count + 1, sizeof(Entry))) return -1;
    e->items[e->count++] = x;
    return 0;
}

/* every placement of sequence `sq` in lane `lane` from vehicle `k` on, starting at `pos` */
static int place(Job *j, int horizontal, int lane, int sq, int k, int pos, uint64_t mask, uint64_t need) {
    int d = horizontal ? 0 : 1, span = horizontal ? j->width : j->height;
    if (k == j->seqlen[d][lane][sq]) {
        Entry e = {sq, mask, need};
        return entries_add(&j->lanes[d][lane], e);
    }
    int len = j->seq[d][lane][sq][k];
    for (int p = pos; p + len <= span; p++) {
        uint64_t m = 0;
        for (int t = 0; t < len; t++) m |= cell(j, horizontal, lane, p + t);
        if (m & j->walls) continue;
        uint64_t before = p > 0 ? cell(j, horizontal, lane, p - 1) : 0;
        uint64_t n = need | (before & ~mask & ~j->walls);
        if (place(j, horizontal, lane, sq, k + 1, p + len, mask | m, n)) return -1;
    }
    return 0;
}

static int packed_add(Job *j, Packed p) {
    if (reserve((void **)&j->packed, &j->cap, j->npacked + 1, sizeof(Packed))) return -1;
    j->packed[j->npacked++] = p;
    return 0;
}

static int fill_columns(Job *j, int c, uint64_t h, uint64_t v, uint64_t need, uint64_t rows, uint64_t cols) {
    if (c == j->width) {
        Packed p = {rows, cols, h, v};
        return packed_add(j, p);
    }
    uint64_t column = 0;
    for (int r = 0; r < j->height; r++) column |= cell(j, 0, c, r);
    uint64_t want = need & column;
    Entries *e = &j->lanes[1][c];
    for (size_t t = 0; t < e->count; t++) {
        Entry *x = &e->items[t];
        if ((x->mask & h) || (x->need & ~h) || (want & ~x->mask)) continue;
        if (fill_columns(j, c + 1, h, v | x->mask, need, rows, cols | (uint64_t)x->seq << (8 * c))) return -1;
    }
    return 0;
}

static int fill_rows(Job *j, int r, uint64_t h, uint64_t need, uint64_t rows) {
    if (r == j->height) return fill_columns(j, 0, h, 0, need, rows, 0);
    Entries *e = &j->lanes[0][r];
    for (size_t t = 0; t < e->count; t++) {
        Entry *x = &e->items[t];
        if (fill_rows(j, r + 1, h | x->mask, need | x->need, rows | (uint64_t)x->seq << (8 * r))) return -1;
    }
    return 0;
}

static int packed_order(const void *a, const void *b) {
    const Packed *x = a, *y = b;
    if (x->rows != y->rows) return x->rows < y->rows ? -1 : 1;
    if (x->cols != y->cols) return x->cols < y->cols ? -1 : 1;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return 0;
}

/* the vehicles of one shard: horizontal ones row by row, then vertical ones column by column */
static int shape_of(const Job *j, const Lanes *lanes, uint64_t rows, uint64_t cols, Shape *s) {
    memset(s, 0, sizeof(*s));
    s->lanes = lanes;
    s->width = j->width;
    s->height = j->height;
    s->walls = j->walls;
    s->goal = -1;
    for (int d = 0; d < 2; d++) {
        int lanes = d ? j->width : j->height, span = d ? j->height : j->width;
        for (int lane = 0; lane < lanes; lane++) {
            int sq = (int)((d ? cols : rows) >> (8 * lane) & 0xff);
            for (int k = 0; k < j->seqlen[d][lane][sq]; k++) {
                if (s->n == MAXV) return -1;
                int i = s->n++, len = j->seq[d][lane][sq][k];
                s->horizontal[i] = !d;
                s->length[i] = len;
                s->span[i] = span;
                s->shift[i] = d ? lane * j->height : lane * j->width;
                for (int p = 0; p < span; p++) s->bit[i][p] = cell(j, !d, lane, p);
                for (int p = 0; p + len <= span; p++) {
                    s->mask[i][p] = 0;
                    for (int t = 0; t < len; t++) s->mask[i][p] |= s->bit[i][p + t];
                }
                if (!d && lane == j->goal_row && k == j->seqlen[d][lane][sq] - 1) {
                    s->goal = i;
                    s->won = span - len;
                    for (int o = 0; o + len <= span; o++)
                        for (int p = o + len; p < span; p++) s->way[o] |= s->bit[i][p];
                }
            }
        }
    }
    for (int i = 0; i < s->n; i++) s->nh += s->horizontal[i];
    /* the goal car is A; every other vehicle and every wall takes one of the letters B to Z */
    set_radix(s);
    int pieces = s->n - 1;
    for (uint64_t w = s->walls; w; w &= w - 1) pieces++;
    return s->goal < 0 || pieces > 25 ? -1 : 0;
}

/* the offsets of a position of the shape from its two bitboards */
static void offsets_of(const Shape *s, Key k, unsigned char *off) {
    int i = 0;
    while (i < s->n) {
        /* the vehicles of one lane are consecutive and ordered along it */
        int first = i, pos = 0;
        uint64_t cells = s->horizontal[i] ? k.h : k.v;
        while (i < s->n && s->horizontal[i] == s->horizontal[first] && s->bit[i][0] == s->bit[first][0]) {
            while (!(cells & s->bit[i][pos])) pos++;
            off[i] = (unsigned char)pos;
            pos += s->length[i];
            i++;
        }
    }
}

typedef struct {
    long long shards, seeds, positions, clusters;
} Stats;

typedef struct {
    size_t *queue;
    size_t cap;
    long long *hist;
    int hist_cap;
    unsigned char *seen; /* the shard's seeds already in a searched cluster */
    size_t seen_cap;
    uint32_t *edges;     /* the cluster's moves: position q's neighbours are edges[first[q]..first[q+1]) */
    size_t edges_cap;
    size_t *first;
    size_t first_cap;
    unsigned char *mark; /* the positions met on the cluster's shortest solutions */
    size_t mark_cap;
} Scratch;

/* the cluster's moves are kept for the distance search up to this many (4 bytes each); beyond, the
 * distance search generates them again */
#define MAX_EDGES ((size_t)1 << 27)

/* whether a won position is a seed: no vehicle but the goal car can slide one cell left or up */
static inline int is_seed(const Shape *s, const unsigned char *off, Key k) {
    uint64_t occ = s->walls | k.h | k.v;
    for (int i = 0; i < s->n; i++)
        if (i != s->goal && off[i] > 0 && !(occ & s->bit[i][off[i] - 1])) return 0;
    return 1;
}

/* marks the seed `k` among packed[0..count) (ordered by h, then v) as seen */
static void mark_seed(const Packed *packed, size_t count, unsigned char *seen, Key k) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const Packed *p = &packed[mid];
        if (p->h < k.h || (p->h == k.h && p->v < k.v)) lo = mid + 1;
        else hi = mid;
    }
    if (lo < count && packed[lo].h == k.h && packed[lo].v == k.v) seen[lo] = 1;
}

/* adds to st the successors succ[0..m) of the position `off` that it lacks (marking the seeds among
 * them seen in packed[0..count)); with `edges`, writes each successor's index to edges[0..m) */
static int add_successors(const Shape *s, const Packed *packed, size_t count, Store *st, Scratch *sc,
                          unsigned char *off, const Succ *succ, int m, uint32_t *edges) {
    size_t slot[MAX_SUCC], slots = st->slots;
    for (int j = 0; j < m; j++) { /* the table is larger than the cache: load its lines at once */
        slot[j] = mix(succ[j].key) & (st->slots - 1);
        PREFETCH(&st->table[slot[j]]);
    }
    for (int j = 0; j < m; j++) {
        /* (a position added since may have grown the table: then the slot is found again) */
        int64_t x = st->slots == slots ? store_find_from(st, succ[j].key, slot[j]) : store_find(st, succ[j].key);
        if (x < 0) {
            unsigned char was = off[succ[j].vehicle];
            off[succ[j].vehicle] = (unsigned char)succ[j].offset;
            x = store_add(st, succ[j].key, off);
            if (x >= 0 && off[s->goal] == s->won && is_seed(s, off, succ[j].key))
                mark_seed(packed, count, sc->seen, succ[j].key);
            off[succ[j].vehicle] = was;
            if (x < 0) return -1;
        }
        if (edges) edges[j] = (uint32_t)x;
    }
    return 0;
}

/* phase 1: the cluster of the seed packed[t], collected in st by a breadth-first search in a store of
 * its own (small, so it stays in cache); its moves are recorded in sc->first and sc->edges while they
 * fit (*keep); the seeds it holds are marked seen */
static int collect_cluster(const Shape *s, const Packed *packed, size_t count, size_t t, Store *st, Scratch *sc,
                           int *keep) {
    Succ succ[MAX_SUCC];
    unsigned char off[MAXV];
    Key seed = {packed[t].h, packed[t].v, 0};
    offsets_of(s, seed, off);
    seed.code = code_of(s, off, seed.h, seed.v);
    if (store_reset(st, s->n, s->exact) || store_add(st, seed, off) < 0) return -1;
    sc->seen[t] = 1;
    size_t nedges = 0;
    *keep = 1;
    for (size_t q = 0; q < st->count; q++) {
        memcpy(off, st->offsets + q * (size_t)s->n, (size_t)s->n);
        int m = successors(s, off, st->keys[q], succ);
        if (*keep) {
            if (reserve((void **)&sc->first, &sc->first_cap, q + 2, sizeof(size_t))) return -1;
            sc->first[q] = nedges;
            if (nedges + (size_t)m > MAX_EDGES) *keep = 0;
            else if (reserve((void **)&sc->edges, &sc->edges_cap, nedges + (size_t)m, sizeof(uint32_t)))
                return -1;
        }
        if (add_successors(s, packed, count, st, sc, off, succ, m, *keep ? sc->edges + nedges : NULL)) return -1;
        if (*keep) nedges += (size_t)m;
    }
    if (*keep) sc->first[st->count] = nedges;
    return 0;
}

/* phase 2: every position's distance to the nearest win (st->dist), by a breadth-first search from the
 * won positions over the recorded moves (generated again without `keep`); *tail: the positions queued,
 * the last one among the farthest */
static int distances_to_win(const Shape *s, Store *st, Scratch *sc, int keep, size_t *tail_out) {
    Succ succ[MAX_SUCC];
    if (reserve((void **)&sc->queue, &sc->cap, st->count, sizeof(size_t))) return -1;
    size_t head = 0, tail = 0;
    for (size_t q = 0; q < st->count; q++) {
        if (st->offsets[q * (size_t)s->n + s->goal] == s->won) {
            st->dist[q] = 0;
            sc->queue[tail++] = q;
        } else {
            st->dist[q] = -1;
        }
    }
    while (head < tail) {
        size_t q = sc->queue[head++];
        int32_t next = st->dist[q] + 1;
        if (keep) {
            for (size_t e = sc->first[q]; e < sc->first[q + 1]; e++) {
                uint32_t x = sc->edges[e];
                if (st->dist[x] < 0) {
                    st->dist[x] = next;
                    sc->queue[tail++] = x;
                }
            }
            continue;
        }
        int m = successors(s, st->offsets + q * (size_t)s->n, st->keys[q], succ);
        for (int j = 0; j < m; j++) {
            int64_t x = store_find(st, succ[j].key);
            if (st->dist[x] < 0) {
                st->dist[x] = next;
                sc->queue[tail++] = (size_t)x;
            }
        }
    }
    *tail_out = tail;
    return 0;
}

/* phase 3: the hardest position: the farthest from a win, ties by the least (h, v) */
static size_t hardest_position(const Store *st, const Scratch *sc, size_t tail) {
    size_t best = sc->queue[tail - 1];
    int32_t moves = st->dist[best];
    for (size_t q = 0; q < st->count; q++) {
        if (st->dist[q] != moves) continue;
        Key a = st->keys[q], b = st->keys[best];
        if (a.h < b.h || (a.h == b.h && a.v < b.v)) best = q;
    }
    return best;
}

/* phase 4: the vehicles that move on some shortest solution from the hardest position `best`: the
 * moves down the distances from it, position by position (the queue is free again) */
static int moved_vehicles(const Shape *s, Store *st, Scratch *sc, size_t best, int keep, uint32_t *moved_out) {
    Succ succ[MAX_SUCC];
    uint32_t moved = 0, all = (((uint32_t)1 << s->n) - 1) & ~((uint32_t)1 << s->goal);
    if (reserve((void **)&sc->mark, &sc->mark_cap, st->count, 1)) return -1;
    memset(sc->mark, 0, st->count);
    size_t head = 0, tail = 0;
    sc->queue[tail++] = best;
    sc->mark[best] = 1;
    while (head < tail && (moved & all) != all) {
        size_t q = sc->queue[head++];
        int32_t down = st->dist[q] - 1;
        const unsigned char *from = st->offsets + q * (size_t)s->n;
        int m = keep ? (int)(sc->first[q + 1] - sc->first[q]) : successors(s, from, st->keys[q], succ);
        for (int j = 0; j < m; j++) {
            size_t x;
            int vehicle = 0;
            if (keep) {
                x = sc->edges[sc->first[q] + (size_t)j];
                if (st->dist[x] != down) continue;
                const unsigned char *to = st->offsets + x * (size_t)s->n;
                while (from[vehicle] == to[vehicle]) vehicle++;
            } else {
                x = (size_t)store_find(st, succ[j].key);
                if (st->dist[x] != down) continue;
                vehicle = succ[j].vehicle;
            }
            moved |= (uint32_t)1 << vehicle;
            if (!sc->mark[x]) {
                sc->mark[x] = 1;
                sc->queue[tail++] = x;
            }
        }
    }
    *moved_out = moved;
    return 0;
}

/* phase 5: the cluster's database line, MOVES BOARD CLUSTER[ DISTANCES], the hardest position at `off` */
static int write_line(const Shape *s, int goal_row, const unsigned char *off, int moves, const Store *st,
                      Scratch *sc, int distances, Text *out) {
    char line[96], board[65];
    render(s, goal_row, off, board);
    int len = snprintf(line, sizeof(line), "%02d %s %zu", moves, board, st->count);
    if (text_add(out, line, (size_t)len)) return -1;
    if (distances) {
        if (moves + 1 > sc->hist_cap) {
            long long *hst = realloc(sc->hist, (size_t)(moves + 1) * sizeof(long long));
            if (!hst) return -1;
            sc->hist = hst;
            sc->hist_cap = moves + 1;
        }
        memset(sc->hist, 0, (size_t)(moves + 1) * sizeof(long long));
        for (size_t q = 0; q < st->count; q++) sc->hist[st->dist[q]]++;
        for (int d = 0; d <= moves; d++) {
            len = snprintf(line, sizeof(line), "%c%lld", d ? ',' : ' ', sc->hist[d]);
            if (text_add(out, line, (size_t)len)) return -1;
        }
    }
    return text_add(out, "\n", 1);
}

/* every cluster of one shard with a won position, from its seeds packed[0..count): each one collected
 * (phase 1), its distances (2), its hardest position (3) and the vehicles that move on its shortest
 * solutions (4) found; a minimal hardest position gives a database line (5).  The seeds a cluster
 * holds are marked seen, so that no cluster is searched twice */
static int run_shard(const Shape *s, int goal_row, const Packed *packed, size_t count, Store *st, Store *tmp,
                     Scratch *sc, int distances, Text *out, Stats *stats) {
    unsigned char off[MAXV];
    stats->shards++;
    if (reserve((void **)&sc->seen, &sc->seen_cap, count, 1)) return -1;
    memset(sc->seen, 0, count);
    for (size_t t = 0; t < count; t++) {
        if (sc->seen[t]) continue;
        int keep;
        size_t tail;
        uint32_t moved;
        if (collect_cluster(s, packed, count, t, st, sc, &keep)) return -1;
        stats->clusters++;
        stats->positions += (long long)st->count;
        if (distances_to_win(s, st, sc, keep, &tail)) return -1;
        size_t best = hardest_position(st, sc, tail);
        int moves = st->dist[best];
        if (moved_vehicles(s, st, sc, best, keep, &moved)) return -1;
        memcpy(off, st->offsets + best * (size_t)s->n, (size_t)s->n);
        int got = minimal(s, off, st->keys[best], moves, moved, tmp);
        if (got < 0) return -1;
        if (got && write_line(s, goal_row, off, moves, st, sc, distances, out)) return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ from Python */

static int read_lanes(Job *j, PyObject *lanes, int d) {
    int count = d ? j->width : j->height;
    if (!PyTuple_Check(lanes) || PyTuple_GET_SIZE(lanes) != count) {
        PyErr_SetString(PyExc_ValueError, "clusters: one tuple of sequences per lane");
        return -1;
    }
    for (int lane = 0; lane < count; lane++) {
        PyObject *seqs = PyTuple_GET_ITEM(lanes, lane);
        if (!PyTuple_Check(seqs) || PyTuple_GET_SIZE(seqs) > ENUM_MAX_SEQUENCES) {
            PyErr_SetString(PyExc_ValueError, "clusters: a lane's sequences are a tuple of tuples");
            return -1;
        }
        j->nseq[d][lane] = (int)PyTuple_GET_SIZE(seqs);
        for (int sq = 0; sq < j->nseq[d][lane]; sq++) {
            PyObject *lens = PyTuple_GET_ITEM(seqs, sq);
            if (!PyTuple_Check(lens) || PyTuple_GET_SIZE(lens) > MAXS) {
                PyErr_SetString(PyExc_ValueError, "clusters: a sequence is a tuple of lengths");
                return -1;
            }
            j->seqlen[d][lane][sq] = (int)PyTuple_GET_SIZE(lens);
            for (int k = 0; k < j->seqlen[d][lane][sq]; k++) {
                long len = PyLong_AsLong(PyTuple_GET_ITEM(lens, k));
                if (len == -1 && PyErr_Occurred()) return -1;
                if (len < 1 || len > (d ? j->height : j->width)) {
                    PyErr_SetString(PyExc_ValueError, "clusters: a vehicle length does not fit its lane");
                    return -1;
                }
                j->seq[d][lane][sq][k] = (unsigned char)len;
            }
            if (place(j, !d, lane, sq, 0, 0, 0, 0)) {
                PyErr_NoMemory();
                return -1;
            }
        }
        if (!d && lane == j->goal_row) {
            /* seeds are won: the goal car (the last vehicle of the goal row) stands at the exit, and
             * the cell before it need not be filled */
            uint64_t exit = cell(j, 1, lane, j->width - 1), before = 0;
            Entries *e = &j->lanes[0][lane];
            size_t kept = 0;
            for (size_t t = 0; t < e->count; t++) {
                if (!(e->items[t].mask & exit)) continue;
                int len = j->seq[0][lane][e->items[t].seq][j->seqlen[0][lane][e->items[t].seq] - 1];
                before = j->width - len - 1 >= 0 ? cell(j, 1, lane, j->width - len - 1) : 0;
                e->items[kept] = e->items[t];
                e->items[kept++].need &= ~before;
            }
            e->count = kept;
        }
    }
    return 0;
}

static void job_free(Job *j) {
    for (int d = 0; d < 2; d++)
        for (int lane = 0; lane < MAXS; lane++) free(j->lanes[d][lane].items);
    free(j->packed);
    free(j);
}

/* every shard of the job, in order; 0, -1 out of memory, -2 too many vehicles */
static int run_job(Job *j, int distances, Text *out, Stats *stats) {
    if (fill_rows(j, 0, 0, 0, 0)) return -1;
    qsort(j->packed, j->npacked, sizeof(Packed), packed_order);
    stats->seeds = (long long)j->npacked;
    Store st, tmp;
    Scratch sc = {NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0};
    int result = 0;
    if (store_init(&st)) result = -1;
    if (store_init(&tmp)) result = -1;
    Shape *s = malloc(sizeof(Shape));
    Lanes *lanes = malloc(sizeof(Lanes));
    if (!s || !lanes) result = -1;
    else lanes_init(lanes, j->width, j->height);
    for (size_t a = 0; result == 0 && a < j->npacked;) {
        size_t b = a;
        while (b < j->npacked && j->packed[b].rows == j->packed[a].rows && j->packed[b].cols == j->packed[a].cols)
            b++;
        if (shape_of(j, lanes, j->packed[a].rows, j->packed[a].cols, s)) result = -2;
        else result = run_shard(s, j->goal_row, j->packed + a, b - a, &st, &tmp, &sc, distances, out, stats);
        a = b;
    }
    free(s);
    free(lanes);
    free(sc.queue);
    free(sc.hist);
    free(sc.seen);
    free(sc.edges);
    free(sc.first);
    free(sc.mark);
    store_free(&st);
    store_free(&tmp);
    return result;
}

PyObject *native_clusters(PyObject *self, PyObject *args) {
    (void)self;
    int width, height, goal_row, distances;
    PyObject *walls, *rows, *cols;
    if (!PyArg_ParseTuple(args, "iiiO!O!O!p", &width, &height, &goal_row, &PyTuple_Type, &walls,
                          &PyTuple_Type, &rows, &PyTuple_Type, &cols, &distances))
        return NULL;
    if (width < 2 || height < 2 || width > MAXS || height > MAXS || goal_row < 0 || goal_row >= height) {
        PyErr_SetString(PyExc_ValueError, "clusters: the board is 2x2 to 8x8 and the goal row on it");
        return NULL;
    }
    Job *j = calloc(1, sizeof(Job));
    if (!j) return PyErr_NoMemory();
    j->width = width;
    j->height = height;
    j->goal_row = goal_row;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(walls); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(walls, i));
        if (c == -1 && PyErr_Occurred()) goto fail;
        if (c < 0 || c >= width * height) {
            PyErr_SetString(PyExc_ValueError, "clusters: a wall is off the board");
            goto fail;
        }
        j->walls |= (uint64_t)1 << c;
    }
    if (read_lanes(j, rows, 0) || read_lanes(j, cols, 1)) goto fail;
    Text out = {NULL, 0, 0};
    Stats stats = {0, 0, 0, 0};
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = run_job(j, distances, &out, &stats);
    Py_END_ALLOW_THREADS
    job_free(j);
    if (result == -2) {
        free(out.text);
        PyErr_SetString(PyExc_ValueError, "clusters: more vehicles and walls than letters A-Z");
        return NULL;
    }
    if (result < 0) {
        free(out.text);
        return PyErr_NoMemory();
    }
    PyObject *value = Py_BuildValue("(s#(LLLL))", out.text ? out.text : "", (Py_ssize_t)out.len, stats.shards,
                                    stats.seeds, stats.positions, stats.clusters);
    free(out.text);
    return value;
fail:
    job_free(j);
    return NULL;
}
