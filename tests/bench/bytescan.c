/* SPDX-License-Identifier: MIT
 *
 * bytescan.c: the baseline of the nettrace benchmark: maps a file (as the
 * reader does) and sums all its bytes, so that trace-stats can be compared
 * with the cost of merely touching every byte.
 *
 * Input: "bytescan FILE". Output: the byte sum on stdout.
 */
#include "config.h"

#include <glib.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s FILE\n", argv[0]);
      return 2;
    }
  g_autoptr(GMappedFile) file = g_mapped_file_new (argv[1], FALSE, &error);
  if (!file)
    {
      fprintf (stderr, "bytescan: %s\n", error->message);
      return 1;
    }
  const guint8 *p = (const guint8 *) g_mapped_file_get_contents (file);
  gsize n = g_mapped_file_get_length (file);
  guint64 sum = 0;
  for (gsize i = 0; i < n; i++)
    sum += p[i];
  printf ("%" G_GUINT64_FORMAT "\n", sum);
  return 0;
}
