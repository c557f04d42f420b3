/* SPDX-License-Identifier: MIT
 *
 * pgo-scratch.c: per-thread bump allocation with marks (see
 * pgo-scratch-private.h).
 *
 * A thread's scratch is a list of chunks, each at least twice the size of
 * the one before.  A mark is the number of bytes in use, counted over the
 * chunks in order; releasing to a mark makes the chunk holding it current
 * again.  Chunks are freed when the thread ends.
 */
#include "config.h"

#include "pgo-scratch-private.h"

#include <string.h>

#define ALIGN       16
#define FIRST_CHUNK (64 * 1024)

typedef struct {
  guint8 *mem;
  gsize   size;   /* bytes */
  gsize   start;  /* bytes of the chunks before it */
} Chunk;

typedef struct {
  GArray *chunks;  /* Chunk */
  guint   current; /* the chunk blocks come from */
  gsize   used;    /* bytes in use in it */
} Scratch;

static void
scratch_free (gpointer p)
{
  Scratch *s = p;

  for (guint i = 0; i < s->chunks->len; i++)
    g_free (g_array_index (s->chunks, Chunk, i).mem);
  g_array_unref (s->chunks);
  g_free (s);
}

static GPrivate key = G_PRIVATE_INIT (scratch_free);

/* The calling thread's scratch, made on first use. */
static Scratch *
get_scratch (void)
{
  Scratch *s = g_private_get (&key);

  if (!s)
    {
      s = g_new0 (Scratch, 1);
      s->chunks = g_array_new (FALSE, FALSE, sizeof (Chunk));
      g_private_set (&key, s);
    }
  return s;
}

/**
 * _pgo_scratch_mark:
 *
 * Returns: the calling thread's scratch position, for
 *   _pgo_scratch_release()
 */
gsize
_pgo_scratch_mark (void)
{
  Scratch *s = get_scratch ();

  if (s->current >= s->chunks->len)
    return 0;
  return g_array_index (s->chunks, Chunk, s->current).start + s->used;
}

/**
 * _pgo_scratch_release:
 * @mark: a position from _pgo_scratch_mark() of this thread
 *
 * Takes back every block handed out since @mark.
 */
void
_pgo_scratch_release (gsize mark)
{
  Scratch *s = get_scratch ();

  for (guint i = 0; i < s->chunks->len; i++)
    {
      const Chunk *c = &g_array_index (s->chunks, Chunk, i);

      if (mark <= c->start + c->size)
        {
          s->current = i;
          s->used = mark - c->start;
          return;
        }
    }
  s->current = 0;
  s->used = 0;
}

/* Makes the next chunk current, adding one that holds at least 'bytes'. */
static void
next_chunk (Scratch *s, gsize bytes)
{
  Chunk c;

  while (s->current + 1 < s->chunks->len)
    {
      s->current++;
      s->used = 0;
      if (g_array_index (s->chunks, Chunk, s->current).size >= bytes)
        return;
    }
  c.start = 0;
  c.size = FIRST_CHUNK;
  if (s->chunks->len > 0)
    {
      const Chunk *last = &g_array_index (s->chunks, Chunk, s->chunks->len - 1);

      c.start = last->start + last->size;
      c.size = last->size * 2;
    }
  while (c.size < bytes)
    c.size *= 2;
  c.mem = g_malloc (c.size);
  g_array_append_val (s->chunks, c);
  s->current = s->chunks->len - 1;
  s->used = 0;
}

/**
 * _pgo_scratch_alloc:
 * @n: number of items
 * @size: bytes per item
 *
 * Aborts, as g_new() does, when n * size overflows or memory runs out.
 *
 * Returns: (transfer none): @n uninitialised items, 16-byte aligned, valid
 *   until the release of a mark taken before
 */
gpointer
_pgo_scratch_alloc (gsize n, gsize size)
{
  Scratch *s = get_scratch ();
  gsize bytes;
  gpointer p;

  if (!g_size_checked_mul (&bytes, MAX (n, 1), MAX (size, 1)) || bytes > G_MAXSIZE - ALIGN)
    g_error ("scratch: overflow allocating %" G_GSIZE_FORMAT " items of %" G_GSIZE_FORMAT " bytes",
             n, size);
  bytes = (bytes + ALIGN - 1) & ~(gsize) (ALIGN - 1);
  if (s->current >= s->chunks->len
      || g_array_index (s->chunks, Chunk, s->current).size - s->used < bytes)
    next_chunk (s, bytes);
  p = g_array_index (s->chunks, Chunk, s->current).mem + s->used;
  s->used += bytes;
  return p;
}

/**
 * _pgo_scratch_alloc0:
 * @n: number of items
 * @size: bytes per item
 *
 * Returns: (transfer none): @n zeroed items; see _pgo_scratch_alloc()
 */
gpointer
_pgo_scratch_alloc0 (gsize n, gsize size)
{
  gpointer p = _pgo_scratch_alloc (n, size);

  memset (p, 0, MAX (n, 1) * MAX (size, 1));
  return p;
}

/**
 * _pgo_scratch_dup:
 * @mem: @n items of @size bytes
 * @n: number of items
 * @size: bytes per item
 *
 * Returns: (transfer none): a scratch copy of @mem
 */
gpointer
_pgo_scratch_dup (gconstpointer mem, gsize n, gsize size)
{
  gpointer p = _pgo_scratch_alloc (n, size);

  if (n > 0 && size > 0)
    memcpy (p, mem, n * size);
  return p;
}
