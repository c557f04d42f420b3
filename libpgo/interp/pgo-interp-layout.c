/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-layout.c: a type's layout, made on its first use: its
 * fields' offsets and statics, its vtable and its interfaces.
 * SPEC: pgo-interp(1) "Loading"
 *
 * Apart from loading (pgo-interp-load.c), as the one place that decides
 * where a value lies: instance fields in declaration order at their
 * natural alignment after the base's (at their [FieldOffset] in a type
 * of explicit layout, overlapping as it says), a struct grown to an explicit
 * ClassSize, [InlineArray(N)] repeated N times and Vector<T> sized as on
 * this machine; statics in slots of their own.  A virtual method takes
 * the slot of the method it overrides, or a new one.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-signature-private.h"
#include "pgo-error-private.h"

/* ECMA-335 II.23.1.5 FieldAttributes, II.23.1.10 MethodAttributes. */
#define FD_STATIC      0x0010
#define FD_LITERAL     0x0040
#define FD_HAS_RVA     0x0100

/* ---- layout ---- */

#define INLINE_ARRAY_ATTRIBUTE "System.Runtime.CompilerServices.InlineArrayAttribute"

/* _pgo_interp_type_attribute: TRUE if TypeDef 'type' of 'm' carries a
 * custom attribute of the type named 'name'; its value blob into '*blob'
 * and '*len' (nullable). */
gboolean
_pgo_interp_type_attribute (Module *m, guint32 type, const char *name, const guint8 **blob, gsize *len)
{
  PgoMetadata *md = m->md;
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_CUSTOMATTRIBUTE);
  guint32 key = (PGO_TOKEN_RID (type) << 5) | 3;  /* HasCustomAttribute: TypeDef is tag 3 */

  for (guint32 r = _pgo_metadata_sorted_first (md, PGO_TABLE_CUSTOMATTRIBUTE, PGO_COL_CUSTOMATTRIBUTE_PARENT, key); r <= n && pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_PARENT, r) == key; r++)
    {
      guint32 ctor = 0;
      g_autofree char *found = NULL;
      const guint8 *b = NULL;
      gsize l = 0;

      if (!_pgo_metadata_decode_coded (md, PGO_CODED_CUSTOM_ATTRIBUTE_TYPE,
                                       pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_TYPE, r), &ctor, NULL)
          || !(found = _pgo_metadata_attribute_type (md, ctor)) || strcmp (found, name) != 0
          || !_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_VALUE, r),
                                         &b, &l, NULL))
        continue;
      if (blob)
        *blob = b, *len = l;
      return TRUE;
    }
  return FALSE;
}

/* The length N of TypeDef 'type' of 'm' when it carries [InlineArray(N)]
 * (its one field repeated N times, as the runtime lays it out), else 0. */
static guint32
inline_array_length (Module *m, guint32 type)
{
  const guint8 *blob = NULL;
  gsize len = 0;
  gint32 length;

  /* the value: prolog 0x0001, then the int32 */
  if (!_pgo_interp_type_attribute (m, type, INLINE_ARRAY_ATTRIBUTE, &blob, &len) || len < 6
      || blob[0] != 1 || blob[1] != 0)
    return 0;
  memcpy (&length, blob + 2, 4);
  return length > 0 ? (guint32) length : 0;
}

/* The size of Vector<T> as CoreCLR gives it on this machine: 32 bytes
 * where the processor has AVX2 and the DOTNET_ settings that disable it
 * (EnableHWIntrinsic, EnableAVX, EnableAVX2 at 0, or a
 * PreferredVectorBitWidth under 256, read as hex like every DOTNET_
 * number) are absent; else 16.  Code sized by Vector<T>.Count then takes
 * CoreCLR's paths and counts. */
static guint32
vector_bytes (void)
{
  static const char *const off[] = { "DOTNET_EnableHWIntrinsic", "DOTNET_EnableAVX", "DOTNET_EnableAVX2" };
  const char *width = g_getenv ("DOTNET_PreferredVectorBitWidth");

  for (guint i = 0; i < G_N_ELEMENTS (off); i++)
    if (g_strcmp0 (g_getenv (off[i]), "0") == 0)
      return 16;
  if (width && g_ascii_strtoull (width, NULL, 16) < 256)
    return 16;
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports ("avx2") ? 32 : 16;
#else
  return 16;
#endif
}

/* The offset [FieldOffset] gives field 'frid' of 'm' (its FieldLayout
 * row, ECMA-335 II.22.16) into '*out'; FALSE when it has none. */
static gboolean
explicit_offset (Module *m, guint32 frid, guint32 *out)
{
  guint32 n = pgo_metadata_get_n_rows (m->md, PGO_TABLE_FIELDLAYOUT);
  guint32 r = _pgo_metadata_sorted_first (m->md, PGO_TABLE_FIELDLAYOUT, PGO_COL_FIELDLAYOUT_FIELD, frid);

  if (!r || r > n || pgo_metadata_get_column (m->md, PGO_COL_FIELDLAYOUT_FIELD, r) != frid)
    return FALSE;
  *out = pgo_metadata_get_column (m->md, PGO_COL_FIELDLAYOUT_OFFSET, r);
  return TRUE;
}

/* Places instance field 'fd' (Field row 'frid') of 't': at the offset
 * [FieldOffset] gives it in a type of explicit layout (after 'base', the
 * base class's fields), else at its natural alignment after the fields
 * so far.  '*size' becomes the end of the fields placed, the largest so
 * far for overlapping ones, and '*align' the largest alignment. */
static void
place_field (Type *t, Field *fd, guint32 frid, guint32 base, guint32 *size, guint32 *align)
{
  guint32 sz = MAX (fd->unsupported ? 8 : _pgo_interp_mem_size (fd->kind, fd->type), 1);
  guint32 a = MIN (MAX (fd->kind == M_VT && fd->type ? fd->type->align : sz, 1), 8), off;

  *align = MAX (*align, a);
  if ((t->flags & TD_LAYOUT_MASK) == TD_EXPLICIT_LAYOUT && explicit_offset (t->module, frid, &off))
    {
      fd->offset = base + off;
      *size = MAX (*size, fd->offset + sz);
      return;
    }
  *size = (*size + a - 1) & ~(a - 1);
  fd->offset = *size;
  *size += sz;
}

static gboolean
layout_fields (Type *t, GError **error)
{
  Module *m = t->module;
  guint32 rid = PGO_TOKEN_RID (t->token), first, end, size, base, align = 1, n_static = 0;

  if (!_pgo_metadata_lookup_list (m->md, PGO_COL_TYPEDEF_FIELD_LIST, rid, &first, &end, error))
    return FALSE;
  size = base = t->is_vt ? 0 : (t->parent ? t->parent->size : 8);
  t->fields = g_new0 (Field, end - first);
  for (guint32 f = first; f < end; f++)
    {
      guint32 frid = _pgo_metadata_list_target (m->md, PGO_TABLE_FIELD, f);
      guint16 flags = pgo_metadata_get_column (m->md, PGO_COL_FIELD_FLAGS, frid);
      Field *fd = &t->fields[t->n_fields];
      const guint8 *blob;
      gsize len;
      PgoCursor c;
      guint8 b;

      if (flags & FD_LITERAL)
        continue;
      if (!_pgo_metadata_lookup_blob (m->md, pgo_metadata_get_column (m->md, PGO_COL_FIELD_SIGNATURE, frid),
                                      &blob, &len, error))
        return FALSE;
      _pgo_cursor_init (&c, blob, len, 0);
      if (!pgo_cursor_read_u8 (&c, &b, error))
        return FALSE;
      fd->owner = t;
      fd->token = PGO_TOKEN (PGO_TABLE_FIELD, frid);
      (void) _pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_FIELD_NAME, frid),
                                          (const char **) &fd->name, NULL);
      {
        GError *ferr = NULL;
        fd->type = _pgo_interp_sig_type (m, &c, &fd->kind, &ferr);
        if (ferr)
          {
            /* kept, so that offsets stay right; using it is an error */
            fd->unsupported = g_strdup (ferr->message);
            fd->kind = M_VT;
            g_error_free (ferr);
          }
      }
      fd->is_static = (flags & FD_STATIC) != 0;
      fd->has_rva = fd->is_static && (flags & FD_HAS_RVA);
      if (!t->def)
        g_hash_table_insert (m->fields, GUINT_TO_POINTER (PGO_TOKEN (PGO_TABLE_FIELD, frid)), fd);
      t->n_fields++;
      if (fd->is_static)
        continue;  /* placed below, once the type's own size is known */
      place_field (t, fd, frid, base, &size, &align);
    }
  if (t->is_vt)
    {
      guint32 repeat = inline_array_length (m, t->token);

      /* [InlineArray(N)]: the one instance field N times */
      for (guint i = 0; repeat > 1 && i < t->n_fields; i++)
        if (!t->fields[i].is_static)
          size = t->fields[i].offset
                 + repeat * MAX (t->fields[i].unsupported ? 8 : _pgo_interp_mem_size (t->fields[i].kind, t->fields[i].type), 1);
      /* an explicit ClassSize (ECMA-335 II.22.8) can only grow a struct */
      guint32 nl = pgo_metadata_get_n_rows (m->md, PGO_TABLE_CLASSLAYOUT);
      for (guint32 r = 1; r <= nl; r++)
        if (pgo_metadata_get_column (m->md, PGO_COL_CLASSLAYOUT_PARENT, r) == rid)
          size = MAX (size, pgo_metadata_get_column (m->md, PGO_COL_CLASSLAYOUT_CLASS_SIZE, r));
      if (t->def && _pgo_interp_is_named (t->def, "System.Numerics.Vector`1"))
        size = MAX (size, vector_bytes ());
      t->size = MAX ((size + align - 1) & ~(align - 1), 1);
      t->align = align;
      if (_pgo_interp_is_named (t->parent, "System.Enum"))
        for (guint i = 0; i < t->n_fields; i++)
          if (!t->fields[i].is_static)
            t->kind = t->fields[i].kind;
    }
  else
    t->size = (size + 7) & ~7u;
  /* statics in slots of their own, sized after the instance layout: a
   * struct's static field of its own type (NodaTime's Duration.Zero)
   * needs the size just computed */
  for (guint i = 0; i < t->n_fields; i++)
    {
      Field *fd = &t->fields[i];

      if (!fd->is_static)
        continue;
      fd->offset = n_static;
      n_static += fd->kind == M_VT && fd->type ? MAX (SLOTS_OF (fd->type->size), 1) : 1;
    }
  t->n_statics = n_static;
  t->statics = g_new0 (Slot, MAX (n_static, 1));
  return TRUE;
}

/* The next parameter of a canonical parameter list at '*p' ("A,B<C,D>)"),
 * up to its top-level comma or closing parenthesis; advances '*p' to it. */
static char *
next_param (const char **p)
{
  const char *s = *p;
  int depth = 0;

  for (; **p && (depth > 0 || (**p != ',' && **p != ')')); (*p)++)
    depth += **p == '<' || **p == '[' ? 1 : **p == '>' || **p == ']' ? -1 : 0;
  return g_strndup (s, (gsize) (*p - s));
}

/* Whether canonical parameter text 'p' names a type parameter of the
 * method's class ("!0", "List`1<!1>"), which only an instantiation
 * fixes. */
static gboolean
names_class_parameter (const char *p)
{
  for (const char *c = strchr (p, '!'); c; c = strchr (c + 1, '!'))
    if ((c == p || c[-1] != '!') && c[1] != '!')
      return TRUE;
  return FALSE;
}

/* The parameter list of 'm''s canonical name, from its '(', or NULL. */
static const char *
param_list (Method *m)
{
  const char *name = strstr (m->full, "::");

  return strchr (name ? name : m->full, '(');
}

/* Whether generic methods 'a' and 'b' have the same parameters in their
 * canonical names ("M<!!0>(System.Type)"): position by position equal,
 * or naming a type parameter of the class on either side. */
static gboolean
same_generic_params (Method *a, Method *b)
{
  const char *pa = param_list (a), *pb = param_list (b);

  if (!pa || !pb)
    return TRUE;
  for (pa++, pb++; *pa && *pb && *pa != ')' && *pb != ')';)
    {
      g_autofree char *x = next_param (&pa);
      g_autofree char *y = next_param (&pb);

      if (strcmp (x, y) != 0 && !names_class_parameter (x) && !names_class_parameter (y))
        return FALSE;
      pa += *pa == ',';
      pb += *pb == ',';
    }
  return TRUE;
}

/* TRUE if 'a' overrides 'b': same name, parameters and return. */
gboolean
_pgo_interp_same_slot (Method *a, Method *b)
{
  /* generic methods: a signature over method parameters is read only in
   * an instantiation, so an override is the method of the same name,
   * parameter count, generic arity and canonical parameters */
  if (a->n_gparams || b->n_gparams)
    return strcmp (a->name, b->name) == 0 && a->n_params == b->n_params && a->n_gparams == b->n_gparams
           && same_generic_params (a, b);
  if (strcmp (a->name, b->name) != 0 || a->n_params != b->n_params || a->ret_kind != b->ret_kind
      || a->ret_type != b->ret_type || (a->unsupported != NULL) != (b->unsupported != NULL))
    return FALSE;
  if (a->unsupported)
    {
      const char *ka = strstr (a->full, "::"), *kb = strstr (b->full, "::");
      return ka && kb && strcmp (ka, kb) == 0;
    }
  for (guint32 i = 0; i < a->n_params; i++)
    if (a->param_kinds[i] != b->param_kinds[i] || a->param_types[i] != b->param_types[i])
      return FALSE;
  return TRUE;
}

static gboolean
layout_methods (Type *t, GError **error)
{
  Module *m = t->module;
  guint32 first, end;

  if (t->parent)
    {
      t->vtable = g_memdup2 (t->parent->vtable, sizeof (Method *) * MAX (t->parent->n_vtable, 1));
      t->n_vtable = t->parent->n_vtable;
    }
  if (!_pgo_metadata_lookup_list (m->md, PGO_COL_TYPEDEF_METHOD_LIST, PGO_TOKEN_RID (t->token), &first, &end,
                                  error))
    return FALSE;
  for (guint32 i = first; i < end; i++)
    {
      guint32 rid = _pgo_metadata_list_target (m->md, PGO_TABLE_METHODDEF, i);
      Method *md = _pgo_interp_method_of (t, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), error);
      gint32 slot = -1;

      if (!md)
        return FALSE;
      if (!t->methods)
        t->methods = g_ptr_array_new ();
      g_ptr_array_add (t->methods, md);
      if (strcmp (md->name, ".cctor") == 0)
        t->cctor = md;
      if (!(md->flags & MD_VIRTUAL) || t->is_interface)
        continue;
      /* A ReuseSlot method overrides the nearest base's method of its
       * name and signature: the highest slot, since each type appends its
       * new slots (System.Type's newslot Module hides MemberInfo's, and
       * RuntimeType's override is Type's). */
      if (!(md->flags & MD_NEWSLOT))
        for (guint32 s = t->n_vtable; s-- > 0 && slot < 0;)
          if (_pgo_interp_same_slot (t->vtable[s], md))
            slot = s;
      if (slot < 0)
        {
          t->vtable = g_renew (Method *, t->vtable, t->n_vtable + 1);
          slot = t->n_vtable++;
        }
      t->vtable[slot] = md;
      md->slot = slot;
    }
  return TRUE;
}

static gboolean
layout_interfaces (Type *t, GError **error)
{
  Module *m = t->module;
  guint32 n = pgo_metadata_get_n_rows (m->md, PGO_TABLE_INTERFACEIMPL);
  GPtrArray *ifaces = g_ptr_array_new ();

  for (guint32 r = 1; r <= n; r++)
    {
      guint32 iface = 0;
      Type *it;

      if (pgo_metadata_get_column (m->md, PGO_COL_INTERFACEIMPL_CLASS, r) != PGO_TOKEN_RID (t->token))
        continue;
      if (!_pgo_metadata_decode_coded (m->md, PGO_CODED_TYPE_DEF_OR_REF,
                                       pgo_metadata_get_column (m->md, PGO_COL_INTERFACEIMPL_INTERFACE, r),
                                       &iface, error)
          || !(it = _pgo_interp_type (m, iface, NULL)))
        continue; /* a generic interface: unknown until generics are supported */
      g_ptr_array_add (ifaces, it);
    }
  t->n_ifaces = ifaces->len;
  t->ifaces = (Type **) g_ptr_array_free (ifaces, FALSE);
  return TRUE;
}

/* layout_fields once: _pgo_interp_layout_data may have done it */
static gboolean
layout_fields_once (Type *t, GError **error)
{
  if (t->fields_laid_out)
    return TRUE;
  t->fields_laid_out = TRUE;
  return layout_fields (t, error);
}

/* _pgo_interp_layout_data: lays out 't''s fields only, its size and kind,
 * which is all a signature needs of a value type; its methods wait for
 * _pgo_interp_layout.  A generic value type with a method that takes a
 * further instantiation of itself (S<T>.f(S<S<T>>), which ECMA-335 allows)
 * would otherwise be laid out without end. */
gboolean
_pgo_interp_layout_data (Type *t, GError **error)
{
  Interp *I;
  Ctx saved;
  gboolean ok;

  if (t->layout_error)
    return _pgo_error_fail (error, PGO_ERROR_FAILED, "%s", t->layout_error);
  if (t->laid_out || t->fields_laid_out || !t->module)
    return t->module ? TRUE : _pgo_interp_layout (t, error);
  if (t->parent && !_pgo_interp_layout (t->parent, error))
    return FALSE;
  I = t->module->interp;
  saved = I->ctx;
  I->ctx = (Ctx) { t->args, t->n_args, NULL, 0 };
  ok = layout_fields_once (t, error);
  I->ctx = saved;
  if (!ok)
    t->layout_error = g_strdup (error && *error ? (*error)->message : "its layout failed");
  return ok;
}

gboolean
_pgo_interp_layout (Type *t, GError **error)
{
  Interp *I;
  Ctx saved;
  gboolean ok;

  if (t->laid_out && !t->layout_error)
    return TRUE;
  if (t->layout_error)
    return _pgo_error_fail (error, PGO_ERROR_FAILED, "%s", t->layout_error);
  /* marked first: laying out the base can lead back here, and must not
   * lay this type out a second time */
  t->laid_out = TRUE;
  if (t->parent && !_pgo_interp_layout (t->parent, error))
    {
      t->layout_error = g_strdup (error && *error ? (*error)->message : "its base's layout failed");
      return FALSE;
    }
  if (!t->module)
    return TRUE;
  I = t->module->interp;
  saved = I->ctx;
  I->ctx = (Ctx) { t->args, t->n_args, NULL, 0 };
  ok = layout_fields_once (t, error) && layout_methods (t, error) && _pgo_interp_class_overrides (t, error)
       && layout_interfaces (t, error);
  I->ctx = saved;
  /* a failure is final: a second attempt would lay out half-made fields
   * and methods again */
  if (!ok)
    t->layout_error = g_strdup (error && *error ? (*error)->message : "its layout failed");
  return ok;
}
