/* SPDX-License-Identifier: MIT
 *
 * pgo-class-sites-private.h: the class histograms of virtual and
 * interface call sites, inferred from the entry counts of the methods a
 * call can dispatch to (not installed).
 *
 * Input: the call facts' entry counts (every profiled method's), the
 * references' metadata, a caller's IL.  Output: per caller, its class-probe
 * sites with their likely receiver classes; per reconstructed profile, the
 * JIT's HandleHistogram records for them.
 *
 * SPEC: pgo-inference(7) "Class histograms"
 */
#pragma once

#include <glib.h>

#include "pgo-body.h"
#include "pgo-call-facts.h"
#include "pgo-cfg.h"
#include "pgo-method-id.h"
#include "pgo-reconstruct.h"

G_BEGIN_DECLS

/* Most receiver classes kept for one site, heaviest first. */
#define PGO_CLASS_SITE_TARGETS 4

/* Handles of inferred classes are PGO_CLASS_SITE_HANDLE_BASE + n: above
 * every user-space address a trace's handles can be, so none collides. */
#define PGO_CLASS_SITE_HANDLE_BASE G_GUINT64_CONSTANT (0xC1A5500000000000)

/* A receiver class of a site: its handle (PGO_CLASS_SITE_HANDLE_BASE + n)
 * and the entries of the method a call on it runs. */
typedef struct {
  guint64 handle;
  guint64 entries;
} PgoClassTarget;

/* A class-probe site: a callvirt of a method an override can replace. */
typedef struct {
  guint32        il_offset;  /* the callvirt */
  guint32        flags;      /* PGO_HISTOGRAM_FLAG_CLASS, | _INTERFACE for an interface method */
  guint          n_targets;
  guint          n_classes;  /* the classes found, kept or not */
  PgoClassTarget targets[PGO_CLASS_SITE_TARGETS];
} PgoClassSite;

typedef struct _PgoClassSites PgoClassSites;

/* A method a virtual call can run: its module's interned simple name,
 * its MethodDef and its entries. */
typedef struct {
  const char *module;
  guint32     def;
  guint64     entries;
} PgoDispatchTarget;

PgoClassSites *_pgo_class_sites_new    (PgoCallFacts *facts);
void           _pgo_class_sites_free   (PgoClassSites *cs);
GArray        *_pgo_class_sites_find   (PgoClassSites *cs, const PgoMethodId *caller,
                                        const PgoMethodBody *body, const PgoCfg *cfg);
gboolean       _pgo_class_sites_dispatch (PgoClassSites *cs, PgoMetadata *md, guint32 def, GArray *out);
const char    *_pgo_class_sites_handle_name (PgoClassSites *cs, guint64 handle);
gboolean       _pgo_class_sites_add_records (PgoMethodProfile *out, GArray *sites,
                                             const PgoReconstruction *rec, GError **error);

G_END_DECLS
