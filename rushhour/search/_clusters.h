/* The cluster search of rushhour.database, compiled (rushhour/search/_clusters.c); registered by the
 * module rushhour.search._native, which also exports these constants to Python (rushhour.database
 * reads them from there, so the limits are written once, here). */
#ifndef RUSHHOUR_CLUSTERS_H
#define RUSHHOUR_CLUSTERS_H
#include <Python.h>

#define ENUM_MAX_SIDE 8        /* a lane holds at most 8 cells: an offset fits in a byte, a board in 64 bits */
#define ENUM_MAX_VEHICLES 26   /* letters A..Z */
#define ENUM_MAX_SEQUENCES 255 /* vehicle sequences allowed in one lane (an id fits in a byte) */
/* the statistics of one part, in this order (rushhour.database.PartStats) */
#define ENUM_STATS_FIELDS "shards", "seeds", "positions", "clusters"
#define ENUM_STATS_COUNT 4

PyObject *native_clusters(PyObject *self, PyObject *args);

#endif
