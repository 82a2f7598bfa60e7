/* The frontier search of rushhour.search.frontier: breadth-first over sorted layers of 16-byte keys,
 * with no parents stored; built with the rest of rushhour.search._native.
 *
 * Keys.  On a board without wrap-around, the vehicles of one lane segment (a run of a row or a column
 * between walls) never pass each other, so a segment of L cells holding k vehicles of total length S
 * has C(L - S + k, k) arrangements: vehicle i (in order along the segment) at offset o stands at
 * c_i = o - lo - sum_{j<i}(length_j - 1) in a line of L - S + k places, and the arrangement's rank is
 * sum_i C(c_i, i + 1) (the combinatorial number system).  A position's key is the mixed-radix number
 * of its segments' ranks, so key = sum over vehicles of term[v][offset]: a slide changes one term.
 * Boards whose keys need more than 128 bits, and wrap-around boards, are refused (status -1 from
 * frontier()); the Python caller then uses the other search.
 *
 * Layers.  Moves are reversible, so a successor of a position of layer d lies in layer d - 1, d or
 * d + 1.  Layer d + 1 is built from the successors of layer d, gathered in a bounded buffer; each time
 * the buffer fills it is sorted (radix, in place), made unique and stripped of the keys of layers d - 1
 * and d, giving a run; the runs are merged into layer d + 1.  Every layer stays as a sorted array.
 *
 * Answers.  Each discovered position is tested for a win in one slide of the goal; the first found
 * while layer d is expanded is at depth d + 1, and no position of an earlier layer had one, so d + 2 is
 * the optimal length.  The path is recovered backwards: for a position of layer k, a neighbour in layer
 * k - 1 found by binary search.  A stopped search reports d + 2 as a proven lower bound when layer d
 * was complete.
 *
 * Bound.  With ``bound`` > 0 the search looks only for solutions of at most that many moves: a position
 * reached at depth g is kept when g plus a lower bound on its remaining moves (blockers(), below) is at
 * most ``bound``.  Every position of a solution of at most ``bound`` moves passes that test (the lower
 * bound never exceeds its true distance), so such a solution is still found, at the same depth; and
 * leaving positions out keeps "a successor lies in layer d - 1, d or d + 1" true (a position left out
 * is left out wherever it is reached later, with a larger depth), so the layers stay exact.  The
 * caller raises the bound until a solution is found (docs/solvers.md, "The bounded passes").  A
 * position whose cleared bound is one too many for its successors' depth leaves out, where they are
 * made, the successors whose move changes nothing that bound read (see Reads): theirs is the same.
 *
 * Threads.  With ``threads`` > 1 the positions of a layer are expanded by that many threads at once, each
 * gathering its own runs; the layer is the same set, and the answer the same path, on any number of
 * threads (see "Threads" below).
 *
 * frontier(spec, start, max_states, seconds, every=False, bound=0, poll=None, threads=1)
 *     -> (status, explored, path or None, lower_bound, pruned)
 *   status 1: path (offset tuples, start first, ending with a won position); 0: no won position is
 *   reachable (explored: the reachable set), or with ``pruned`` none within the bound; 3: none is
 *   reachable, found with the vehicles that cannot matter left unmoved (explored counts fewer positions
 *   than the reachable set: ask again with ``every`` to move every vehicle); 2: max_states or the time
 *   limit stopped it; STOPPED_BY_POLL (4): ``poll`` asked it to stop; -1: the board is not supported (see above).  ``pruned``: whether the bound left
 *   out a position from which a won position may be reachable (with a bound, positions whose goal can
 *   never get past a wall or a vehicle of its own lane are left out too, silently: none is).  KeyboardInterrupt (or any signal handler's error) is let through between
 *   batches.  ``poll``: None, or a callable called as poll(STAGE_FOUND, stored) between batches every
 *   POLL_MILLISECONDS (with the GIL held; stored: the positions the pass has stored so far): a true
 *   answer stops the search with status STOPPED_BY_POLL (explored and lower_bound as for 2), an
 *   exception it raises is let through as a signal's is.
 */
#include "_native.h"
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define SEGMENT_MAX 4096           /* arrangements of one segment: decoded by a table */
#define CHUNK ((size_t)1 << 17)     /* successors gathered before a sort (2 MB: sorted in the cache) */
#define CHUNK_MIN ((size_t)1 << 10) /* at first */
#define CHECK_EVERY 256             /* positions expanded between two checks of the limits */

typedef struct {
    int nseg;
    int seg_first[MAX_VEHICLES + 1], seg_member[MAX_VEHICLES];
    uint64_t seg_size[MAX_VEHICLES];
    unsigned char *seg_table[MAX_VEHICLES]; /* rank -> the offsets of the segment's vehicles */
    u128 term[MAX_VEHICLES][MAX_OFFSETS];
    /* the goal's lane: the cells of each vehicle on it at each offset (bit p: position p along it) */
    uint32_t gmask[MAX_VEHICLES][MAX_OFFSETS];
    unsigned char touches[MAX_VEHICLES];
    unsigned char same[MAX_VEHICLES];       /* touches the goal's lane along it (a vehicle of that lane) */
    /* the vehicles that can matter (see relevance()); the others are never moved */
    unsigned char relevant[MAX_VEHICLES];
    uint32_t gwalls;
    /* along[h][cell]: the cell's position along the lanes of the vehicles of orientation h (1:
     * horizontal) that cross it */
    unsigned char along[2][MAX_CELLS];
    u128 bound;                             /* the number of keys */
    u128 unmix;                             /* the inverse of MIX */
} Ranks;

#define MIX (((u128)0x9E3779B97F4A7C15ULL << 64) | 0xD1B54A32D192ED03ULL)

static u128 inverse(u128 odd) {
    u128 x = odd;  /* Newton's iteration doubles the correct low bits: 3, 6, ..., 192 */
    for (int i = 0; i < 7; i++) x *= 2 - odd * x;
    return x;
}

static uint64_t binom(int n, int k) {
    if (k < 0 || n < k) return 0;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++) r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

static void ranks_free(Ranks *r) {
    for (int g = 0; g < r->nseg; g++) free(r->seg_table[g]);
}

/* Which vehicles can matter: the goal, and every vehicle whose segment (the cells it can ever cover)
 * shares a cell with the segment of a vehicle that can matter.  The others never cover a cell that a
 * vehicle that matters could need, so their moves can be left out of every solution: the shortest
 * solutions keep their length (docs/solvers.md, "Vehicles that cannot matter"). */
static void relevance(const Spec *s, const int *lo_of, const int *hi_of, Ranks *r) {
    uint64_t cells[MAX_VEHICLES][MAX_CELLS / 64];
    memset(cells, 0, sizeof cells);
    for (int v = 0; v < s->n; v++)
        for (int p = lo_of[v]; p < hi_of[v]; p++) {
            int c = s->lane[v][16 + p];
            cells[v][c >> 6] |= 1ULL << (c & 63);
        }
    int queue[MAX_VEHICLES], head = 0, tail = 0;
    memset(r->relevant, 0, sizeof r->relevant);
    r->relevant[s->goal] = 1;
    queue[tail++] = s->goal;
    while (head < tail) {
        int v = queue[head++];
        for (int u = 0; u < s->n; u++) {
            if (r->relevant[u]) continue;
            for (int k = 0; k < MAX_CELLS / 64; k++)
                if (cells[u][k] & cells[v][k]) {
                    r->relevant[u] = 1;
                    queue[tail++] = u;
                    break;
                }
        }
    }
}

/* 1: ranked; 0: not supported (wrap-around, or more than 128 bits); -1: out of memory */
static int ranks_init(const Spec *s, const unsigned char *start, Ranks *r) {
    memset(r, 0, sizeof *r);
    if (s->wrap) return 0;
    int seg_of[MAX_VEHICLES], lo_of[MAX_VEHICLES], hi_of[MAX_VEHICLES];
    for (int v = 0; v < s->n; v++) {
        const int *lane = s->lane[v] + 16;
        int lo = start[v], hi = start[v] + s->length[v];
        while (lo > 0 && s->empty_grid[lane[lo - 1]] != WALL) lo--;
        while (hi < s->span[v] && s->empty_grid[lane[hi]] != WALL) hi++;
        lo_of[v] = lo, hi_of[v] = hi, seg_of[v] = -1;
        for (int u = 0; u < v; u++)
            if (s->horizontal[u] == s->horizontal[v] && s->lane[u][16] == lane[0] && lo_of[u] == lo) {
                seg_of[v] = seg_of[u];
                break;
            }
        if (seg_of[v] < 0) seg_of[v] = r->nseg++;
    }
    int k = 0;
    for (int g = 0; g < r->nseg; g++) {
        r->seg_first[g] = k;
        for (int v = 0; v < s->n; v++)
            if (seg_of[v] == g) {
                /* in order along the segment */
                int at = k++;
                while (at > r->seg_first[g] && start[r->seg_member[at - 1]] > start[v]) {
                    r->seg_member[at] = r->seg_member[at - 1];
                    at--;
                }
                r->seg_member[at] = v;
            }
    }
    r->seg_first[r->nseg] = k;
    u128 mult = 1;
    for (int g = 0; g < r->nseg; g++) {
        int first = r->seg_first[g], count = r->seg_first[g + 1] - first, v0 = r->seg_member[first];
        int lo = lo_of[v0], room = hi_of[v0] - lo, total = 0;
        for (int i = 0; i < count; i++) total += s->length[r->seg_member[first + i]];
        int places = room - total + count;
        uint64_t size = binom(places, count);
        if (size == 0 || size > SEGMENT_MAX) return 0;
        if (mult > ~(u128)0 / size) return 0;
        r->seg_size[g] = size;
        int before = 0; /* sum of (length - 1) of the vehicles before */
        for (int i = 0; i < count; i++) {
            int v = r->seg_member[first + i];
            for (int o = 0; o < MAX_OFFSETS; o++) {
                int c = o - lo - before;
                r->term[v][o] = c >= 0 ? (u128)binom(c, i + 1) * mult : 0;
            }
            before += s->length[v] - 1;
        }
        unsigned char *table = malloc(size * (size_t)count);
        if (!table) return -1;
        r->seg_table[g] = table;
        for (uint64_t rank = 0; rank < size; rank++) {
            uint64_t left = rank;
            int top = places - 1, sum_before = 0;
            for (int i = 0; i < count - 1; i++) sum_before += s->length[r->seg_member[first + i]] - 1;
            for (int i = count - 1; i >= 0; i--) {
                int c = top;
                while (binom(c, i + 1) > left) c--;
                left -= binom(c, i + 1);
                top = c - 1;
                table[rank * (uint64_t)count + (uint64_t)i] = (unsigned char)(c + lo + sum_before);
                if (i > 0) sum_before -= s->length[r->seg_member[first + i - 1]] - 1;
            }
        }
        mult *= size;
    }
    relevance(s, lo_of, hi_of, r);
    /* keys are stored multiplied by an odd constant (a bijection of 128-bit numbers): their top bytes
     * are then evenly spread, which the radix sort needs to split them fast; decoding multiplies by
     * the inverse */
    for (int v = 0; v < s->n; v++)
        for (int o = 0; o < MAX_OFFSETS; o++) r->term[v][o] *= MIX;
    r->bound = mult;
    r->unmix = inverse(MIX);
    for (int v = 0; v < s->n; v++)
        for (int q = 0; q < s->span[v]; q++) r->along[s->horizontal[v] != 0][s->lane[v][16 + q]] = (unsigned char)q;
    /* the goal's lane */
    int g = s->goal;
    for (int p = 0; p < s->span[g]; p++)
        if (s->empty_grid[s->lane[g][16 + p]] == WALL) r->gwalls |= 1u << p;
    for (int v = 0; v < s->n; v++) {
        if (v == g) continue;
        int top = s->span[v] - s->length[v] + 1;
        for (int o = 0; o < top && o < MAX_OFFSETS; o++) {
            uint32_t m = 0;
            for (int q = 0; q < s->length[v]; q++) {
                int cell = s->lane[v][16 + o + q];
                for (int p = 0; p < s->span[g]; p++)
                    if (s->lane[g][16 + p] == cell) m |= 1u << p;
            }
            r->gmask[v][o] = m;
            if (m) r->touches[v] = 1;
            if (m && s->horizontal[v] == s->horizontal[g]) r->same[v] = 1;
        }
    }
    return 1;
}

/* the stored key of a state (its rank times MIX) */
static u128 key_of_state(const Spec *s, const Ranks *r, const unsigned char *state) {
    u128 key = 0;
    for (int v = 0; v < s->n; v++) key += r->term[v][state[v]];
    return key;
}

static void state_of_key(const Ranks *r, u128 key, unsigned char *state) {
    key *= r->unmix;
    for (int g = 0; g < r->nseg; g++) {
        uint64_t size = r->seg_size[g], rank;
        if ((key >> 64) == 0) {
            uint64_t low = (uint64_t)key;
            rank = low % size;
            key = low / size;
        } else {
            rank = (uint64_t)(key % size);
            key /= size;
        }
        int first = r->seg_first[g], count = r->seg_first[g + 1] - first;
        const unsigned char *offsets = r->seg_table[g] + rank * (uint64_t)count;
        for (int i = 0; i < count; i++) state[r->seg_member[first + i]] = offsets[i];
    }
}

/* the goal's lane occupied (walls and vehicles other than the goal), bit p for position p */
static uint32_t goal_lane(const Spec *s, const Ranks *r, const unsigned char *state) {
    uint32_t occ = r->gwalls;
    for (int v = 0; v < s->n; v++)
        if (r->touches[v]) occ |= r->gmask[v][state[v]];
    return occ;
}

/* the winning offset the goal reaches in one slide from ``go`` with its lane occupied as ``occ``, or -1 */
static int win_in_one(const Spec *s, int go, uint32_t occ) {
    int g = s->goal, span = s->span[g], length = s->length[g];
    int room = go;
    if (s->steps && room > 1) room = 1;
    for (int d = 1; d <= room && !(occ & (1u << (go - d))); d++)
        if (s->won[go - d]) return go - d;
    room = span - length - go;
    if (s->steps && room > 1) room = 1;
    for (int d = 1; d <= room && !(occ & (1u << (go + length - 1 + d))); d++)
        if (s->won[go + d]) return go + d;
    return -1;
}

/* A lower bound on the moves left from a position whose goal stands at ``go`` (not won), with the
 * goal's lane occupied as ``occ`` (walls and vehicles) and ``same`` (the vehicles of the goal's own
 * lane): for each winning offset, the goal must move once and every vehicle across its way must move
 * away first, each one cell of the lane (different vehicles, different moves); a way holding a wall or a
 * vehicle of the goal's own lane can never be cleared.  The smallest over the winning offsets, or
 * NO_WAY.  (The "blockers" bound of rushhour.search.heuristics, moves metric.) */
#define NO_WAY 1000

/* the cells of the goal's lane (bit p: position p) that the goal, of this length, covers on its way
 * from offset go to offset t, beyond its own */
static inline uint32_t goal_way(int go, int t, int length) {
    return t > go ? (((uint32_t)1 << (t - go)) - 1) << (go + length) : (((uint32_t)1 << (go - t)) - 1) << t;
}

static int blockers(const Spec *s, int go, uint32_t occ, uint32_t same, uint32_t gwalls) {
    int g = s->goal, span = s->span[g], length = s->length[g], best = NO_WAY;
    uint32_t blocked = gwalls | same, across = occ & ~blocked;
    for (int t = 0; t + length <= span; t++) {
        if (!s->won[t] || t == go) continue;
        uint32_t way = goal_way(go, t, length);
        if (way & blocked) continue;
        int count = 1 + __builtin_popcount(across & way);
        if (count < best) best = count;
    }
    return best;
}

/* The "cleared" bound (the frontier search's own; docs/solvers.md, "The bounded passes").  A set of
 * vehicles that must each move at least once, grown by *requirements*: vehicle b must leave the cell c
 * at some time (c is on its lane; b covers it now).  To leave c, b slides toward one side of its lane
 * or the other, at least to the nearest offset clear of c, and sweeps the cells on the way: a side
 * whose sweep runs off the board or holds a wall is closed for good; on an open side, every vehicle
 * standing on the swept cells now must have moved away before, so it joins the set, and one that
 * crosses b's lane must itself leave the cell it stands on there: a new requirement, whether or not it
 * was in the set already.  One along b's lane can never pass b: it is pushed ahead, beyond every cell b
 * sweeps, a requirement with one side and a target offset (a push off the board closes b's side).  The
 * goal and the vehicles across its way start the set (each moves at least once: the blockers() count),
 * each blocker with the requirement to leave its cell of the way.
 *
 * A side taken is a *commitment*: b reaches that offset, or one beyond it, at some time.  A later
 * requirement that a commitment of b already meets costs nothing, and one that takes b further on a
 * side sweeps only the cells beyond its commitment (the vehicles crossing the others were met when it
 * was made).  A side that meets nothing is taken without a commitment: the other side can only add.
 *
 * Orders.  A vehicle x met on b's sweep moves before b makes the move that reaches its commitment.  If
 * the orders make a cycle, its vehicles cannot each move once: each one's only move would come before
 * the next one's, around the cycle.  So one vehicle of the cycle moves twice, and cycles that share no
 * vehicle add one move each (cycles()).
 *
 * The bound is the smallest, over every choice of sides, of the set's size plus its cycles: every
 * solution taking those sides moves each vehicle of the set, and twice one of each cycle, so that is at
 * most its length; the smallest over the choices, and over the winning offsets, is a lower bound.  The
 * search over the choices stops after CLEAR_BUDGET steps: a branch cut short counts only what it found
 * so far, which is still a lower bound. */
#define CLEAR_BUDGET 256
#define CLEAR_PENDING 64
#define CLEAR_EDGES 256
#define CLEAR_SWEEP 16 /* vehicles one sweep can meet: at most one a cell, a lane has at most 16 */

typedef struct {
    uint64_t w[4]; /* bit x: vehicle number x plus one, as in the grid */
} VSet;

static inline int vset_has(const VSet *a, int x) { return (int)(a->w[x >> 6] >> (x & 63) & 1); }
static inline void vset_add(VSet *a, int x) { a->w[x >> 6] |= (uint64_t)1 << (x & 63); }

/* What a computation of the bound read: the cells it looked at and the vehicles it found there.  A move
 * that changes none of them (its vehicle not found, its new cells not looked at) leaves every read, and
 * so the whole computation and its result, the same: the moved position's bound is known unread. */
typedef struct {
    uint64_t cells[MAX_CELLS / 64];
    VSet vehicles;
} Reads;

static inline void reads_note(Reads *seen, int cell, unsigned char x) {
    seen->cells[cell >> 6] |= (uint64_t)1 << (cell & 63);
    if (x && x != WALL) vset_add(&seen->vehicles, x);
}

typedef struct {
    const Spec *s;
    const unsigned char *grid, *state;
    const Ranks *r;
    int budget;
    int cut; /* the caller only asks whether the bound reaches this: a set this large is as good as any */
    int floor; /* ... and whether it exceeds this: once a choice gives at most this, no other can matter */
    Reads *seen;
    /* the orders found so far: vehicle ex[k] moves before eb[k] makes its committed move (numbers plus
     * one); the first ne hold for the choices being followed */
    int ne;
    unsigned char ex[CLEAR_EDGES], eb[CLEAR_EDGES];
} Clear;

static inline void order(Clear *c, int x, int b) {
    if (c->ne < CLEAR_EDGES) c->ex[c->ne] = (unsigned char)x, c->eb[c->ne++] = (unsigned char)b;
}

/* A requirement: vehicle `v` (number plus one) must leave the cell at position `at` of its lane by
 * either side (`dir` 0), or must reach an offset at most `at` (`dir` -1) or at least `at` (`dir` 1): the
 * push of a vehicle of its own lane, which it can never pass. */
typedef struct {
    int v, at, dir;
} Need;

/* The set and what its choices committed each vehicle to: v must reach the offset lo[v] or below, and
 * hi[v] or above, at some time (its offset now where nothing does). */
typedef struct {
    VSet in;
    unsigned char lo[MAX_VEHICLES], hi[MAX_VEHICLES];
} Held;

static void held_copy(Held *to, const Held *from, int n) {
    to->in = from->in;
    memcpy(to->lo, from->lo, (size_t)n);
    memcpy(to->hi, from->hi, (size_t)n);
}

/* How many cycles that share no vehicle the orders make (see above), found greedily: a packing, not
 * always the largest.  0 on boards of more than 64 vehicles. */
static int cycles(const Clear *c) {
    if (c->ne < 2 || c->s->n > 64) return 0;
    uint64_t adj[64], alive = 0;
    for (int k = 0; k < c->ne; k++) {
        int x = c->ex[k] - 1, b = c->eb[k] - 1;
        uint64_t bx = (uint64_t)1 << x, bb = (uint64_t)1 << b;
        if (!(alive & bx)) adj[x] = 0;
        if (!(alive & bb)) adj[b] = 0;
        alive |= bx | bb;
        adj[x] |= bb;
    }
    int found = 0;
    for (;;) {
        /* vehicles with no order in or none out are on no cycle */
        for (;;) {
            uint64_t in = 0, out = 0;
            for (uint64_t m = alive; m; m &= m - 1) {
                int x = __builtin_ctzll(m);
                uint64_t to = adj[x] & alive;
                in |= to;
                if (to) out |= (uint64_t)1 << x;
            }
            uint64_t keep = alive & in & out;
            if (keep == alive) break;
            alive = keep;
        }
        if (!alive) return found;
        /* a shortest cycle through the first vehicle left, by layers */
        int v = __builtin_ctzll(alive), k = 0, closed = 0;
        uint64_t layer[64], seen = (uint64_t)1 << v;
        layer[0] = seen;
        while (k < 63) {
            uint64_t next = 0;
            for (uint64_t m = layer[k]; m; m &= m - 1) next |= adj[__builtin_ctzll(m)];
            next &= alive;
            if (next >> v & 1) {
                closed = 1;
                break;
            }
            next &= ~seen;
            if (!next) break;
            seen |= next;
            layer[++k] = next;
        }
        if (!closed) {
            alive &= ~((uint64_t)1 << v);
            continue;
        }
        found++;
        uint64_t gone = (uint64_t)1 << v;
        for (int cur = v, j = k; j >= 1; j--) {
            for (uint64_t m = layer[j]; m; m &= m - 1) {
                int u = __builtin_ctzll(m);
                if (adj[u] >> cur & 1) {
                    gone |= (uint64_t)1 << u, cur = u;
                    break;
                }
            }
        }
        alive &= ~gone;
    }
}

/* the smallest count (vehicles of the set, and cycles) reachable from `h` (`count` vehicles) and the
 * pending requirements `need[0..n)`, or c->cut when it is at least that large (the search stops there);
 * NO_WAY when every choice closes */
static int clear_fewest(Clear *c, const Held *h, int count, const Need *need, int n) {
    const Spec *s = c->s;
    int b, span, length, o, target[2], open[2];
    const int *lane;
    /* the requirements already met by a commitment cost nothing */
    for (;;) {
        if (count >= c->cut) return c->cut;
        if (n == 0 || --c->budget <= 0) {
            count += cycles(c);
            return count < c->cut ? count : c->cut;
        }
        Need want = need[n - 1];
        b = want.v - 1, lane = s->lane[b] + 16;
        span = s->span[b], length = s->length[b], o = c->state[b];
        /* the offset each side must reach: just clear of the cell, or the push's own */
        if (want.dir == 0) target[0] = want.at - length, target[1] = want.at + 1;
        else target[0] = target[1] = want.at;
        open[0] = want.dir <= 0, open[1] = want.dir >= 0;
        if ((open[0] && h->lo[b] <= target[0]) || (open[1] && h->hi[b] >= target[1])) {
            n--;
            continue;
        }
        break;
    }
    Need found[2][CLEAR_SWEEP];
    int nfound[2] = {0, 0}, added[2] = {0, 0}, best = NO_WAY;
    for (int side = 0; side < 2; side++) {
        if (!open[side]) continue;
        /* toward lower positions: the cells from the target up to the vehicle; toward higher: from
         * the vehicle's end up to the target's.  The cells beyond its commitment on that side are new:
         * the vehicles crossing the others were met when it was made.  Those of b's own lane are all
         * pushed again, ahead of the new sweep. */
        int from = side ? o + length : target[0], to = side ? target[1] + length - 1 : o - 1;
        int fresh_from = side ? h->hi[b] + length : from, fresh_to = side ? to : h->lo[b] - 1;
        if (from < 0 || to >= span) {
            open[side] = 0;
            continue;
        }
        int last = 0;
        for (int p = from; p <= to && open[side]; p++) {
            unsigned char x = c->grid[lane[p]];
            int fresh = p >= fresh_from && p <= fresh_to;
            if (fresh) reads_note(c->seen, lane[p], x);
            if (x == WALL) open[side] = 0;
            else if (!x || x == last || nfound[side] >= CLEAR_SWEEP) continue;
            else if (s->horizontal[x - 1] != s->horizontal[b]) {
                if (!fresh) continue;
                Need *f = &found[side][nfound[side]++];
                f->v = x, f->at = c->r->along[s->horizontal[x - 1] != 0][lane[p]], f->dir = 0;
                added[side] += !vset_has(&h->in, x);
            }
            else {
                /* a vehicle of b's own lane is pushed ahead of b, beyond the cells b sweeps */
                reads_note(c->seen, lane[p], x);
                last = x;
                Need *f = &found[side][nfound[side]++];
                f->v = x, f->dir = side ? 1 : -1;
                f->at = side ? to + 1 : from - s->length[x - 1];
                if (f->at < 0 || f->at + s->length[x - 1] > span) open[side] = 0;
                added[side] += !vset_has(&h->in, x);
            }
        }
        /* a side that meets nothing is the best choice: the other can only add (its commitment is
         * forgotten, which only lowers what follows) */
        if (open[side] && nfound[side] == 0) return clear_fewest(c, h, count, need, n - 1);
    }
    /* the cheaper side first: the best it finds cuts the other short */
    int first = open[0] && open[1] && added[1] < added[0];
    for (int k = 0; k < 2; k++) {
        int side = k ^ first;
        if (!open[side]) continue;
        int more_count = count + added[side];
        if (more_count >= best) continue;
        Held more;
        held_copy(&more, h, s->n);
        if (side) more.hi[b] = (unsigned char)target[1];
        else more.lo[b] = (unsigned char)target[0];
        Need next[CLEAR_PENDING];
        int m = 0, top = c->ne;
        for (int k = 0; k < n - 1; k++) next[m++] = need[k];
        for (int k = 0; k < nfound[side]; k++) {
            vset_add(&more.in, found[side][k].v);
            order(c, found[side][k].v, b + 1);
            /* each must leave the cell it holds across b's lane, or go ahead of b along it */
            if (m < CLEAR_PENDING) next[m++] = found[side][k];
        }
        int got = clear_fewest(c, &more, more_count, next, m);
        c->ne = top;
        if (got < best) best = got;
        if (best <= c->floor) break;
    }
    return best;
}

/* the cleared bound of a position (above): the smallest over the winning offsets, or `cut` when it is
 * at least `cut` (a pass only asks whether a position's bound exceeds what its depth leaves; stopping
 * each choice there is what keeps the bound cheap), or some value at most `floor` when it is at most
 * `floor` (the search over the choices ends at the first that gives one); NO_WAY when every way is
 * closed */
static int cleared(const Spec *s, const Ranks *r, const unsigned char *grid, const unsigned char *state,
                   uint32_t occ, uint32_t same, int floor, int cut, Reads *seen) {
    int g = s->goal, span = s->span[g], length = s->length[g], go = state[g], best = NO_WAY;
    const int *lane = s->lane[g] + 16;
    uint32_t walled = r->gwalls | same;
    Held h;
    memcpy(h.lo, state, (size_t)s->n);
    memcpy(h.hi, state, (size_t)s->n);
    for (int t = 0; t + length <= span; t++) {
        if (!s->won[t] || t == go) continue;
        uint32_t way = goal_way(go, t, length);
        if (way & walled) continue;
        int count = 1 + __builtin_popcount(occ & way);
        if (count >= best) continue;
        Need need[CLEAR_PENDING];
        int n = 0;
        memset(&h.in, 0, sizeof h.in);
        vset_add(&h.in, g + 1);
        /* the goal is committed to its winning offset */
        h.lo[g] = h.hi[g] = (unsigned char)go;
        if (t > go) h.hi[g] = (unsigned char)t;
        else h.lo[g] = (unsigned char)t;
        Clear c;
        c.s = s, c.grid = grid, c.state = state, c.r = r, c.budget = CLEAR_BUDGET, c.cut = cut, c.floor = floor, c.seen = seen;
        c.ne = 0;
        for (uint32_t m = occ & way; m; m &= m - 1) {
            int cell = lane[__builtin_ctz(m)];
            reads_note(seen, cell, grid[cell]);
            vset_add(&h.in, grid[cell]);
            order(&c, grid[cell], g + 1);
            if (n < CLEAR_PENDING)
                need[n].v = grid[cell], need[n].at = r->along[s->horizontal[grid[cell] - 1] != 0][cell], need[n++].dir = 0;
        }
        int got = clear_fewest(&c, &h, count, need, n);
        if (got < best) best = got;
        if (best <= floor) break;
    }
    return best;
}

/* whether moving vehicle v to offset `to` changes nothing the bound read (see Reads) */
static inline int unread(const Spec *s, const Reads *seen, int v, int to) {
    if (vset_has(&seen->vehicles, v + 1)) return 0;
    const int *lane = s->lane[v] + 16 + to;
    for (int q = 0; q < s->length[v]; q++)
        if (seen->cells[lane[q] >> 6] >> (lane[q] & 63) & 1) return 0;
    return 1;
}

static uint32_t same_lane(const Ranks *r, const Spec *s, const unsigned char *state) {
    uint32_t same = 0;
    for (int v = 0; v < s->n; v++)
        if (r->same[v]) same |= r->gmask[v][state[v]];
    return same;
}

/* ---------------------------------------------------------------- sorted arrays of keys */

static void insertion_sort(u128 *a, size_t n) {
    for (size_t i = 1; i < n; i++) {
        u128 x = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > x) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* in-place most-significant-digit radix sort (American flag) on the byte at ``shift`` and below */
static void radix_sort(u128 *a, size_t n, int shift) {
    while (n > 48 && shift >= 0) {
        size_t count[256] = {0}, start[256], end[256];
        for (size_t i = 0; i < n; i++) count[(unsigned)(a[i] >> shift) & 255]++;
        size_t at = 0;
        int only = -1;
        for (int b = 0; b < 256; b++) {
            start[b] = at;
            at += count[b];
            end[b] = at;
            if (count[b] == n) only = b;
        }
        if (only < 0) {
            for (int b = 0; b < 256; b++) {
                while (start[b] < end[b]) {
                    u128 x = a[start[b]];
                    unsigned d = (unsigned)(x >> shift) & 255;
                    while (d != (unsigned)b) {
                        u128 y = a[start[d]];
                        a[start[d]++] = x;
                        x = y;
                        d = (unsigned)(x >> shift) & 255;
                    }
                    a[start[b]++] = x;
                }
            }
            size_t lo = 0;
            for (int b = 0; b < 256; b++) {
                if (count[b] > 1) radix_sort(a + lo, count[b], shift - 8);
                lo += count[b];
            }
            return;
        }
        shift -= 8;  /* every key has the same byte here */
    }
    if (n > 1) insertion_sort(a, n);
}

/* the first index at or after ``from`` of a sorted array whose key is not below k */
static size_t gallop(const u128 *a, size_t n, size_t from, u128 k) {
    if (from >= n || a[from] >= k) return from;
    size_t step = 1, lo = from;  /* a[lo] < k */
    while (lo + step < n && a[lo + step] < k) {
        lo += step;
        step *= 2;
    }
    size_t hi = lo + step < n ? lo + step : n;  /* a[hi] >= k or hi == n */
    lo++;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < k) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static int contains(const u128 *a, size_t n, u128 k) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < k) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && a[lo] == k;
}

/* A sorted array of keys.  On Linux it is mapped by itself (mmap), so that its pages go back to the
 * system as soon as they are released, whatever else the process allocates: a merge releases its
 * inputs page by page as it consumes them, and keeps the peak near the size of its output. */
typedef struct {
    u128 *keys;
    size_t count;
    size_t bytes;      /* mapped from keys */
    size_t gone;       /* bytes released from the start */
} Run;

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#define RELEASE_STEP ((size_t)1 << 20)

static size_t page_round(size_t bytes) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (bytes + page - 1) / page * page;
}

/* a run with room for n keys; -1 when out of memory */
static int run_new(Run *r, size_t n) {
    r->bytes = page_round((n ? n : 1) * sizeof(u128));
    r->count = r->gone = 0;
    void *map = mmap(NULL, r->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    r->keys = map == MAP_FAILED ? NULL : map;
    return r->keys ? 0 : -1;
}

static void run_free(Run *r) {
    if (r->keys && r->bytes > r->gone) munmap((char *)r->keys + r->gone, r->bytes - r->gone);
    r->keys = NULL;
}

/* the room beyond count given back */
static void run_fit(Run *r) {
    size_t need = page_round((r->count ? r->count : 1) * sizeof(u128));
    if (need < r->bytes) {
        munmap((char *)r->keys + need, r->bytes - need);
        r->bytes = need;
    }
}

/* the pages wholly before key ``upto`` given back (the keys before it are read no more) */
static void run_release(Run *r, size_t upto) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE), end = upto * sizeof(u128) / page * page;
    if (end >= r->gone + RELEASE_STEP) {
        munmap((char *)r->keys + r->gone, end - r->gone);
        r->gone = end;
    }
}
#else
static int run_new(Run *r, size_t n) {
    r->keys = malloc((n ? n : 1) * sizeof(u128));
    r->count = r->gone = 0;
    r->bytes = (n ? n : 1) * sizeof(u128);
    return r->keys ? 0 : -1;
}

static void run_free(Run *r) {
    free(r->keys);
    r->keys = NULL;
}

static void run_fit(Run *r) {
    u128 *fit = realloc(r->keys, (r->count ? r->count : 1) * sizeof(u128));
    if (fit) r->keys = fit;
}

static void run_release(Run *r, size_t upto) {
    (void)r, (void)upto;
}
#endif

typedef struct {
    Run *layers;
    size_t nlayers, cap;
    size_t stored;   /* keys in the layers (and, once the search ends, in the runs of the last) */
} Layers;

/* sort, make unique and remove the keys found in the sorted arrays of ``sets``: the new length */
static size_t sort_unique_minus(u128 *x, size_t n, int top_shift, const Run *const *sets, int nsets) {
    radix_sort(x, n, top_shift);
    size_t out = 0, at[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        u128 k = x[i];
        if ((out && x[out - 1] == k) || (i && x[i - 1] == k)) continue;
        int seen = 0;
        for (int j = 0; j < nsets && !seen; j++) {
            at[j] = gallop(sets[j]->keys, sets[j]->count, at[j], k);
            seen = at[j] < sets[j]->count && sets[j]->keys[at[j]] == k;
        }
        if (!seen) x[out++] = k;
    }
    return out;
}

/* merge two sorted unique runs into one sorted unique run (both are freed); -1 when out of memory */
static int merge_two(Run *a, Run *b, Run *out) {
    Run m;
    if (run_new(&m, a->count + b->count)) return -1;
    size_t i = 0, j = 0, count = 0;
    u128 *keys = m.keys;
    while (i < a->count && j < b->count) {
        u128 x = a->keys[i], y = b->keys[j];
        if (x < y) keys[count++] = x, i++;
        else if (y < x) keys[count++] = y, j++;
        else keys[count++] = x, i++, j++;
        if ((count & 0xFFFF) == 0) {
            run_release(a, i);
            run_release(b, j);
        }
    }
    while (i < a->count) keys[count++] = a->keys[i++];
    while (j < b->count) keys[count++] = b->keys[j++];
    run_free(a);
    run_free(b);
    m.count = count;
    run_fit(&m);
    *out = m;
    return 0;
}

/* ---------------------------------------------------------------- the search */

typedef struct {
    int depth;                 /* the answer: the layer of t, the position before the winning slide */
    unsigned char t[MAX_VEHICLES];
    int win;                   /* the goal's winning offset from t */
    int lower_bound;
    int pruned;                /* whether the bound left out any position */
} Result;

/* The runs of the layer being built from layer cur (prev before it), by one thread. */
typedef struct {
    Run *runs;
    size_t nruns, runcap;
    const Run *cur, *prev;
    int shift;
    size_t stored;   /* keys in its runs */
} Gather;

/* The buffer's keys sorted, unique and new, as one more run (the buffer is emptied); with ``all``,
 * every run is then merged into one.  -1 when out of memory. */
static int flush(Gather *g, u128 *buffer, size_t *fill, int all) {
    /* the keys of the layers before, and of the largest run of this layer (most duplicates are there) */
    const Run *sets[3];
    int nsets = 0;
    sets[nsets++] = g->cur;
    if (g->prev) sets[nsets++] = g->prev;
    if (g->nruns) sets[nsets++] = &g->runs[0];
    size_t kept = sort_unique_minus(buffer, *fill, g->shift, sets, nsets);
    if (g->nruns == g->runcap) {
        size_t cap = g->runcap ? g->runcap * 2 : 16;
        Run *more = realloc(g->runs, cap * sizeof(Run));
        if (!more) return -1;
        g->runs = more;
        g->runcap = cap;
    }
    Run *r = &g->runs[g->nruns];
    if (run_new(r, kept)) return -1;
    memcpy(r->keys, buffer, kept * sizeof(u128));
    r->count = kept;
    g->nruns++;
    __atomic_add_fetch(&g->stored, kept, __ATOMIC_RELAXED);
    *fill = 0;
    /* runs of like sizes are merged (as a binary counter): few runs, each key merged a few times */
    while (g->nruns >= 2 && (all || g->runs[g->nruns - 2].count <= 2 * g->runs[g->nruns - 1].count)) {
        Run *a = &g->runs[g->nruns - 2], *b = &g->runs[g->nruns - 1];
        size_t before = a->count + b->count;
        if (merge_two(a, b, a)) return -1;
        g->nruns--;
        __atomic_sub_fetch(&g->stored, before - a->count, __ATOMIC_RELAXED);
    }
    return 0;
}

/* Threads.  Layer d is expanded by up to `threads` threads at once (the caller's and the others it
 * starts for the layer): each takes the next BLOCK positions of the layer in turn and gathers their
 * successors in runs of its own; the runs of all of them are merged into layer d + 1 at the end.  The
 * layer is the same set whatever the number of threads.  A won position found while expanding the
 * position of index z stops the blocks after z; the one of the smallest z is the answer, as one thread
 * would have found it first.  Only the caller's thread takes the GIL (the limits, `poll`, signals): it
 * tells the others to stop through `stop`. */
#define BLOCK 256
#define THREADS_FROM 512  /* a layer smaller than this is expanded by the caller's thread alone: the cleared
                            * bound makes a position dear, so layers of a few blocks are worth sharing */

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define HAVE_THREADS 1
#endif

typedef struct Worker Worker;

typedef struct {
    const Spec *s;
    const Ranks *r;
    int bound, d;
    const Run *cur;
    size_t next;       /* the next block's first index (taken atomically) */
    size_t win_at;     /* the smallest index of a position with a won successor, or SIZE_MAX */
    int stop;          /* nonzero: every thread stops (the caller's status for it) */
    long long max_states;  /* 0: none */
    size_t at_stop;    /* the count the caller's thread stopped at, for a limit */
    const Layers *ls;
    Worker *ks;
    int nks;
} Layer;

struct Worker {
    Layer *layer;
    Gather g;
    u128 *buffer;
    size_t chunk, fill;
    size_t shown;      /* its fill as of its last block, for the other threads' count */
    int pruned, failed;
    size_t win_z;      /* its own first won position's index, or SIZE_MAX */
    unsigned char t[MAX_VEHICLES];
    int win;
};

/* the positions stored: the layers' and every thread's runs */
static size_t stored_now(const Layers *ls, Worker *ks, int nk) {
    size_t total = ls->stored;
    for (int i = 0; i < nk; i++) total += __atomic_load_n(&ks[i].g.stored, __ATOMIC_RELAXED);
    return total;
}

/* With max_states: when the buffers of all threads would take the count past it, a thread sorts its
 * buffer out, so that the caller's thread, which stops the search, counts it (a buffer holds
 * duplicates). */
static int count_in(Worker *k) {
    Layer *L = k->layer;
    if (L->max_states <= 0) return 0;
    __atomic_store_n(&k->shown, k->fill, __ATOMIC_RELAXED);
    size_t total = stored_now(L->ls, L->ks, L->nks);
    for (int i = 0; i < L->nks; i++) total += __atomic_load_n(&L->ks[i].shown, __ATOMIC_RELAXED);
    if (k->fill && (long long)total > L->max_states) {
        int failed = flush(&k->g, k->buffer, &k->fill, 0);
        __atomic_store_n(&k->shown, 0, __ATOMIC_RELAXED);
        return failed;
    }
    return 0;
}

/* Expand the positions of index [from, to) of the layer; -1 when out of memory. */
static int expand(Worker *k, size_t from, size_t to) {
    Layer *L = k->layer;
    const Spec *s = L->s;
    const Ranks *r = L->r;
    int n = s->n, moves[32], bound = L->bound, d = L->d;
    unsigned char state[MAX_VEHICLES], grid[MAX_CELLS];
    for (size_t z = from; z < to; z++) {
        if (z > __atomic_load_n(&L->win_at, __ATOMIC_RELAXED)) return 0;
        u128 key = L->cur->keys[z];
        state_of_key(r, key, state);
        fill_grid(s, state, grid);
        uint32_t occ = goal_lane(s, r, state);
        /* with a bound: a successor is kept when its depth plus its lower bound is within it */
        uint32_t same = bound ? same_lane(r, s, state) : 0;
        int room = bound ? bound - d - 1 : NO_WAY, here = NO_WAY, tight = 0, h = NO_WAY;
        Reads seen;
        if (bound) {
            here = blockers(s, state[s->goal], occ, same, r->gwalls);
            /* a position whose stronger bound already exceeds the bound is not expanded */
            if (here <= room + 1) {
                memset(&seen, 0, sizeof seen);
                /* kept and not tight (at most room), tight (room + 1), or left out (more) */
                h = cleared(s, r, grid, state, occ, same, room, room + 2, &seen);
                if (h > room + 1) {
                    k->pruned |= h < NO_WAY;
                    continue;
                }
                /* its successors by a move the bound did not read have the same bound: one too many
                 * for their depth */
                tight = h > room;
            }
        }
        for (int v = 0; v < n; v++) {
            if (!r->relevant[v]) continue;
            int offset = state[v], count = slides(s, grid, v, offset, moves);
            for (int i = 0; i < count; i++) {
                int to = moves[i];
                if (v == s->goal || r->touches[v]) {
                    uint32_t change = v == s->goal ? 0 : r->gmask[v][offset] ^ r->gmask[v][to];
                    uint32_t after = occ ^ change;
                    int go = v == s->goal ? to : state[s->goal];
                    if (bound) {
                        int b = blockers(s, go, after, r->same[v] ? same ^ change : same, r->gwalls);
                        if (b > room) {
                            k->pruned |= b < NO_WAY;
                            continue;
                        }
                        /* the goal's lane as it was (the vehicle stays on it, or off it) */
                        if (tight && !change && v != s->goal && unread(s, &seen, v, to)) {
                            k->pruned |= h < NO_WAY;
                            continue;
                        }
                    }
                    int win = win_in_one(s, go, after);
                    if (win >= 0) {
                        if (z < k->win_z) {
                            k->win_z = z;
                            memcpy(k->t, state, (size_t)n);
                            k->t[v] = (unsigned char)to;
                            k->win = win;
                        }
                        /* the smallest index any thread found */
                        size_t was = __atomic_load_n(&L->win_at, __ATOMIC_RELAXED);
                        while (z < was && !__atomic_compare_exchange_n(&L->win_at, &was, z, 0,
                                                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                            ;
                        return 0;
                    }
                }
                else if (here > room) {
                    k->pruned |= here < NO_WAY;
                    continue;
                }
                else if (tight && unread(s, &seen, v, to)) {
                    k->pruned |= h < NO_WAY;
                    continue;
                }
                if (k->fill == k->chunk && flush(&k->g, k->buffer, &k->fill, 0)) return -1;
                k->buffer[k->fill++] = key - r->term[v][offset] + r->term[v][to];
            }
        }
    }
    return 0;
}

/* The blocks of the layer, taken in turn, until none is left or the threads are told to stop.  The
 * caller's thread (`w` given) takes CHECK_EVERY positions at a time and checks the limits after each
 * block; with max_states the other threads take blocks as small, so that the count is as fresh. */
static void expand_blocks(Worker *k, Watch *w) {
    Layer *L = k->layer;
    size_t block = w || L->max_states > 0 ? CHECK_EVERY : BLOCK;
    for (;;) {
        if (__atomic_load_n(&L->stop, __ATOMIC_RELAXED)) return;
        size_t from = __atomic_fetch_add(&L->next, block, __ATOMIC_RELAXED);
        if (from >= L->cur->count || from > __atomic_load_n(&L->win_at, __ATOMIC_RELAXED)) return;
        size_t to = from + block < L->cur->count ? from + block : L->cur->count;
        if (expand(k, from, to) || count_in(k)) {
            k->failed = 1;
            __atomic_store_n(&L->stop, -1, __ATOMIC_RELAXED);
            return;
        }
        size_t count = stored_now(L->ls, L->ks, L->nks);
        if (w) {
            int stop = watch(w, count);
            if (stop) {
                /* the count that passed the limit: a run another thread merges before it stops may
                 * shed duplicates, and the caller reads the count to tell which limit */
                L->at_stop = count;
                __atomic_store_n(&L->stop, stop, __ATOMIC_RELAXED);
                return;
            }
        }
        /* past max_states: the caller's thread stops the search at its next check */
        else if (L->max_states > 0 && (long long)count > L->max_states) return;
    }
}

#ifdef HAVE_THREADS
static void *expand_thread(void *arg) {
    expand_blocks((Worker *)arg, NULL);
    return NULL;
}
#endif

/* 1 found, 0 none reachable, 2 a limit, STOPPED_BY_POLL asked to stop, -1 out of memory, -2 a signal */
static int run(const Spec *s, const Ranks *r, const unsigned char *start, int bound, int threads, Watch *w,
               Layers *ls, Result *res) {
    int n = s->n, status = -1;
    if (threads < 1) threads = 1;
    if (threads > FRONTIER_THREADS) threads = FRONTIER_THREADS;
#ifndef HAVE_THREADS
    threads = 1;
#endif
    Worker *ks = calloc((size_t)threads, sizeof(Worker));
    if (!ks) return -1;
    Layer L = {s, r, bound, 0, NULL, 0, SIZE_MAX, 0, w->max_states, 0, ls, ks, threads};
    for (int i = 0; i < threads; i++) {
        ks[i].layer = &L;
        ks[i].g.shift = 120;  /* the stored keys are spread over all 128 bits (see MIX) */
        ks[i].chunk = CHUNK_MIN;
        ks[i].buffer = malloc(CHUNK_MIN * sizeof(u128));
        if (!ks[i].buffer) goto done;
    }
    res->depth = 0;
    res->lower_bound = 0;
    res->pruned = 0;
    /* the start */
    uint32_t occ = goal_lane(s, r, start);
    int win = win_in_one(s, start[s->goal], occ);
    if (win >= 0) {
        memcpy(res->t, start, (size_t)n);
        res->depth = 0, res->win = win;
        res->lower_bound = 1;
        status = 1;
        goto done;
    }
    res->lower_bound = 2;
    if (bound) {
        int h = blockers(s, start[s->goal], occ, same_lane(r, s, start), r->gwalls);
        if (h > bound) {
            status = 0;  /* no solution within the bound, or none at all */
            res->pruned = h < NO_WAY;
            goto done;
        }
    }
    ls->cap = 64;
    ls->layers = malloc(ls->cap * sizeof(Run));
    if (!ls->layers) goto done;
    if (run_new(&ls->layers[0], 1)) goto done;
    ls->layers[0].keys[0] = key_of_state(s, r, start);
    ls->layers[0].count = 1;
    ls->nlayers = 1;
    ls->stored = 1;
    for (;;) {
        size_t d = ls->nlayers - 1;
        L.d = (int)d, L.cur = &ls->layers[d], L.next = 0;
        int nk = L.cur->count >= THREADS_FROM ? threads : 1;
        for (int i = 0; i < threads; i++) {
            Worker *k = &ks[i];
            k->g.cur = L.cur, k->g.prev = d ? &ls->layers[d - 1] : NULL;
            k->fill = 0, k->shown = 0, k->win_z = SIZE_MAX;
            /* the buffer grows with what is stored, up to CHUNK: small searches stay small */
            if (k->chunk < CHUNK && ls->stored > k->chunk) {
                size_t want = ls->stored < CHUNK ? ls->stored : CHUNK;
                u128 *more = realloc(k->buffer, want * sizeof(u128));
                if (!more) goto done;
                k->buffer = more;
                k->chunk = want;
            }
        }
#ifdef HAVE_THREADS
        pthread_t tid[FRONTIER_THREADS];
        pthread_attr_t attr;
        int started = 0, attr_ok = nk > 1 && pthread_attr_init(&attr) == 0;
        /* the cleared bound recurses (up to CLEAR_BUDGET frames of about 1.5 kB): the stack of the
         * caller's thread, not the smaller default of some systems' other threads */
        if (attr_ok) pthread_attr_setstacksize(&attr, (size_t)8 << 20);
        for (int i = 1; i < nk && i < FRONTIER_THREADS; i++) {
            if (pthread_create(&tid[started], attr_ok ? &attr : NULL, expand_thread, &ks[i])) break;
            started++;
        }
        if (attr_ok) pthread_attr_destroy(&attr);
#endif
        expand_blocks(&ks[0], w);  /* the caller's thread, which checks the limits */
#ifdef HAVE_THREADS
        for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
#endif
        for (int i = 0; i < threads; i++) {
            res->pruned |= ks[i].pruned;
            if (ks[i].failed) goto done;  /* out of memory */
        }
        if (L.stop) {
            status = L.stop;
            goto done;
        }
        if (L.win_at != SIZE_MAX) {
            for (int i = 0; i < threads; i++)
                if (ks[i].win_z == L.win_at) {
                    memcpy(res->t, ks[i].t, (size_t)n);
                    res->depth = (int)d + 1, res->win = ks[i].win;
                }
            status = 1;
            goto done;
        }
        /* the last runs, then layer d + 1: every thread's runs merged into one */
        Run next = {NULL, 0, 0, 0};
        int have = 0;
        for (int i = 0; i < threads; i++) {
            Worker *t = &ks[i];
            if (flush(&t->g, t->buffer, &t->fill, 1)) goto done;
            if (!t->g.nruns) continue;
            Run one = t->g.runs[0];
            t->g.nruns = 0, t->g.stored = 0;
            if (!have) next = one, have = 1;
            else if (merge_two(&next, &one, &next)) goto done;
        }
        if (!have || next.count == 0) {
            if (have) run_free(&next);
            status = 0;
            goto done;
        }
        if (ls->nlayers == ls->cap) {
            Run *more = realloc(ls->layers, ls->cap * 2 * sizeof(Run));
            if (!more) { run_free(&next); goto done; }
            ls->layers = more;
            ls->cap *= 2;
        }
        ls->layers[ls->nlayers++] = next;
        ls->stored += next.count;
        res->lower_bound = (int)d + 3;  /* layer d + 1 is complete and checked */
        int stop = watch(w, ls->stored);
        if (stop) { status = stop; goto done; }
    }
done:
    for (int i = 0; i < threads; i++) ls->stored += ks[i].g.stored;
    if (ls->stored < L.at_stop) ls->stored = L.at_stop;
    for (int i = 0; i < threads; i++) {
        Worker *k = &ks[i];
        free(k->buffer);
        for (size_t j = 0; j < k->g.nruns; j++) run_free(&k->g.runs[j]);
        free(k->g.runs);
    }
    free(ks);
    return status;
}

/* The path from the start to the won position: backwards through the layers from res->t. */
static PyObject *recover(const Spec *s, const Ranks *r, const Layers *ls, const Result *res) {
    int n = s->n, moves[32];
    size_t depth = (size_t)res->depth;  /* t's layer (0: the start itself) */
    unsigned char *states = malloc((depth + 2) * (size_t)n), grid[MAX_CELLS];
    if (!states) return PyErr_NoMemory();
    memcpy(states + depth * n, res->t, (size_t)n);
    for (size_t k = depth; k > 0; k--) {
        unsigned char *here = states + k * n, *there = states + (k - 1) * n;
        const Run *layer = &ls->layers[k - 1];
        fill_grid(s, here, grid);
        u128 key = key_of_state(s, r, here);
        int found = 0;
        for (int v = 0; v < n && !found; v++) {
            if (!r->relevant[v]) continue;
            int count = slides(s, grid, v, here[v], moves);
            for (int i = 0; i < count && !found; i++) {
                u128 t = key - r->term[v][here[v]] + r->term[v][moves[i]];
                if (contains(layer->keys, layer->count, t)) {
                    memcpy(there, here, (size_t)n);
                    there[v] = (unsigned char)moves[i];
                    found = 1;
                }
            }
        }
        if (!found) {
            free(states);
            PyErr_SetString(PyExc_RuntimeError, "native frontier search: a layer lost its path");
            return NULL;
        }
    }
    memcpy(states + (depth + 1) * n, res->t, (size_t)n);
    states[(depth + 1) * n + s->goal] = (unsigned char)res->win;
    PyObject *path = PyList_New(0);
    for (size_t k = 0; path && k <= depth + 1; k++)
        if (append_state(path, n, states + k * n)) Py_CLEAR(path);
    free(states);
    return path;
}

PyObject *native_frontier(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *spec_obj, *start_obj;
    long long max_states;
    double seconds;
    int every = 0, bound = 0, threads = 1;
    PyObject *poll = Py_None;
    if (!PyArg_ParseTuple(args, "OOLd|piOi", &spec_obj, &start_obj, &max_states, &seconds, &every, &bound,
                          &poll, &threads))
        return NULL;
    if (poll != Py_None && !PyCallable_Check(poll)) {
        PyErr_SetString(PyExc_TypeError, "frontier: poll must be callable or None");
        return NULL;
    }
    Spec *s = malloc(sizeof(Spec));
    Ranks *r = malloc(sizeof(Ranks));
    PyObject *out = NULL;
    unsigned char start[MAX_VEHICLES];
    Layers ls = {NULL, 0, 0, 0};
    if (!s || !r) {
        free(s);
        free(r);
        return PyErr_NoMemory();
    }
    r->nseg = 0;
    if (read_spec(spec_obj, s) || read_state(s, start_obj, start)) goto fail;
    int ranked = ranks_init(s, start, r);
    if (ranked < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    if (ranked == 0) {
        out = Py_BuildValue("(inOii)", -1, (Py_ssize_t)0, Py_None, 0, 0);
        goto fail;
    }
    int frozen = 0;
    for (int v = 0; v < s->n; v++) {
        if (every) r->relevant[v] = 1;
        frozen += !r->relevant[v];
    }
    Watch w = {NULL, seconds > 0 ? now() + seconds : 0, max_states, poll == Py_None ? NULL : poll,
               now() + POLL_MILLISECONDS / 1000.0, 0, STAGE_FOUND, 0};
    Result res;
    w.thread = PyEval_SaveThread();
    if (bound < 0) bound = 0;
    int status = run(s, r, start, bound, threads, &w, &ls, &res);
    PyEval_RestoreThread(w.thread);
    if (status == -1) {
        PyErr_NoMemory();
    } else if (status == -2) {
        /* the signal handler's error is set */
    } else if (status == 1) {
        PyObject *path = recover(s, r, &ls, &res);
        if (path) out = Py_BuildValue("(inNii)", 1, (Py_ssize_t)ls.stored, path, res.depth + 1, res.pruned);
    } else if (status == 0 && frozen) {
        /* unsolvable: told apart from a search of every vehicle, which counts the whole reachable set */
        out = Py_BuildValue("(inOii)", 3, (Py_ssize_t)ls.stored, Py_None, res.lower_bound, res.pruned);
    } else {
        out = Py_BuildValue("(inOii)", status, (Py_ssize_t)ls.stored, Py_None, res.lower_bound, res.pruned);
    }
fail:
    for (size_t k = 0; k < ls.nlayers; k++) run_free(&ls.layers[k]);
    free(ls.layers);
    ranks_free(r);
    free(r);
    free(s);
    return out;
}
