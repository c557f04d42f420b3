/* SPDX-License-Identifier: MIT
 *
 * example-mibc.c: the main job through libpgo, as an ahead-of-time
 * compiler's build would run it: a trace and the app's assembly in, a
 * .mibc for crossgen2 out, the same bytes as "pgo-reconstruct create-mibc
 * -r ASSEMBLY -o OUT TRACE" writes (tests/install/example.sh compares).
 * The trace is read in passes, as the command reads it, never whole.
 * Built against the installed library (pkg-config --cflags --libs libpgo).
 */
#include <pgo.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  g_autoptr(PgoBodyResolver) resolver = pgo_body_resolver_new ();
  const char *traces[] = { argc == 4 ? argv[1] : NULL, NULL };
  PgoProfileSetOptions set;
  PgoProfileSetStats stats;
  GError *error = NULL;

  if (argc != 4)
    return fprintf (stderr, "usage: example-mibc TRACE ASSEMBLY OUT.mibc\n"), 2;
  pgo_profile_set_options_init (&set);
  set.one_process = TRUE;                    /* one trace: one process */
  if (!pgo_body_resolver_add_path (resolver, argv[2], FALSE, &error)
      || !pgo_mibc_create (traces, resolver, &set, argv[3], &stats, &error))
    return fprintf (stderr, "example-mibc: %s\n", error->message), 1;
  printf ("%u methods written\n", stats.n_written);
  return 0;
}
