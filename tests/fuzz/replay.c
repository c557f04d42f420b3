/* SPDX-License-Identifier: MIT
 *
 * replay.c: the main of a fuzz target built without libFuzzer: runs the
 * target's LLVMFuzzerTestOneInput once on each file given, so that make
 * check replays the corpora under tests/corpus (tests/cli/fuzz-replay.sh).
 * A crash or a sanitizer report is the failure.
 *
 * Output: "replayed N inputs" on stdout; exit 1 if a file cannot be read.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *data = NULL;
      g_autoptr(GError) error = NULL;
      gsize size = 0;

      if (!g_file_get_contents (argv[i], &data, &size, &error))
        {
          fprintf (stderr, "replay: %s\n", error->message);
          return 1;
        }
      LLVMFuzzerTestOneInput ((const uint8_t *) data, size);
    }
  printf ("replayed %d inputs\n", argc - 1);
  return 0;
}
