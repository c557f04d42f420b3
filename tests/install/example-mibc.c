/* SPDX-License-Identifier: MIT
 *
 * example-mibc.c: the main job through libpgo, as an ahead-of-time
 * compiler's build would run it: a trace and the app's assembly in, a
 * .mibc for crossgen2 out, the same bytes as "pgo-reconstruct create-mibc
 * -r ASSEMBLY -o OUT TRACE" writes (tests/install/example.sh compares).
 * Built against the installed library (pkg-config --cflags --libs libpgo).
 */
#include <pgo.h>
#include <stdio.h>

/* The references' metadata, for naming type arguments and writing. */
static PgoMetadata *
lookup (const PgoModuleId *module, gpointer resolver, GError **error)
{
  return pgo_body_resolver_lookup_metadata (resolver, module, error);
}

int
main (int argc, char **argv)
{
  g_autoptr(PgoBodyResolver) resolver = pgo_body_resolver_new ();
  g_autoptr(GPtrArray) profiles = NULL, out = NULL;
  g_autoptr(GMappedFile) trace = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *name = argc == 4 ? g_path_get_basename (argv[3]) : NULL;
  PgoMibcOptions mibc = { .name = name, .lookup = lookup, .user_data = resolver };
  PgoProfileSetOptions set;
  PgoProfileSetStats stats;
  GError *error = NULL;

  if (argc != 4)
    return fprintf (stderr, "usage: example-mibc TRACE ASSEMBLY OUT.mibc\n"), 2;
  pgo_profile_set_options_init (&set);
  set.one_process = TRUE;                    /* one trace: one process */
  if (!pgo_body_resolver_add_path (resolver, argv[2], FALSE, &error)
      || !(trace = g_mapped_file_new (argv[1], FALSE, &error))
      || !(profiles = pgo_nettrace_profiles_read (bytes = g_mapped_file_get_bytes (trace), NULL, &error)))
    return fprintf (stderr, "example-mibc: %s\n", error->message), 1;
  for (guint i = 0; i < profiles->len; i++)
    pgo_nettrace_profile_name_types (profiles->pdata[i], lookup, resolver);
  if (!(out = pgo_profile_set_build (profiles, resolver, &set, &stats, &error))
      || !pgo_mibc_write (argv[3], out, &mibc, NULL, &error))
    return fprintf (stderr, "example-mibc: %s\n", error->message), 1;
  printf ("%u methods written\n", stats.n_written);
  return 0;
}
