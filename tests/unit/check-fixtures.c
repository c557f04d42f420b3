/* SPDX-License-Identifier: MIT
 *
 * check-fixtures.c: pins the committed CoreCLR fixtures (tests/fixtures/) so
 * they cannot rot silently.
 *
 * Input:  tests/fixtures/data/manifest.txt and the files it lists.
 * Output: none; asserts that every file has the recorded size and SHA-256,
 *         starts with its format's magic, that the manifest records the
 *         settings the fixtures were made with, and that the text PGO dumps
 *         hold counts derived by hand from the programs' fixed trip counts.
 *
 * The count table below was derived from tests/fixtures/src/<name>/Program.cs
 * (loop trip counts, which inputs take which branch); the IL offsets are the
 * block starts of the Release build, checked against the IL instruction
 * sizes where noted.  The dumps' text is scanned here with a few lines of
 * code on purpose, independently of libpgo's text PGO reader.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "pgo-check.h"

#define DATA "fixtures/data/"

/* One "file: SIZE SHA256 PATH" line of the manifest. */
typedef struct {
  guint64 size;
  char    sha256[65];
  char   *path;       /* relative to tests/fixtures/data */
} ManifestFile;

static void
manifest_file_free (gpointer p)
{
  ManifestFile *f = p;

  g_free (f->path);
  g_free (f);
}

static char *
load_text (const char *relative)
{
  g_autoptr(GBytes) bytes = pgo_check_load (relative);
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);

  return g_strndup (data, len);
}

/* manifest_files: (transfer full): the file lines of the manifest. */
static GPtrArray *
manifest_files (void)
{
  g_autofree char *text = load_text (DATA "manifest.txt");
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *files = g_ptr_array_new_with_free_func (manifest_file_free);

  for (guint i = 0; lines[i]; i++)
    {
      ManifestFile *f;
      char path[512];

      if (!g_str_has_prefix (lines[i], "file: "))
        continue;
      f = g_new0 (ManifestFile, 1);
      ck_assert_msg (sscanf (lines[i], "file: %" G_GUINT64_FORMAT " %64s %511s", &f->size, f->sha256, path) == 3,
                     "bad manifest line '%s'", lines[i]);
      f->path = g_strdup (path);
      g_ptr_array_add (files, f);
    }
  return files;
}

/* manifest_value: (transfer full): the value of the manifest line "KEY: value". */
static char *
manifest_value (const char *key)
{
  g_autofree char *text = load_text (DATA "manifest.txt");
  g_autofree char *prefix = g_strconcat ("\n", key, ": ", NULL);
  const char *p = strstr (text, prefix);
  const char *end;

  ck_assert_msg (p != NULL, "manifest has no '%s' line", key);
  p += strlen (prefix);
  end = strchr (p, '\n');
  return g_strndup (p, end ? (gsize) (end - p) : strlen (p));
}

START_TEST (test_fixtures_size_and_hash)
{
  g_autoptr(GPtrArray) files = manifest_files ();
  guint64 total = 0;

  ck_assert_uint_ge (files->len, 70);
  for (guint i = 0; i < files->len; i++)
    {
      ManifestFile *f = files->pdata[i];
      g_autofree char *rel = g_strconcat (DATA, f->path, NULL);
      g_autoptr(GBytes) bytes = pgo_check_load (rel);
      g_autofree char *sum = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);

      ck_assert_msg (g_bytes_get_size (bytes) == f->size, "%s: size %" G_GSIZE_FORMAT ", manifest says %" G_GUINT64_FORMAT,
                     f->path, g_bytes_get_size (bytes), f->size);
      ck_assert_msg (strcmp (sum, f->sha256) == 0, "%s: sha256 %s, manifest says %s", f->path, sum, f->sha256);
      total += f->size;
    }
  /* The committed fixtures stay small. */
  ck_assert_msg (total < 30u * 1024 * 1024, "fixtures total %" G_GUINT64_FORMAT " bytes", total);
}
END_TEST

/* Every file under data/ is in the manifest and in EXTRA_DIST, and back. */
START_TEST (test_fixtures_complete)
{
  g_autoptr(GPtrArray) files = manifest_files ();
  g_autofree char *mk = load_text ("fixtures/local.mk");
  g_autofree char *root = pgo_check_data_path (DATA);
  g_autoptr(GDir) dir = g_dir_open (root, 0, NULL);
  g_autoptr(GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  const char *name;
  guint on_disk = 0;

  ck_assert_ptr_nonnull (dir);
  for (guint i = 0; i < files->len; i++)
    {
      ManifestFile *f = files->pdata[i];
      g_autofree char *line = g_strconcat ("\ttests/fixtures/data/", f->path, " \\\n", NULL);

      g_hash_table_add (listed, f->path);
      ck_assert_msg (strstr (mk, line) != NULL, "%s is not in tests/fixtures/local.mk", f->path);
    }
  ck_assert_msg (strstr (mk, "\ttests/fixtures/data/manifest.txt \\\n") != NULL, "manifest.txt not distributed");
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *sub = g_build_filename (root, name, NULL);
      g_autoptr(GDir) d = NULL;
      const char *leaf;

      if (!g_file_test (sub, G_FILE_TEST_IS_DIR))
        {
          ck_assert_str_eq (name, "manifest.txt");
          continue;
        }
      d = g_dir_open (sub, 0, NULL);
      ck_assert_ptr_nonnull (d);
      while ((leaf = g_dir_read_name (d)))
        {
          g_autofree char *rel = g_strconcat (name, "/", leaf, NULL);

          ck_assert_msg (g_hash_table_contains (listed, rel), "%s is not in the manifest", rel);
          on_disk++;
        }
    }
  ck_assert_uint_eq (on_disk, files->len);
}
END_TEST

/* contains: TRUE when 'needle' occurs in the first 'limit' bytes of 'data'. */
static gboolean
contains (const guint8 *data, gsize limit, const char *needle, gsize len)
{
  for (gsize i = 0; len <= limit && i <= limit - len; i++)
    if (memcmp (data + i, needle, len) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
has_prefix (GBytes *bytes, const void *magic, gsize len)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  return size >= len && memcmp (data, magic, len) == 0;
}

START_TEST (test_fixtures_magic)
{
  g_autoptr(GPtrArray) files = manifest_files ();
  guint n_traces = 0, n_dumps = 0, n_wasm = 0;

  for (guint i = 0; i < files->len; i++)
    {
      ManifestFile *f = files->pdata[i];
      g_autofree char *rel = g_strconcat (DATA, f->path, NULL);
      g_autoptr(GBytes) b = pgo_check_load (rel);
      gsize size = 0;
      const guint8 *d = g_bytes_get_data (b, &size);

      if (g_str_has_suffix (f->path, ".nettrace"))
        {
          /* "Nettrace", then the FastSerialization header: i32 20 + "!FastSerialization.1" (format V4/V5). */
          ck_assert_msg (has_prefix (b, "Nettrace\x14\0\0\0!FastSerialization.1", 32), "%s: no nettrace magic", f->path);
          n_traces++;
        }
      else if (g_str_has_suffix (f->path, ".pgo.txt"))
        {
          static const char trailer[] = "*** END PGO Data ***\n";

          ck_assert_msg (has_prefix (b, "*** START PGO Data, max index = ", 32), "%s: no dump header", f->path);
          ck_assert_msg (size > strlen (trailer) && memcmp (d + size - strlen (trailer), trailer, strlen (trailer)) == 0,
                         "%s: no dump trailer", f->path);
          n_dumps++;
        }
      else if (g_str_has_suffix (f->path, ".dll"))
        {
          guint32 lfanew;

          ck_assert_msg (has_prefix (b, "MZ", 2) && size > 0x40, "%s: no MZ header", f->path);
          memcpy (&lfanew, d + 0x3c, 4);
          lfanew = GUINT32_FROM_LE (lfanew);
          ck_assert_msg (lfanew < size - 4 && memcmp (d + lfanew, "PE\0\0", 4) == 0, "%s: no PE signature", f->path);
        }
      else if (g_str_has_suffix (f->path, ".pdb"))
        ck_assert_msg (has_prefix (b, "BSJB", 4), "%s: not a portable PDB", f->path);
      else if (g_str_has_suffix (f->path, ".wasm"))
        {
          /* A WebAssembly module (version 1) importing "webcil" memory: WebAssembly-wrapped Webcil. */
          ck_assert_msg (has_prefix (b, "\0asm\1\0\0\0", 8), "%s: no wasm magic", f->path);
          ck_assert_msg (size > 64 && contains (d, 64, "\x06webcil", 7), "%s: no webcil import", f->path);
          n_wasm++;
        }
      else
        ck_abort_msg ("%s: unexpected fixture file", f->path);
    }
  /* 11 programs x (edge, block) + hotloop's block64. */
  ck_assert_uint_eq (n_traces, 23);
  ck_assert_uint_eq (n_dumps, 23);
  ck_assert_uint_eq (n_wasm, 11);
}
END_TEST

/* The kind pgo_file_kind() tells of every committed fixture, by its
 * suffix; of the corpus's XML and .mibc (plain and zipped); of bytes cut
 * short of a magic; and the error of a directory. */
START_TEST (test_fixtures_file_kind)
{
  static const struct { const char *suffix; PgoFileKind kind; } by_suffix[] = {
    { ".nettrace", PGO_FILE_KIND_NETTRACE }, { ".pgo.txt", PGO_FILE_KIND_TEXT },
    { ".dll", PGO_FILE_KIND_MIBC }, { ".pdb", PGO_FILE_KIND_UNKNOWN }, { ".wasm", PGO_FILE_KIND_UNKNOWN },
    { ".xml", PGO_FILE_KIND_XML }, { ".mibc", PGO_FILE_KIND_MIBC },
  };
  static const char *const corpus[] = {
    "corpus/xml/good/hotloop-A.xml", "corpus/mibc/good/hotloop-A.mibc", "corpus/mibc/good/hotloop-A-zip.mibc",
  };
  g_autoptr(GPtrArray) files = manifest_files ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = pgo_check_data_path (DATA);
  guint n = 0;

  for (guint i = 0; i < files->len + G_N_ELEMENTS (corpus); i++)
    {
      const char *rel = i < files->len ? ((ManifestFile *) files->pdata[i])->path : corpus[i - files->len];
      g_autofree char *path = pgo_check_data_path (i < files->len ? DATA : "");
      g_autofree char *full = g_build_filename (path, rel, NULL);
      guint k = 0;

      while (k < G_N_ELEMENTS (by_suffix) && !g_str_has_suffix (rel, by_suffix[k].suffix))
        k++;
      ck_assert_msg (k < G_N_ELEMENTS (by_suffix), "%s: no kind for its suffix", rel);
      ck_assert_msg (pgo_file_kind (full, NULL) == by_suffix[k].kind, "%s: kind %d, want %d", rel,
                     pgo_file_kind (full, NULL), by_suffix[k].kind);
      n++;
    }
  ck_assert_uint_eq (n, files->len + 3);
  ck_assert_int_eq (pgo_file_kind_of ((const guint8 *) "SQLite format 3", 16), PGO_FILE_KIND_STORE);
  ck_assert_int_eq (pgo_file_kind_of ((const guint8 *) "SQLite format 3", 15), PGO_FILE_KIND_UNKNOWN);
  ck_assert_int_eq (pgo_file_kind_of ((const guint8 *) "SQLite format 3x", 16), PGO_FILE_KIND_UNKNOWN);
  ck_assert_int_eq (pgo_file_kind_of ((const guint8 *) "Nettrace", 7), PGO_FILE_KIND_UNKNOWN);
  ck_assert_int_eq (pgo_file_kind_of ((const guint8 *) "<?xm", 4), PGO_FILE_KIND_UNKNOWN);
  ck_assert_int_eq (pgo_file_kind_of (NULL, 0), PGO_FILE_KIND_UNKNOWN);
  ck_assert_int_eq (pgo_file_kind (dir, &error), PGO_FILE_KIND_UNKNOWN);
  pgo_assert_error (error, PGO_ERROR_FAILED, "a directory");
  g_clear_error (&error);
  ck_assert_int_eq (pgo_file_kind ("/nonexistent/file", &error), PGO_FILE_KIND_UNKNOWN);
  ck_assert (error != NULL && strstr (error->message, "/nonexistent/file") != NULL);
}
END_TEST

/* The manifest records the settings the counts depend on. */
START_TEST (test_fixtures_settings)
{
  g_autofree char *runtime = manifest_value ("runtime");
  g_autofree char *config = manifest_value ("eventpipe_config");
  g_autofree char *common = manifest_value ("common_env");
  g_autofree char *block = manifest_value ("block_env");
  g_autofree char *block64 = manifest_value ("block64_env");
  g_autofree char *webcil = manifest_value ("webcil");
  static const char *const knobs[] = {
    "DOTNET_TieredPGO=1", "DOTNET_ReadyToRun=0", "DOTNET_TieredPGO_InstrumentOnlyHotCode=0",
    "DOTNET_TC_CallCounting=0", "DOTNET_JitScalableProfiling=0", "DOTNET_TC_OnStackReplacement=1",
    "DOTNET_TC_OnStackReplacement_InitialCounter=0x7fffffff", "DOTNET_EnableEventPipe=1",
    "DOTNET_WritePGOData=1",
  };

  ck_assert (g_str_has_prefix (runtime, "10.0.12"));
  ck_assert_str_eq (config, "Microsoft-Windows-DotNETRuntime:0x1F000080018:5");
  for (guint i = 0; i < G_N_ELEMENTS (knobs); i++)
    ck_assert_msg (strstr (common, knobs[i]) != NULL, "common_env lacks %s", knobs[i]);
  ck_assert_str_eq (block, "DOTNET_JitEdgeProfiling=0 DOTNET_JitMinimalJitProfiling=0");
  ck_assert_str_eq (block64, "DOTNET_JitEdgeProfiling=0 DOTNET_JitMinimalJitProfiling=0 DOTNET_JitCollect64BitCounts=1");
  ck_assert (g_str_has_prefix (webcil, "ok "));
}
END_TEST

/* The knob evidence: hotloop's Spin runs its loop body (IL 7) 50000 times;
 * the findings are stated by generate from those runs. */
static const struct {
  const char *key;      /* manifest line */
  const char *expect;   /* substring of its value */
} evidence[] = {
  { "evidence osr-default", "Spin block 7 9999," },          /* OSR takes over: Tier0 counts stop */
  { "evidence osr-initial-counter", "Spin block 7 50000," },
  { "evidence osr-hit-limit", "Spin block 7 50000," },
  { "evidence hex-parse", "Spin block 7 50000," },           /* "20000" read as 0x20000 */
  { "evidence scalable", "Spin block 7 49752," },            /* scalable counters are approximate */
  { "evidence trace-pgo-off", "\"Spin\" occurrences 0" },
  { "evidence trace-pgo-off-write", "\"Spin\" occurrences 1" }, /* WritePGOData alone instruments */
  { "evidence calls-off", "Tiny entry 2000000" },
  { "finding TC_OnStackReplacement_InitialCounter=0x7fffffff", "honoured (Spin loop 50000)" },
  { "finding OSR_HitLimit=0x7fffffff", "honoured (Spin loop 50000)" },
  { "finding integer knobs parse as hex", "read as 0x20000" },
  { "finding JitScalableProfiling", "honoured:" },
  { "finding TieredPGO_InstrumentOnlyHotCode", "honoured:" },
  { "finding ReadyToRun", "honoured:" },
  { "finding TC_CallCounting", "honoured:" },
  { "finding JitMinimalJitProfiling=0", "honoured:" },
};

START_TEST (test_fixtures_evidence)
{
  g_autofree char *line = manifest_value (evidence[_i].key);
  const char *result = g_str_has_prefix (evidence[_i].key, "evidence ") ? strstr (line, "->") : line;

  ck_assert_msg (result && strstr (result, evidence[_i].expect), "%s: '%s' lacks '%s'",
                 evidence[_i].key, result ? result : line, evidence[_i].expect);
}
END_TEST

/* A hand-checked count: in DUMP, every record of KIND at IL_OFFSET (and
 * OTHER, unless -1) of each method named METHOD (whose methodhash is
 * METHOD_HASH, unless 0) has value VALUE, and there is at least one.
 * methodhash tells apart instantiations of one generic method; it hashes
 * the method's names, so it is stable from run to run. */
typedef struct {
  const char *dump;
  const char *method;
  guint32     method_hash;
  guint32     kind;
  guint32     il_offset;
  gint64      other;
  guint64     value;
} HandCount;

#define BB  0x41   /* BasicBlockIntCount */
#define BBL 0x42   /* BasicBlockLongCount */
#define EDGE 0x181 /* EdgeIntCount */

static const HandCount counts[] = {
  /* branches: Grid's nested loops run 10 x 20; Classify(v) for v = 0..199, v % 7 buckets. */
  { "branches/block.pgo.txt", "Program.Classify", 0, BB, 0, -1, 200 },
  { "branches/block.pgo.txt", "Program.Classify", 0, BB, 7, -1, 29 },   /* r == 0: 0, 7, ..., 196 */
  { "branches/block.pgo.txt", "Program.Classify", 0, BB, 10, -1, 171 },
  { "branches/block.pgo.txt", "Program.Classify", 0, BB, 14, -1, 58 },  /* r in 1..2 */
  { "branches/block.pgo.txt", "Program.Classify", 0, BB, 21, -1, 29 },  /* r == 3: 3, ..., 199 */
  { "branches/block.pgo.txt", "Program.Classify", 0, BB, 28, -1, 56 },  /* r in 4..5 */
  { "branches/block.pgo.txt", "Program.Classify", 0, BB, 31, -1, 28 },  /* r == 6 */
  { "branches/block.pgo.txt", "Program.Grid", 0, BB, 0, -1, 1 },
  { "branches/block.pgo.txt", "Program.Grid", 0, BB, 6, -1, 10 },       /* outer body */
  { "branches/block.pgo.txt", "Program.Grid", 0, BB, 10, -1, 200 },     /* inner body */
  { "branches/block.pgo.txt", "Program.Grid", 0, BB, 28, -1, 210 },     /* inner test: 200 + 10 exits */
  { "branches/block.pgo.txt", "Program.Grid", 0, BB, 38, -1, 5 },       /* (i & 1) == 0 */
  { "branches/block.pgo.txt", "Program.Grid", 0, BB, 46, -1, 11 },      /* outer test */
  { "branches/edge.pgo.txt", "Program.Grid", 0, EDGE, 10, 28, 200 },
  { "branches/edge.pgo.txt", "Program.Grid", 0, EDGE, 38, 42, 5 },
  { "branches/edge.pgo.txt", "Program.Classify", 0, EDGE, 7, 0, 29 },
  { "branches/edge.pgo.txt", "Program.Classify", 0, EDGE, 31, 0, 28 },
  /* switches: Dense(v % 10) for v = 0..99; the IL switch (37 bytes at 6) falls into "br default" at 43,
   * then 2- and 3-byte "ldc; ret" case bodies. */
  { "switches/block.pgo.txt", "Program.Dense", 0, BB, 0, -1, 100 },
  { "switches/block.pgo.txt", "Program.Dense", 0, BB, 43, -1, 20 },     /* 8, 9 */
  { "switches/block.pgo.txt", "Program.Dense", 0, BB, 45, -1, 10 },     /* case 0 */
  { "switches/block.pgo.txt", "Program.Dense", 0, BB, 47, -1, 20 },     /* cases 1, 3 */
  { "switches/block.pgo.txt", "Program.Dense", 0, BB, 49, -1, 10 },     /* case 2 */
  { "switches/block.pgo.txt", "Program.Dense", 0, BB, 52, -1, 10 },     /* case 4 */
  { "switches/block.pgo.txt", "Program.Dense", 0, BB, 55, -1, 30 },     /* cases 5, 6, 7 */
  { "switches/block.pgo.txt", "Program.Dense", 0, BB, 58, -1, 20 },     /* default */
  /* Sparse over 10 cycles of {1, 100, 1000, 5000, 90000, 7, 100, 1, 5000, 3}. */
  { "switches/block.pgo.txt", "Program.Sparse", 0, BB, 0, -1, 100 },
  { "switches/block.pgo.txt", "Program.Sparse", 0, BB, 42, -1, 20 },    /* 1 */
  { "switches/block.pgo.txt", "Program.Sparse", 0, BB, 44, -1, 20 },    /* 100 */
  { "switches/block.pgo.txt", "Program.Sparse", 0, BB, 46, -1, 10 },    /* 1000 */
  { "switches/block.pgo.txt", "Program.Sparse", 0, BB, 48, -1, 20 },    /* 5000 */
  { "switches/block.pgo.txt", "Program.Sparse", 0, BB, 51, -1, 10 },    /* 90000 */
  { "switches/block.pgo.txt", "Program.Sparse", 0, BB, 54, -1, 20 },    /* 7, 3 */
  /* exceptions: Thrower(i), i = 0..29, from CatchLoop and FilterLoop: 10 x i % 3 == 0, 4 x i % 5 == 0. */
  { "exceptions/block.pgo.txt", "Program.Thrower", 0, BB, 0, -1, 60 },
  { "exceptions/block.pgo.txt", "Program.Thrower", 0, BB, 5, -1, 20 },
  { "exceptions/block.pgo.txt", "Program.Thrower", 0, BB, 17, -1, 8 },
  { "exceptions/block.pgo.txt", "Program.Thrower", 0, BB, 28, -1, 32 },
  { "exceptions/block.pgo.txt", "Program.CatchLoop", 0, BB, 7, -1, 30 },  /* try */
  { "exceptions/block.pgo.txt", "Program.CatchLoop", 0, BB, 18, -1, 10 }, /* catch FixtureException */
  { "exceptions/block.pgo.txt", "Program.CatchLoop", 0, BB, 36, -1, 4 },  /* catch InvalidOperationException */
  { "exceptions/block.pgo.txt", "Program.FinallyLoop", 0, BB, 7, -1, 28 }, /* try: i = 0..27 */
  { "exceptions/block.pgo.txt", "Program.FinallyLoop", 0, BB, 12, -1, 7 }, /* continue */
  { "exceptions/block.pgo.txt", "Program.FinallyLoop", 0, BB, 19, -1, 1 }, /* break */
  { "exceptions/block.pgo.txt", "Program.FinallyLoop", 0, BB, 21, -1, 20 },
  { "exceptions/block.pgo.txt", "Program.FinallyLoop", 0, BB, 27, -1, 28 }, /* finally */
  { "exceptions/block.pgo.txt", "Program.EarlyReturn", 0, BB, 0, -1, 20 },
  { "exceptions/block.pgo.txt", "Program.EarlyReturn", 0, BB, 5, -1, 10 },
  { "exceptions/block.pgo.txt", "Program.EarlyReturn", 0, BB, 14, -1, 20 }, /* finally */
  /* escapes (header of its Program.cs): counts after a raising point fall short of the entry's. */
  { "escapes/block.pgo.txt", "Program.Check", 0, BB, 0, -1, 35 },      /* 20 from Withdraw, 15 from Spend */
  { "escapes/block.pgo.txt", "Program.Check", 0, BB, 8, -1, 6 },       /* throw */
  { "escapes/block.pgo.txt", "Program.Check", 0, BB, 15, -1, 29 },
  { "escapes/block.pgo.txt", "Program.Withdraw", 0, BB, 0, -1, 20 },
  { "escapes/block.pgo.txt", "Program.Withdraw", 0, BB, 27, -1, 5 },   /* low++: 11th to 15th success */
  { "escapes/block.pgo.txt", "Program.Withdraw", 0, BB, 39, -1, 15 },  /* return: 20 - 5 escapes */
  { "escapes/block.pgo.txt", "Program.Bank", 0, BB, 23, -1, 5 },       /* amount 1000: i % 4 == 3 */
  { "escapes/block.pgo.txt", "Program.Bank", 0, BB, 36, -1, 5 },       /* catch */
  { "escapes/block.pgo.txt", "Program.Spend", 0, BB, 6, -1, 15 },      /* body: 5 + 10 */
  { "escapes/block.pgo.txt", "Program.Spend", 0, BB, 32, -1, 16 },     /* test: 2 entries + 14 completed bodies */
  { "escapes/block.pgo.txt", "Program.Spend", 0, BB, 37, -1, 1 },      /* return */
  { "escapes/block.pgo.txt", "Program.Raise", 0, BB, 0, -1, 27 },
  { "escapes/block.pgo.txt", "Program.Raise", 0, BB, 5, -1, 18 },
  { "escapes/block.pgo.txt", "Program.Filtered", 0, BB, 0, -1, 12 },   /* try */
  { "escapes/block.pgo.txt", "Program.Filtered", 0, BB, 10, -1, 8 },   /* filter */
  { "escapes/block.pgo.txt", "Program.Filtered", 0, BB, 37, -1, 4 },   /* handler: even codes */
  { "escapes/block.pgo.txt", "Program.Filtered", 0, BB, 42, -1, 8 },   /* return: 4 + 4; 4 escape */
  { "escapes/block.pgo.txt", "Program.FilterDriver", 0, BB, 18, -1, 4 }, /* the rejected ones */
  { "escapes/block.pgo.txt", "Program.Rethrows", 0, BB, 0, -1, 9 },
  { "escapes/block.pgo.txt", "Program.Rethrows", 0, BB, 10, -1, 6 },   /* catch, rethrows */
  { "escapes/block.pgo.txt", "Program.Rethrows", 0, BB, 25, -1, 3 },
  { "escapes/block.pgo.txt", "Program.RethrowDriver", 0, BB, 18, -1, 6 },
  { "escapes/block.pgo.txt", "Program.Nested", 0, BB, 0, -1, 6 },
  { "escapes/block.pgo.txt", "Program.Nested", 0, BB, 12, -1, 6 },     /* inner finally */
  { "escapes/block.pgo.txt", "Program.Nested", 0, BB, 25, -1, 2 },     /* r += 2 */
  { "escapes/block.pgo.txt", "Program.Nested", 0, BB, 31, -1, 6 },     /* outer finally */
  { "escapes/block.pgo.txt", "Program.Nested", 0, BB, 44, -1, 2 },
  { "escapes/block.pgo.txt", "Program.LoopCatch", 0, BB, 13, -1, 3 },  /* throw: i = 1, 5, 9 */
  { "escapes/block.pgo.txt", "Program.LoopCatch", 0, BB, 20, -1, 7 },
  { "escapes/block.pgo.txt", "Program.LoopCatch", 0, BB, 26, -1, 3 },  /* catch */
  { "escapes/block.pgo.txt", "Program.LoopCatch", 0, BB, 45, -1, 11 }, /* loop test */
  { "escapes/edge.pgo.txt", "Program.Withdraw", 0, EDGE, 27, 39, 5 },
  { "escapes/edge.pgo.txt", "Program.Withdraw", 0, EDGE, 39, 0, 15 },
  { "escapes/edge.pgo.txt", "Program.Filtered", 0, EDGE, 37, 37, 4 },
  /* disposal */
  { "disposal/block.pgo.txt", "Program.SumList", 0, BB, 11, -1, 25 },
  { "disposal/block.pgo.txt", "Program.SumList", 0, BB, 24, -1, 5 },
  { "disposal/block.pgo.txt", "Program.SumArray", 0, BB, 8, -1, 12 },
  { "disposal/block.pgo.txt", "Program.SumArray", 0, BB, 20, -1, 13 },
  { "disposal/block.pgo.txt", "Program.UseResource", 0, BB, 0, -1, 8 },
  { "disposal/block.pgo.txt", "Program.UseResource", 0, BB, 11, -1, 1 },
  { "disposal/block.pgo.txt", "Program.UseResource", 0, BB, 15, -1, 7 },
  /* statemachine: 40 characters: 13 spaces, 14 tokens (6 numbers of 10 digits, 8 words of 17 letters). */
  { "statemachine/block.pgo.txt", "Program.Scan", 0, BB, 12, -1, 28 },  /* start: 1 + 13 + 14 */
  { "statemachine/block.pgo.txt", "Program.Scan", 0, BB, 35, -1, 13 },
  { "statemachine/block.pgo.txt", "Program.Scan", 0, BB, 63, -1, 6 },
  { "statemachine/block.pgo.txt", "Program.Scan", 0, BB, 65, -1, 10 },
  { "statemachine/block.pgo.txt", "Program.Scan", 0, BB, 128, -1, 17 },
  { "statemachine/block.pgo.txt", "Program.Scan", 0, BB, 152, -1, 8 },
  { "statemachine/block.pgo.txt", "Program.Scan", 0, BB, 163, -1, 1 },
  /* recursion: Fib(15) = 1973 calls, 987 leaves; a depth-6 tree: 127 calls, 64 nulls. */
  { "recursion/block.pgo.txt", "Program.Fib", 0, BB, 0, -1, 1973 },
  { "recursion/block.pgo.txt", "Program.Fib", 0, BB, 4, -1, 987 },
  { "recursion/block.pgo.txt", "Program.Fib", 0, BB, 6, -1, 986 },
  { "recursion/edge.pgo.txt", "Program.Fib", 0, EDGE, 4, 0, 987 },
  { "recursion/block.pgo.txt", "Program.Sum", 0, BB, 0, -1, 127 },
  { "recursion/block.pgo.txt", "Program.Sum", 0, BB, 3, -1, 64 },
  { "recursion/block.pgo.txt", "Program.Build", 0, BB, 5, -1, 63 },
  /* generics: 16 pushes (two resizes, 4 -> 8 -> 16) and pops per Bag; Max<int> updates best 4 times. */
  { "generics/block.pgo.txt", "Bag`1[System.Int32].Push", 0, BB, 0, -1, 16 },
  { "generics/block.pgo.txt", "Bag`1[System.Int32].Push", 0, BB, 16, -1, 2 },
  { "generics/block.pgo.txt", "Bag`1[System.__Canon].Push", 0, BB, 16, -1, 2 },
  { "generics/block.pgo.txt", "Bag`1[System.__Canon].Pop", 0, BB, 8, -1, 0 },
  { "generics/block.pgo.txt", "Program.Drain", 0, BB, 4, -1, 16 },
  { "generics/block.pgo.txt", "Program.Drain", 0, BB, 15, -1, 17 },
  { "generics/block.pgo.txt", "Program.Max", 0, BB, 12, -1, 15 },
  { "generics/block.pgo.txt", "Program.Max", 0xA9E53B26, BB, 36, -1, 4 },  /* Max<int> */
  { "generics/block.pgo.txt", "Program.Max", 0xB654B946, BB, 36, -1, 3 },  /* Max<__Canon>: n05, n10, n15 */
  /* iterators: Evens(20) MoveNext 10 yields + 1 end; SumAsync MoveNext 1 + 5 resumptions. */
  { "iterators/block.pgo.txt", "Program+<Evens>d__0.MoveNext", 0, BB, 0, -1, 11 },
  { "iterators/block.pgo.txt", "Program+<SumAsync>d__1.MoveNext", 0, BB, 0, -1, 6 },
  /* strings: 43 characters, 11 vowels, 9 words, 35 letters. */
  { "strings/block.pgo.txt", "Program.CountVowels", 0, BB, 8, -1, 43 },
  { "strings/block.pgo.txt", "Program.CountVowels", 0, BB, 48, -1, 11 },
  { "strings/block.pgo.txt", "Program.CountVowels", 0, BB, 56, -1, 44 },
  { "strings/block.pgo.txt", "Program.ReverseWords", 0, BB, 20, -1, 9 },
  { "strings/block.pgo.txt", "Program.ReverseWords", 0, BB, 24, -1, 8 },
  { "strings/block.pgo.txt", "Program.ReverseWords", 0, BB, 49, -1, 35 },
  /* hotloop: one call, 50000 iterations, half of them even; Tiny(i) for i = 0..999, i % 4 == 0 returns 1. */
  { "hotloop/block.pgo.txt", "Program.Tiny", 0, BB, 0, -1, 1000 },
  { "hotloop/block.pgo.txt", "Program.Tiny", 0, BB, 5, -1, 250 },
  { "hotloop/block.pgo.txt", "Program.Tiny", 0, BB, 7, -1, 750 },
  { "hotloop/block.pgo.txt", "Program.Spin", 0, BB, 0, -1, 1 },
  { "hotloop/block.pgo.txt", "Program.Spin", 0, BB, 7, -1, 50000 },
  { "hotloop/block.pgo.txt", "Program.Spin", 0, BB, 12, -1, 25000 },
  { "hotloop/block.pgo.txt", "Program.Spin", 0, BB, 19, -1, 25000 },
  { "hotloop/block.pgo.txt", "Program.Spin", 0, BB, 28, -1, 50001 },
  { "hotloop/block64.pgo.txt", "Program.Spin", 0, BBL, 7, -1, 50000 },
  { "hotloop/block64.pgo.txt", "Program.Spin", 0, BBL, 28, -1, 50001 },
  { "hotloop/edge.pgo.txt", "Program.Spin", 0, EDGE, 19, 24, 25000 },
  { "hotloop/edge.pgo.txt", "Program.Spin", 0, EDGE, 24, 28, 50000 },
  { "hotloop/edge.pgo.txt", "Program.Spin", 0, EDGE, 32, 0, 1 },
};

START_TEST (test_fixtures_hand_counts)
{
  const HandCount *c = &counts[_i];
  g_autofree char *rel = g_strconcat (DATA, c->dump, NULL);
  g_autofree char *text = load_text (rel);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *name_line = g_strconcat ("MethodName: ", c->method, NULL);
  gboolean in_method = FALSE;
  guint found = 0;
  guint hash = 0;

  for (guint i = 0; lines[i]; i++)
    {
      guint kind, il, n, other, lo, hi = 0, code;
      guint64 value;

      if (g_str_has_prefix (lines[i], "@@@ "))
        ck_assert_int_eq (sscanf (lines[i], "@@@ codehash 0x%X methodhash 0x%X", &code, &hash), 2);
      if (g_str_has_prefix (lines[i], "MethodName: "))
        in_method = strcmp (lines[i], name_line) == 0 && (c->method_hash == 0 || c->method_hash == hash);
      if (!in_method
          || sscanf (lines[i], "Schema InstrumentationKind %u ILOffset %u Count %u Other %u", &kind, &il, &n, &other) != 4
          || kind != c->kind || il != c->il_offset || (c->other >= 0 && other != (guint) c->other))
        continue;
      ck_assert_msg (n == 1 && lines[i + 1], "%s %s: record at %u has %u values", c->dump, c->method, il, n);
      ck_assert_int_ge (sscanf (lines[i + 1], "%u %u", &lo, &hi), 1);
      value = lo | ((guint64) hi << 32);
      ck_assert_msg (value == c->value, "%s %s kind 0x%x IL %u: count %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
                     c->dump, c->method, kind, il, value, c->value);
      found++;
    }
  ck_assert_msg (found > 0, "%s: no record of kind 0x%x at IL %u in %s", c->dump, c->kind, c->il_offset, c->method);
}
END_TEST

/* Edge mode writes edge counts and block mode block counts, nothing else. */
START_TEST (test_fixtures_modes)
{
  static const char *const programs[] = {
    "branches", "switches", "exceptions", "disposal", "statemachine",
    "recursion", "generics", "iterators", "strings", "hotloop", "escapes",
  };
  const char *program = programs[_i];
  g_autofree char *edge_rel = g_strdup_printf (DATA "%s/edge.pgo.txt", program);
  g_autofree char *block_rel = g_strdup_printf (DATA "%s/block.pgo.txt", program);
  g_autofree char *edge = load_text (edge_rel);
  g_autofree char *block = load_text (block_rel);

  ck_assert_msg (strstr (edge, "InstrumentationKind 385 ") != NULL, "%s: no EdgeIntCount", edge_rel);
  ck_assert_msg (strstr (edge, "InstrumentationKind 65 ") == NULL, "%s: BasicBlockIntCount", edge_rel);
  ck_assert_msg (strstr (block, "InstrumentationKind 65 ") != NULL, "%s: no BasicBlockIntCount", block_rel);
  ck_assert_msg (strstr (block, "InstrumentationKind 385 ") == NULL, "%s: EdgeIntCount", block_rel);
  /* Framework methods are instrumented too (ReadyToRun=0). */
  ck_assert_msg (strstr (block, "MethodName: System.String.") != NULL, "%s: no framework methods", block_rel);
}
END_TEST

START_TEST (test_fixtures_block64_kinds)
{
  g_autofree char *text = load_text (DATA "hotloop/block64.pgo.txt");

  /* 64-bit counters: BasicBlockLongCount, HandleHistogramLongCount, ValueHistogramLongCount only. */
  ck_assert (strstr (text, "InstrumentationKind 66 ") != NULL);
  ck_assert (strstr (text, "InstrumentationKind 130 ") != NULL);
  ck_assert (strstr (text, "InstrumentationKind 514 ") != NULL);
  ck_assert (strstr (text, "InstrumentationKind 65 ") == NULL);
  ck_assert (strstr (text, "InstrumentationKind 177 ") == NULL);
  ck_assert (strstr (text, "InstrumentationKind 561 ") == NULL);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("fixtures");
  TCase *tc = tcase_create ("files");

  tcase_add_test (tc, test_fixtures_size_and_hash);
  tcase_add_test (tc, test_fixtures_complete);
  tcase_add_test (tc, test_fixtures_magic);
  tcase_add_test (tc, test_fixtures_file_kind);
  tcase_add_test (tc, test_fixtures_settings);
  tcase_add_loop_test (tc, test_fixtures_evidence, 0, G_N_ELEMENTS (evidence));
  suite_add_tcase (s, tc);

  tc = tcase_create ("counts");
  tcase_add_loop_test (tc, test_fixtures_hand_counts, 0, G_N_ELEMENTS (counts));
  tcase_add_loop_test (tc, test_fixtures_modes, 0, 11);
  tcase_add_test (tc, test_fixtures_block64_kinds);
  suite_add_tcase (s, tc);
  return s;
}
