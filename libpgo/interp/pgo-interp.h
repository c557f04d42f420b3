/* SPDX-License-Identifier: MIT
 *
 * pgo-interp.h: a compact CIL interpreter that counts block heads as the
 * WebAssembly CoreCLR interpreter does, or every block (dense mode).
 * SPEC: pgo-interp(1) "Probe placement", "Output"
 *
 * Input: an app assembly and the framework directory its references
 * resolve in.  Output: the program's own output, and per method the counts
 * of its probes as a PgoMethodProfile (BasicBlockIntCount records for probe
 * sets, BasicBlockLongCount for dense mode).
 *
 * The stage decides nothing about where probes go: the caller's
 * PgoInterpProbeFunc names each method's probe offsets (the CFG's probe
 * sets, or every block head for dense mode).
 *
 * Not exported: the pgo-interp tool and the fuzz target link it from the
 * build's internal library, hence the private prefix.
 */
#pragma once

#include <glib.h>

#include "pgo-body.h"
#include "pgo-metadata.h"
#include "pgo-schema.h"
#include "pgo-method-id.h"

G_BEGIN_DECLS

typedef enum {
  PGO_INTERP_COUNT_NONE,   /* no probes */
  PGO_INTERP_COUNT_32,     /* uint32 counters that wrap (probe sets A, B, P) */
  PGO_INTERP_COUNT_64,     /* uint64 counters (dense) */
} PgoInterpCounting;

/* Fills '*out' with the sorted, distinct IL offsets to count in 'body' of
 * method 'token' of 'md'; returns FALSE with 'error' set to stop the run. */
typedef gboolean (*PgoInterpProbeFunc) (PgoMetadata *md, guint32 token,
                                        const PgoMethodBody *body, GArray *out,
                                        gpointer user_data, GError **error);

typedef struct {
  PgoInterpCounting  counting;
  PgoInterpProbeFunc probes;        /* required unless counting is NONE */
  gpointer           probes_data;
  guint64            max_steps;     /* 0: unbounded */
  guint64            max_heap;      /* bytes of managed objects; 0: 1 GiB */
  guint32            max_depth;     /* nested calls; 0: 10000 */
} PgoInterpOptions;

typedef struct _PgoInterp PgoInterp;

void        _pgo_interp_options_init (PgoInterpOptions *options);
PgoInterp  *_pgo_interp_new          (const char *assembly, const char *const *framework_dirs,
                                      const PgoInterpOptions *options, GError **error);
void        _pgo_interp_free         (PgoInterp *interp);
gboolean    _pgo_interp_load_runtime_config (PgoInterp *interp, const char *path, GError **error);
gboolean    _pgo_interp_run_main     (PgoInterp *interp, const char *const *args,
                                      int *out_exit_code, GError **error);
GPtrArray  *_pgo_interp_get_profiles (PgoInterp *interp, GPtrArray **out_owners);
const char *_pgo_interp_get_module_path (PgoInterp *interp, const char *simple_name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoInterp, _pgo_interp_free)

G_END_DECLS
