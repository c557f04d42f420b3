/* SPDX-License-Identifier: MIT
 *
 * replay.c: the main of a fuzz target built without libFuzzer: runs the
 * target's LLVMFuzzerTestOneInput once on each file given, so that make
 * check replays the corpora under tests/corpus (tests/cli/fuzz-replay.sh).
 * A crash or a sanitizer report is the failure.
 *
 * A target that sets pgo_fuzz_accepted says whether its reader took the
 * input; one it refused under a "good" folder fails the replay, so that a
 * target that can no longer read anything (a reader that always fails
 * before doing its work) does not pass unseen.
 *
 * Output: "replayed N inputs" on stdout; exit 1 if a file cannot be read
 * or a good input was refused.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
extern int pgo_fuzz_accepted __attribute__ ((weak));

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
      if (&pgo_fuzz_accepted)
        pgo_fuzz_accepted = -1;
      LLVMFuzzerTestOneInput ((const uint8_t *) data, size);
      if (&pgo_fuzz_accepted && pgo_fuzz_accepted == 0 && strstr (argv[i], "/good/"))
        {
          fprintf (stderr, "replay: %s: a good input was refused\n", argv[i]);
          return 1;
        }
    }
  printf ("replayed %d inputs\n", argc - 1);
  return 0;
}
