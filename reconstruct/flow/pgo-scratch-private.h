/* SPDX-License-Identifier: MIT
 *
 * pgo-scratch-private.h: per-thread scratch memory for the temporaries of
 * one solve.  A scope opened with _pgo_scratch_mark() hands out blocks by
 * bumping a pointer, and _pgo_scratch_release() takes back everything
 * handed out since, at once: no malloc or free per array.  The chunks stay
 * with the thread for its next solve, so a thread holds about the most one
 * solve needed.  Blocks are 16-byte aligned (flows are __int128) and must
 * never reach g_free().
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gsize    _pgo_scratch_mark    (void);
void     _pgo_scratch_release (gsize mark);
gpointer _pgo_scratch_alloc   (gsize n, gsize size);
gpointer _pgo_scratch_alloc0  (gsize n, gsize size);
gpointer _pgo_scratch_dup     (gconstpointer mem, gsize n, gsize size);

/* n items of type T, uninitialised or zeroed. */
#define _pgo_scratch_new(T, n)  ((T *) _pgo_scratch_alloc ((gsize) (n), sizeof (T)))
#define _pgo_scratch_new0(T, n) ((T *) _pgo_scratch_alloc0 ((gsize) (n), sizeof (T)))

G_END_DECLS
