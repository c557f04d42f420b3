/* SPDX-License-Identifier: MIT
 *
 * cmd-show.c: this file implements "pgo-reconstruct show": one method's
 * flow graph as the JIT forms it, as text, Graphviz DOT or SVG; with a
 * trace, every block and edge with its reconstructed count, coloured by
 * provenance.
 *
 * Input: a method of an assembly (--assembly FILE --method M), or a body
 * given as IL hex (--il-hex, with --eh clauses); optionally a trace or a
 * store holding the method's counts.
 * Output: blocks (IL range, kind, bbRefs, regions, probe marks, and the
 * source lines of the assembly's portable PDB when it has one), edges
 * (tree / non-tree with schema keys), or the picture, on stdout.
 * Wiring only: reconstruct/ forms and reconstructs, libpgo/render/ draws.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

/* The portable PDB of 'image' for the source lines, or NULL: none found
 * (silently), or one that cannot be used (bad, or of another build),
 * with a warning naming it. */
static PgoPdb *
open_source_pdb (PgoImage *image)
{
  g_autoptr(GError) error = NULL;
  PgoPdb *pdb = pgo_pdb_open_for_image (image, &error);

  if (pdb == NULL && !g_error_matches (error, PGO_ERROR, PGO_ERROR_NOT_FOUND))
    tool_warning ("%s; no source lines", error->message);
  return pdb;
}

/* Drops *pdb, with a warning, when method 'token's sequence points or
 * the names of their documents cannot be read: a block's lines are then
 * only ever missing, never wrong or silently left out. */
static void
check_source (PgoPdb **pdb, guint32 token)
{
  g_autoptr(GError) error = NULL;
  g_autofree PgoSequencePoint *points = NULL;
  guint n = 0;
  gboolean ok = pgo_pdb_lookup_sequence_points (*pdb, token, &points, &n, &error);

  for (guint i = 0; ok && i < n; i++)
    ok = pgo_pdb_lookup_document (*pdb, points[i].document, &error) != NULL;
  if (!ok && !g_error_matches (error, PGO_ERROR, PGO_ERROR_NOT_FOUND))
    {
      tool_warning ("%s; no source lines", error->message);
      g_clear_pointer (pdb, pgo_pdb_unref);
    }
}

/* Reads the body of the one method of 'path' that --method 'sel' names.
 * Its IL is borrowed from the image, which *out_md keeps alive; clear
 * 'out_body' with pgo_method_body_clear() before dropping *out_md.  With
 * 'out_pdb', the assembly's PDB for the method's source lines (or NULL). */
static int
load_from_assembly (const char *path, const char *sel, PgoMetadata **out_md,
                    PgoMethodBody *out_body, char **out_title, guint32 *out_token,
                    PgoPdb **out_pdb)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = pgo_image_open (path, &error);
  g_autoptr(PgoMetadata) md = NULL;
  guint32 n, found = 0, token = 0;

  if (image == NULL)
    return tool_fail (NULL, g_steal_pointer (&error));
  if (!(md = pgo_metadata_new (image, &error)))
    return tool_fail (path, g_steal_pointer (&error));
  n = pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF);
  for (guint32 rid = 1; rid <= n; rid++)
    if (pgo_metadata_match_method (md, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), sel))
      {
        token = PGO_TOKEN (PGO_TABLE_METHODDEF, rid);
        found++;
      }
  if (found == 0)
    {
      tool_error ("%s: no method matches '%s'", path, sel);
      return PGO_EXIT_FAILURE;
    }
  if (found > 1)
    return tool_usage ("'%s' names %u methods of %s; give its token or canonical name",
                       sel, found, path);
  if (!pgo_metadata_lookup_method_body (md, token, out_body, &error))
    return tool_fail (path, g_steal_pointer (&error));
  *out_token = token;
  if (out_pdb && (*out_pdb = open_source_pdb (image)))
    check_source (out_pdb, token);
  *out_title = pgo_metadata_format_method (md, token, NULL);
  if (*out_title == NULL)
    *out_title = g_strdup_printf ("0x%08x", token);
  *out_md = g_steal_pointer (&md);
  return PGO_EXIT_OK;
}

/* Parses a decimal or 0x-prefixed hex number into 'out'. */
static gboolean
parse_u32 (const char *text, guint64 *out)
{
  if (g_str_has_prefix (text, "0x") || g_str_has_prefix (text, "0X"))
    return g_ascii_string_to_unsigned (text + 2, 16, 0, G_MAXUINT32, out, NULL);
  return g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, out, NULL);
}

/* Parses "KIND:TRY:TRYLEN:HND:HNDLEN[:FILTER]" (hex or decimal). */
static gboolean
parse_clause (const char *text, PgoEhClause *out, GError **error)
{
  g_auto(GStrv) f = g_strsplit (text, ":", -1);
  guint n = g_strv_length (f);
  guint64 v[5] = { 0 };

  if (n < 5 || n > 6)
    goto bad;
  if (strcmp (f[0], "catch") == 0)
    out->flags = PGO_EH_CATCH;
  else if (strcmp (f[0], "filter") == 0)
    out->flags = PGO_EH_FILTER;
  else if (strcmp (f[0], "finally") == 0)
    out->flags = PGO_EH_FINALLY;
  else if (strcmp (f[0], "fault") == 0)
    out->flags = PGO_EH_FAULT;
  else
    goto bad;
  for (guint i = 1; i < n; i++)
    if (!parse_u32 (f[i], &v[i - 1]))
      goto bad;
  if ((out->flags == PGO_EH_FILTER) != (n == 6))
    goto bad;
  out->try_offset = (guint32) v[0];
  out->try_length = (guint32) v[1];
  out->handler_offset = (guint32) v[2];
  out->handler_length = (guint32) v[3];
  out->filter_offset = n == 6 ? (guint32) v[4] : 0;
  return TRUE;

bad:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "bad --eh '%s' (want catch|filter|finally|fault:TRY:TRYLEN:HND:HNDLEN[:FILTER])",
               text);
  return FALSE;
}

/* Decodes hex (spaces allowed) into a new byte array. */
static GByteArray *
parse_hex (const char *hex, GError **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  int hi = -1;

  for (const char *p = hex; *p; p++)
    {
      int d = g_ascii_xdigit_value (*p);

      if (g_ascii_isspace (*p))
        continue;
      if (d < 0)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--il-hex: '%c' is not a hex digit", *p);
          return NULL;
        }
      if (hi < 0)
        hi = d;
      else
        {
          guint8 byte = (guint8) (hi << 4 | d);

          g_byte_array_append (out, &byte, 1);
          hi = -1;
        }
    }
  if (hi >= 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--il-hex: odd number of digits");
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* The " tryN hndN" regions block 'b' lies in, as a new string (empty if none). */
static char *
region_string (const PgoBlock *b)
{
  GString *s = g_string_new (NULL);

  if (b->try_index)
    g_string_append_printf (s, " try%u", b->try_index - 1);
  if (b->hnd_index)
    g_string_append_printf (s, " hnd%u", b->hnd_index - 1);
  return g_string_free (s, FALSE);
}

/* " FILE:FIRST-LAST", the source lines of block 'b' of method 'token'
 * in 'pdb', as a new string; empty without a PDB or lines. */
static char *
source_string (PgoPdb *pdb, guint32 token, const PgoBlock *b)
{
  PgoSourceLines lines;
  g_autofree char *text = NULL;

  if (!pdb || (b->flags & PGO_BLOCK_FLAG_INTERNAL)
      || !pgo_pdb_lookup_lines (pdb, token, b->il_offset, b->il_end, &lines, NULL))
    return g_strdup ("");
  text = pgo_source_lines_to_string (&lines, TRUE);
  return g_strconcat (" ", text, NULL);
}

/* Prints 'cfg' as text: a summary line, one line per block (its source
 * lines, from 'pdb' when given, after its marks), then one per
 * spanning-tree walk edge with its schema keys. */
static void
print_text (const PgoCfg *cfg, PgoPdb *pdb, guint32 token)
{
  printf ("# %u blocks, %u EH clauses, returns %u, %u non-tree edges\n",
          cfg->n_blocks, cfg->n_clauses, cfg->return_count, cfg->n_non_tree);
  for (guint32 i = 0; i < cfg->n_blocks; i++)
    {
      const PgoBlock *b = &cfg->blocks[i];
      g_autofree char *region = region_string (b);
      g_autofree char *source = source_string (pdb, token, b);
      gboolean internal = (b->flags & PGO_BLOCK_FLAG_INTERNAL) != 0;

      printf ("BB%02u [%04x..%04x) %-12s refs %u key %s0x%x%s%s%s%s%s%s succ",
              b->num, b->il_offset, b->il_end, pgo_block_kind_to_string (b->kind), b->refs,
              internal ? "I|" : "", internal ? b->num : (guint32) b->key,
              region, (b->flags & PGO_BLOCK_FLAG_RARE) ? " rare" : "",
              (b->flags & PGO_BLOCK_FLAG_REACHABLE) ? "" : " unreachable",
              !internal && pgo_cfg_is_probe (cfg, PGO_PROBES_A, b->il_offset) ? " probeA" : "",
              !internal && pgo_cfg_is_probe (cfg, PGO_PROBES_B, b->il_offset) ? " probeB" : "",
              source);
      for (guint32 s = 0; s < b->n_succ; s++)
        printf (" BB%02u", cfg->blocks[b->succ[s]].num);
      printf ("\n");
    }
  for (guint32 i = 0; i < cfg->n_walk; i++)
    {
      const PgoWalkEdge *e = &cfg->walk[i];

      printf ("%s BB%02u -> BB%02u %s key 0x%x -> 0x%x\n",
              e->kind == PGO_WALK_TREE ? "tree   " : "nontree",
              cfg->blocks[e->src].num, cfg->blocks[e->dst].num,
              pgo_walk_kind_to_string (e->kind), (guint32) e->src_key, (guint32) e->dst_key);
    }
}

/* Appends 's' to 'out', with '"' and backslash escaped for a DOT string. */
static void
append_dot_escaped (GString *out, const char *s)
{
  for (const char *p = s; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
}

/* Prints 'cfg' as a Graphviz digraph named 'title': blocks (with their
 * source lines from 'pdb', when given, after the IL range), walk edges
 * (tree bold, non-tree dashed) and exception edges (dotted). */
static void
print_dot (const PgoCfg *cfg, const char *title, PgoPdb *pdb, guint32 token)
{
  g_autoptr(GString) quoted = g_string_new (NULL);

  append_dot_escaped (quoted, title);
  printf ("digraph \"%s\" {\n  node [shape=box, fontname=\"monospace\"];\n", quoted->str);
  for (guint32 i = 0; i < cfg->n_blocks; i++)
    {
      const PgoBlock *b = &cfg->blocks[i];
      g_autofree char *region = region_string (b);
      g_autofree char *source = source_string (pdb, token, b);
      g_autoptr(GString) src = g_string_new (NULL);
      gboolean internal = (b->flags & PGO_BLOCK_FLAG_INTERNAL) != 0;
      gboolean a = !internal && pgo_cfg_is_probe (cfg, PGO_PROBES_A, b->il_offset);
      gboolean pb = !internal && pgo_cfg_is_probe (cfg, PGO_PROBES_B, b->il_offset);

      append_dot_escaped (src, source);
      printf ("  BB%02u [label=\"BB%02u [%04x..%04x)%s\\n%s refs %u%s%s%s%s\"%s%s];\n",
              b->num, b->num, b->il_offset, b->il_end, src->str, pgo_block_kind_to_string (b->kind),
              b->refs, region, internal ? "\\ninternal" : "",
              a ? "\\nprobe A" : "", pb ? " probe B" : "",
              (b->flags & PGO_BLOCK_FLAG_RARE) ? ", style=dashed" : "",
              a ? (pb ? ", color=red, penwidth=2" : ", color=red") : "");
    }
  for (guint32 i = 0; i < cfg->n_walk; i++)
    {
      const PgoWalkEdge *e = &cfg->walk[i];

      if (e->kind == PGO_WALK_TREE)
        printf ("  BB%02u -> BB%02u [style=bold];\n",
                cfg->blocks[e->src].num, cfg->blocks[e->dst].num);
      else
        printf ("  BB%02u -> BB%02u [style=dashed, label=\"%s\\n%x->%x\"];\n",
                cfg->blocks[e->src].num, cfg->blocks[e->dst].num,
                pgo_walk_kind_to_string (e->kind), (guint32) e->src_key, (guint32) e->dst_key);
    }
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];

      if (e->kind == PGO_EDGE_EXCEPTION)
        printf ("  BB%02u -> BB%02u [style=dotted, color=gray, label=\"exception\"];\n",
                cfg->blocks[e->src].num, cfg->blocks[e->dst].num);
    }
  printf ("}\n");
}

/* The command line of "show", checked. */
typedef struct {
  char         *assembly;      /* --reference (or --assembly) FILE, or NULL with --il-hex */
  char         *reference;     /* --reference as typed, taken into 'assembly' */
  char         *method;        /* --method M, with --assembly */
  char         *il_hex;        /* --il-hex HEX as typed */
  char        **eh;            /* --eh clauses as typed, with --il-hex */
  char         *format;        /* --format as typed */
  char         *trace;         /* --trace: counts from this trace, .mibc or XML file */
  char         *store;         /* --store: counts from this profile store */
  char        **frameworks;    /* --framework directories */
  ToolRecon  recon;         /* --probes, --priors, --no-call-evidence */
  gboolean      svg;           /* --format svg */
  PgoProfileSetOptions set;    /* how to reconstruct, from --probes, --priors */
  char         *switch_order;  /* --switch-succ as typed */
  gboolean      debuggable;    /* --debuggable */
  gboolean      no_source;     /* --no-source */
  PgoPdb       *pdb;           /* the assembly's portable PDB, or NULL */
  gboolean      dot;           /* --format dot */
  PgoCfgOptions cfg;           /* from --debuggable and --switch-succ */
  GByteArray   *il;            /* --il-hex, decoded */
  GArray       *clauses;       /* PgoEhClause: --eh, parsed */
} ShowOptions;

/* Frees what 'o' holds. */
static void
show_options_clear (ShowOptions *o)
{
  g_clear_pointer (&o->assembly, g_free);
  g_clear_pointer (&o->reference, g_free);
  g_clear_pointer (&o->method, g_free);
  g_clear_pointer (&o->il_hex, g_free);
  g_clear_pointer (&o->eh, g_strfreev);
  g_clear_pointer (&o->format, g_free);
  g_clear_pointer (&o->trace, g_free);
  g_clear_pointer (&o->store, g_free);
  g_clear_pointer (&o->frameworks, g_strfreev);
  tool_recon_clear (&o->recon);
  g_clear_pointer (&o->switch_order, g_free);
  g_clear_pointer (&o->il, g_byte_array_unref);
  g_clear_pointer (&o->clauses, g_array_unref);
  g_clear_pointer (&o->pdb, pgo_pdb_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ShowOptions, show_options_clear)

/* Fills the graph options of 'o' and, with --il-hex, decodes the IL and the
 * --eh clauses.  Returns PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
static int
parse_body_options (ShowOptions *o)
{
  g_autoptr(GError) error = NULL;

  pgo_cfg_options_init (&o->cfg);
  o->cfg.early_block_merging = !o->debuggable;
  if (o->switch_order && strcmp (o->switch_order, "all") == 0)
    o->cfg.switch_succ = PGO_SWITCH_SUCC_ALL_CASES;
  else if (o->switch_order && strcmp (o->switch_order, "unique") != 0)
    return tool_usage ("unknown --switch-succ '%s' (unique or all)", o->switch_order);
  if (o->assembly)
    return PGO_EXIT_OK;
  if (!(o->il = parse_hex (o->il_hex, &error)))
    return tool_usage ("%s", error->message);
  o->clauses = g_array_new (FALSE, TRUE, sizeof (PgoEhClause));
  for (guint i = 0; o->eh && o->eh[i]; i++)
    {
      PgoEhClause c = { 0 };

      if (!parse_clause (o->eh[i], &c, &error))
        return tool_usage ("%s", error->message);
      g_array_append_val (o->clauses, c);
    }
  return PGO_EXIT_OK;
}

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, ShowOptions *o)
{
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- print a method's JIT flow graph");
  GOptionEntry entries[] = {
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME, &o->reference,
      "Read the method from this assembly (PE .dll or Webcil .wasm), as every command's --reference", "FILE" },
    { "assembly", 'a', 0, G_OPTION_ARG_FILENAME, &o->assembly, "The same as --reference (an older spelling)",
      "FILE" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->method,
      "The method: token (0x06...), name, Type::Name or canonical name", "M" },
    { "il-hex", 0, 0, G_OPTION_ARG_STRING, &o->il_hex, "Or the method's IL bytes in hex", "HEX" },
    { "eh", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->eh,
      "An EH clause, in table order (repeatable)", "KIND:TRY:TRYLEN:HND:HNDLEN[:FILTER]" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &o->format, "Output: text (default), dot or svg", "FORMAT" },
    { "trace", 't', 0, G_OPTION_ARG_FILENAME, &o->trace,
      "Show the counts reconstructed from this trace, .mibc or XML file", "FILE" },
    { "store", 's', 0, G_OPTION_ARG_FILENAME, &o->store,
      "Show the counts reconstructed from this profile store", "STORE" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->frameworks,
      "Framework directory for call evidence (repeatable)", "DIR" },
    { "switch-succ", 0, 0, G_OPTION_ARG_STRING, &o->switch_order,
      "Switch successor order: unique (default, runtime 10) or all", "ORDER" },
    { "debuggable", 0, 0, G_OPTION_ARG_NONE, &o->debuggable,
      "Debuggable code: no early block merging", NULL },
    { "no-source", 0, 0, G_OPTION_ARG_NONE, &o->no_source,
      "Print no source lines, even when the assembly's portable PDB is found", NULL },
    { NULL }
  };
  int rc;

  g_option_context_add_main_entries (ctx, entries, NULL);
  tool_recon_add_entries (ctx, &o->recon);
  g_option_context_set_summary (ctx,
    "Forms the basic blocks of one method exactly as RyuJIT does before\n"
    "importation and prints them with the JIT's spanning-tree edges and the\n"
    "interpreter's probe sets A and B.  When the assembly's portable PDB is\n"
    "found (FILE.pdb next to it, or embedded) and is that build's, each block\n"
    "shows the source lines its IL was compiled from.");
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc > 1)
    return tool_usage ("unexpected argument '%s'", (*argv)[1]);
  if (o->reference && o->assembly)
    return tool_usage ("--reference and --assembly name the same assembly: give one");
  if (o->reference)
    o->assembly = g_steal_pointer (&o->reference);
  if ((o->il_hex == NULL) == (o->assembly == NULL))
    return tool_usage ("give either --reference FILE --method M, or --il-hex HEX");
  if ((o->assembly == NULL) != (o->method == NULL))
    return tool_usage ("--reference and --method go together");
  if (o->no_source && !o->assembly)
    return tool_usage ("--no-source goes with --reference: --il-hex has no source");
  if (o->assembly && o->eh)
    return tool_usage ("--eh goes with --il-hex; an assembly has the clauses");
  if (o->format && strcmp (o->format, "text") != 0 && strcmp (o->format, "dot") != 0
      && strcmp (o->format, "svg") != 0)
    return tool_usage ("unknown --format '%s' (text, dot or svg)", o->format);
  o->dot = o->format && strcmp (o->format, "dot") == 0;
  o->svg = o->format && strcmp (o->format, "svg") == 0;
  if ((o->trace || o->store) && !o->assembly)
    return tool_usage ("--trace and --store need --assembly: the counts name the method by token");
  if (o->trace && o->store)
    return tool_usage ("give --trace or --store, not both");
  if (!o->trace && !o->store
      && (o->recon.probes || o->recon.priors || o->recon.no_calls || o->frameworks))
    return tool_usage ("--probes, --priors, --no-call-evidence and --framework go with --trace or --store");
  pgo_profile_set_options_init (&o->set);
  o->set.one_process = o->trace && tool_input_kind (o->trace) == PGO_FILE_KIND_NETTRACE;
  if ((rc = tool_recon_check (&o->recon, &o->set)) != PGO_EXIT_OK)
    return rc;
  return parse_body_options (o);
}

/* Builds the flow graph of the method 'o' names into *out_cfg; its title
 * (NULL for --il-hex) goes to *out_title.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
build_cfg (ShowOptions *o, char **out_title, guint32 *out_token, PgoCfg **out_cfg)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoMetadata) md = NULL;
  PgoMethodBody body = { 0 };
  int rc;

  if (o->assembly)
    {
      if ((rc = load_from_assembly (o->assembly, o->method, &md, &body, out_title, out_token,
                                    o->no_source ? NULL : &o->pdb)) != PGO_EXIT_OK)
        return rc;
      o->set.reconstruction.cfg = o->cfg;
    }
  else
    {
      body.il = o->il->data;
      body.il_size = o->il->len;
      body.n_clauses = o->clauses->len;
      body.clauses = (PgoEhClause *) o->clauses->data;
    }
  *out_cfg = pgo_cfg_build (&body, &o->cfg, &error);
  if (o->assembly)
    pgo_method_body_clear (&body);
  if (*out_cfg == NULL)
    {
      if (o->assembly)
        g_prefix_error (&error, "%s: ", *out_title);
      return tool_fail (o->assembly ? o->assembly : "--il-hex", g_steal_pointer (&error));
    }
  return PGO_EXIT_OK;
}

/* The method a --trace or --store is searched for, and its picture. */
typedef struct {
  const char *module; /* the assembly's simple name */
  guint32     token;
  const char *title;
  PgoDiagram *diagram;
} Wanted;

/* PgoProfileSetOptions.select: TRUE for the wanted method only, so that
 * only it is reconstructed. */
static gboolean
is_wanted (const PgoMethodId *id, gpointer user_data)
{
  const Wanted *w = user_data;

  return id && id->token == w->token && id->module
         && g_strcmp0 (id->module->simple_name, w->module) == 0;
}

/* PgoProfileSetVisitFunc: draws the wanted method's reconstruction. */
static void
draw_wanted (const PgoMethodId *id, const PgoReconstruction *rec, gpointer user_data)
{
  Wanted *w = user_data;

  (void) id;
  if (!w->diagram)
    w->diagram = pgo_reconstruction_to_diagram (rec, w->title);
}

/* The picture of method 'token' ('title') reconstructed from o->trace or
 * o->store into *out; PGO_EXIT_OK, or the exit code after the error. */
static int
draw_counts (ShowOptions *o, guint32 token, const char *title, PgoDiagram **out)
{
  char *refs[] = { o->assembly, NULL }, *one[] = { o->trace ? o->trace : o->store, NULL };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GPtrArray) in = NULL, res = NULL;
  g_autoptr(GString) modules = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoMetadata) md = NULL;
  PgoAssemblyName an = { 0 };
  Wanted w = { NULL, token, title, NULL };
  int rc;

  if (!(resolver = tool_open_resolver (refs, o->frameworks, &rc))
      || (rc = tool_recon_open_stale (&o->recon, resolver, &o->set)) != PGO_EXIT_OK
      || !(in = tool_read_inputs (o->store ? one : NULL, o->trace ? one : NULL, resolver,
                                  o->frameworks != NULL, tool_stale_mode (&o->set),
                                  NULL, modules, NULL, &rc)))
    return rc;
  g_autoptr(PgoImage) image = pgo_image_open (o->assembly, NULL);
  if (image && (md = pgo_metadata_new (image, NULL)))
    pgo_metadata_lookup_assembly_name (md, &an, NULL);
  w.module = an.name;
  o->set.visit = draw_wanted;
  o->set.select = is_wanted;
  o->set.visit_data = &w;
  res = pgo_profile_set_build (in, resolver, &o->set, NULL, &error);
  pgo_assembly_name_clear (&an);
  tool_print_stale ("show", &o->recon);
  if (!res)
    {
      pgo_diagram_free (w.diagram);
      return tool_fail (one[0], g_steal_pointer (&error));
    }
  if (!w.diagram)
    {
      tool_error ("%s: no block counts of %s (token 0x%08x) of %s", one[0], title, token, o->assembly);
      return PGO_EXIT_FAILURE;
    }
  *out = w.diagram;
  return PGO_EXIT_OK;
}

/* Adds the source lines of o's PDB to picture 'd' of method 'token'; a
 * method whose lines cannot be read is drawn without, after a warning. */
static void
annotate (const ShowOptions *o, guint32 token, PgoDiagram *d)
{
  g_autoptr(GError) error = NULL;

  if (o->pdb && !pgo_pdb_annotate_diagram (o->pdb, token, d, &error))
    tool_warning ("%s; no source lines", error->message);
}

/* Prints 'd' in o's format. */
static int
print_diagram (const ShowOptions *o, const PgoDiagram *d)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) svg = NULL;
  g_autofree char *text = NULL;

  if (o->svg)
    {
      if (!(svg = pgo_diagram_to_svg (d, &error)))
        return tool_fail (NULL, g_steal_pointer (&error));
      fwrite (g_bytes_get_data (svg, NULL), 1, g_bytes_get_size (svg), stdout);
    }
  else
    {
      text = o->dot ? pgo_diagram_to_dot (d) : pgo_diagram_to_text (d);
      fputs (text, stdout);
    }
  return tool_flush_stdout ();
}

/* "show": forms one method's flow graph as the JIT does and prints it as
 * text, Graphviz DOT or SVG; with --trace or --store, with its counts. */
int
cmd_show (int argc, char **argv)
{
  g_auto(ShowOptions) o = { 0 };
  g_autofree char *title = NULL;
  g_autoptr(PgoCfg) cfg = NULL;
  g_autoptr(PgoDiagram) diagram = NULL;
  guint32 token = 0;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if ((rc = build_cfg (&o, &title, &token, &cfg)) != PGO_EXIT_OK)
    return rc;
  if (o.trace || o.store)
    {
      if ((rc = draw_counts (&o, token, title, &diagram)) != PGO_EXIT_OK)
        return rc;
      annotate (&o, token, diagram);
      return print_diagram (&o, diagram);
    }
  if (o.svg)
    {
      diagram = pgo_cfg_to_diagram (cfg, title ? title : "method");
      annotate (&o, token, diagram);
      return print_diagram (&o, diagram);
    }
  if (o.dot)
    print_dot (cfg, title ? title : "method", o.pdb, token);
  else
    {
      if (title)
        printf ("# %s\n", title);
      print_text (cfg, o.pdb, token);
    }
  return tool_flush_stdout ();
}
