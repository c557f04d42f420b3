/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-reflect.c: the runtime's answers to reflection over types
 * and assemblies that CoreLib's RuntimeType, RuntimeTypeHandle and
 * RuntimeAssembly ask through FCalls and QCalls: element types, the
 * assembly of a type, manifest resources.
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * A RuntimeType object stands for one interpreter Type (I->object_types);
 * the answers come from that Type and its module's metadata.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-error-private.h"
#include "pgo-pe-private.h"

/* Returns the RuntimeType object of 't' (NULL for none) in r->p. */
static Status
ret_type_object (Interp *I, Method *m, Type *t, Slot *r)
{
  g_autoptr(GError) error = NULL;

  r->p = NULL;
  if (t && !(r->p = _pgo_interp_type_object (I, t, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* RuntimeType.GetElementType() and RuntimeTypeHandle.GetElementType(type):
 * the element type of an array or a byref, the pointee of a pointer;
 * null for any other type. */
static Status
n_type_element_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  return ret_type_object (I, m, t ? _pgo_interp_element_of (t) : NULL, r);
}

/* RuntimeTypeHandle.CanCastTo(RuntimeType type, RuntimeType target),
 * which IsAssignableFrom asks: the cast relation isinst and castclass
 * use, plus T to Nullable<T> (reflection's nullable cast).  CoreLib's
 * own IL would look the pair up by their native handles, which the
 * interpreter's RuntimeType objects do not have. */
static Status
n_type_can_cast (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *from = _pgo_interp_type_of (I, a[0].p), *to = _pgo_interp_type_of (I, a[1].p);
  Type *nullable = _pgo_interp_corelib_type (I, "System.Nullable`1", NULL);

  if (!from || !to)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a type the interpreter did not make", m->full);
  r->i = from == to || (to->def && to->def == nullable && to->n_args == 1 && to->args[0] == from)
         || _pgo_interp_is_subtype (from, to);
  return ST_RETURN;
}

/* ---- assemblies ---- */

/* The module whose metadata defines 't': an array's, a byref's or a
 * pointer's element type's, an instantiation's definition's (as a
 * TypeHandle's GetModule answers). */
static Module *
defining_module (Type *t)
{
  t = _pgo_interp_innermost (t);
  if (t && t->def)
    t = t->def;
  return t ? t->module : NULL;
}

/* The byte offset of instance field 'name' of 't', laid out, or -1. */
static gint64
field_offset (Type *t, const char *name)
{
  if (!_pgo_interp_layout (t, NULL))
    return -1;
  for (guint32 i = 0; i < t->n_fields; i++)
    if (!t->fields[i].is_static && strcmp (t->fields[i].name, name) == 0)
      return t->fields[i].offset;
  return -1;
}

/* The RuntimeAssembly object of module 'mod', made once: its native
 * handle (m_assembly, which QCallAssembly carries) is the Module. */
static gpointer
assembly_object (Interp *I, Module *mod, GError **error)
{
  Type *t;
  gint64 at;

  if (mod->assembly)
    return mod->assembly;
  if (!(t = _pgo_interp_corelib_type (I, "System.Reflection.RuntimeAssembly", error)))
    return NULL;
  if ((at = field_offset (t, "m_assembly")) < 0)
    return (void) g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "RuntimeAssembly has no m_assembly"), NULL;
  if (!(mod->assembly = _pgo_interp_alloc (I, t, 0)))
    return (void) g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "out of memory"), NULL;
  *(Module **) ((guint8 *) mod->assembly + at) = mod;
  return mod->assembly;
}

/* The RuntimeModule object of module 'mod', made once: its native
 * handle (m_pData, which QCallModule carries) is the Module, and it
 * knows its assembly. */
static gpointer
module_object (Interp *I, Module *mod, GError **error)
{
  Type *t;
  gint64 data_at, assembly_at;
  gpointer assembly;

  if (mod->reflected)
    return mod->reflected;
  if (!(assembly = assembly_object (I, mod, error))
      || !(t = _pgo_interp_corelib_type (I, "System.Reflection.RuntimeModule", error)))
    return NULL;
  if ((data_at = field_offset (t, "m_pData")) < 0 || (assembly_at = field_offset (t, "m_runtimeAssembly")) < 0)
    return (void) g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "RuntimeModule lacks m_pData or m_runtimeAssembly"),
           NULL;
  if (!(mod->reflected = _pgo_interp_alloc (I, t, 0)))
    return (void) g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "out of memory"), NULL;
  *(Module **) ((guint8 *) mod->reflected + data_at) = mod;
  *(gpointer *) ((guint8 *) mod->reflected + assembly_at) = assembly;
  return mod->reflected;
}

/* The Module a RuntimeModule object 'o' made by module_object stands
 * for, or NULL. */
static Module *
module_of (Interp *I, gpointer o)
{
  Type *t;
  gint64 at;

  if (!o || !(t = _pgo_interp_corelib_type (I, "System.Reflection.RuntimeModule", NULL))
      || OBJ_TYPE (o) != t || (at = field_offset (t, "m_pData")) < 0)
    return NULL;
  return *(Module **) ((guint8 *) o + at);
}

/* RuntimeTypeHandle.GetModuleIfExists(RuntimeType): the module that
 * defines the type (made on first request, never null). */
static Status
n_type_module (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = defining_module (_pgo_interp_type_of (I, a[0].p));
  g_autoptr(GError) error = NULL;

  if (!mod)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a type without a module", m->full);
  if (!(r->p = module_object (I, mod, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* ModuleHandle.GetModuleType(RuntimeModule): the module's global type,
 * <Module>, the first TypeDef (ECMA-335 II.22.37). */
static Status
n_module_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = module_of (I, a[0].p);
  g_autoptr(GError) error = NULL;
  Type *t;

  if (!mod)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a module the interpreter did not make", m->full);
  if (!(t = _pgo_interp_type (mod, PGO_TOKEN (PGO_TABLE_TYPEDEF, 1), &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ret_type_object (I, m, t, r);
}

/* RuntimeTypeHandle.GetAssemblyIfExists(RuntimeType): the assembly of
 * the module that defines the type (never null: the interpreter makes
 * the object on first request, where CoreCLR's slow path would). */
static Status
n_type_assembly (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = defining_module (_pgo_interp_type_of (I, a[0].p));
  g_autoptr(GError) error = NULL;

  if (!mod)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a type without a module", m->full);
  if (!(r->p = assembly_object (I, mod, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* The ManifestResource row of 'mod' named 'name' (ECMA-335 II.22.24;
 * names compare ordinally, as CoreCLR's lookup does), or 0. */
static guint32
manifest_resource (Module *mod, const char *name)
{
  guint32 n = pgo_metadata_get_n_rows (mod->md, PGO_TABLE_MANIFESTRESOURCE);

  for (guint32 row = 1; row <= n; row++)
    {
      const char *s = NULL;

      if (_pgo_metadata_lookup_string (mod->md, pgo_metadata_get_column (mod->md, PGO_COL_MANIFESTRESOURCE_NAME, row),
                                       &s, NULL)
          && strcmp (s, name) == 0)
        return row;
    }
  return 0;
}

/* The bytes of embedded resource 'row' (its Offset into the CLI header's
 * resources: a 32-bit length, then the data) into '*data' and '*len'. */
static gboolean
resource_bytes (Module *mod, guint32 row, const guint8 **data, guint32 *len, GError **error)
{
  const PgoCliHeader *cli = _pgo_image_get_cli_header (mod->image);
  PgoCursor c;

  if (!cli)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: no CLI header", mod->name);
  if (!_pgo_image_cursor_at_rva (mod->image, cli->resources_rva, &c, error)
      || !_pgo_cursor_skip (&c, pgo_metadata_get_column (mod->md, PGO_COL_MANIFESTRESOURCE_OFFSET, row), error)
      || !pgo_cursor_read_u32 (&c, len, error))
    return FALSE;
  if (pgo_cursor_remaining (&c) < *len)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: resource %u overruns the image", mod->name, row);
  *data = c.data + c.off;
  return TRUE;
}

/* RuntimeAssembly.GetResource(QCallAssembly, string name, ref uint
 * length): a pointer to the bytes of the assembly's embedded manifest
 * resource 'name' and their length, or null when it has none of that
 * name.  A QCallAssembly is two slots: the address of the reference,
 * then the native handle.  A resource kept in another file or assembly
 * is refused. */
static Status
n_assembly_resource (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = a[1].p;
  g_autofree char *name = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data = NULL;
  guint32 row, len = 0;

  r->p = NULL;
  if (!a[2].p)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a null name; the interpreter does not implement it", m->full);
  /* a metadata name holds no NUL: a name with one names no resource */
  for (gint32 i = 0; i < STR_LEN (a[2].p); i++)
    if (STR_CHARS (a[2].p)[i] == 0)
      return ST_RETURN;
  name = _pgo_interp_string_utf8 (a[2].p);
  if (!mod || !name || !(row = manifest_resource (mod, name)))
    return ST_RETURN;
  if (pgo_metadata_get_column (mod->md, PGO_COL_MANIFESTRESOURCE_IMPLEMENTATION, row) != 0)
    return _pgo_interp_fatal (I, NULL, 0, "%s: resource %s of %s lives in another file; the interpreter does not "
                              "implement it", m->full, name, mod->name);
  if (!resource_bytes (mod, row, &data, &len, &error))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  memcpy (a[3].p, &len, sizeof len);
  r->p = (gpointer) data;
  return ST_RETURN;
}

/* RuntimeAssembly.GetManifestModule(assembly): its one module's
 * RuntimeModule object (an assembly object's handle is its Module). */
static Status
n_assembly_manifest_module (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_corelib_type (I, "System.Reflection.RuntimeAssembly", NULL);
  g_autoptr(GError) error = NULL;
  gint64 at;
  Module *mod;

  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.NullReferenceException",
                                  "Object reference not set to an instance of an object.");
  if (!t || OBJ_TYPE (a[0].p) != t || (at = field_offset (t, "m_assembly")) < 0
      || !(mod = *(Module **) ((guint8 *) a[0].p + at)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: an assembly the interpreter did not make", m->full);
  if (!(r->p = module_object (I, mod, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* ---- an assembly's identity (its Assembly row, ECMA-335 II.22.2) ---- */

/* The Module of a QCallAssembly (a[0] the reference's address, a[1]
 * the native handle), refusing one without an Assembly row. */
static Module *
qcall_assembly (Interp *I, Method *m, Slot *a)
{
  Module *mod = a[1].p;

  if (!mod || pgo_metadata_get_n_rows (mod->md, PGO_TABLE_ASSEMBLY) < 1)
    return _pgo_interp_refuse (I, m, "an assembly the interpreter did not make"), NULL;
  return mod;
}

/* RuntimeAssembly.GetPublicKey(assembly, ref result): its PublicKey
 * blob as a new byte[] (empty for none). */
static Status
n_assembly_public_key (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Module *mod = qcall_assembly (I, m, a);
  Type *u1 = _pgo_interp_corelib_type (I, "System.Byte", NULL);
  const guint8 *blob = NULL;
  gsize len = 0;
  gpointer arr;

  if (!mod)
    return ST_FATAL;
  if (!_pgo_metadata_lookup_blob (mod->md, pgo_metadata_get_column (mod->md, PGO_COL_ASSEMBLY_PUBLIC_KEY, 1),
                                  &blob, &len, NULL))
    len = 0;
  if (!u1 || !(arr = _pgo_interp_new_array (I, _pgo_interp_array_type (I, u1), (gint64) len)))
    return _pgo_interp_out_of_memory (I);
  if (len)
    memcpy (ARR_DATA (arr), blob, len);
  *(gpointer *) a[2].p = arr;
  return ST_RETURN;
}

/* An integer column of the Assembly row of the QCall's assembly, as the
 * result. */
static Status
assembly_integer (Interp *I, Method *m, Slot *a, Slot *r, PgoColumn col)
{
  Module *mod = qcall_assembly (I, m, a);

  if (!mod)
    return ST_FATAL;
  r->i = (gint32) pgo_metadata_get_column (mod->md, col, 1);
  return ST_RETURN;
}

/* RuntimeAssembly.GetFlags(assembly): its AssemblyFlags. */
static Status
n_assembly_flags (Interp *I, Method *m, Slot *a, Slot *r)
{
  return assembly_integer (I, m, a, r, PGO_COL_ASSEMBLY_FLAGS);
}

/* RuntimeAssembly.GetHashAlgorithm(assembly): its HashAlgId. */
static Status
n_assembly_hash_algorithm (Interp *I, Method *m, Slot *a, Slot *r)
{
  return assembly_integer (I, m, a, r, PGO_COL_ASSEMBLY_HASH_ALG_ID);
}

/* RuntimeAssembly.GetVersion(assembly, out major, out minor, out build,
 * out revision): the four parts of its version. */
static Status
n_assembly_version (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  static const PgoColumn cols[] = {
    PGO_COL_ASSEMBLY_MAJOR_VERSION, PGO_COL_ASSEMBLY_MINOR_VERSION,
    PGO_COL_ASSEMBLY_BUILD_NUMBER, PGO_COL_ASSEMBLY_REVISION_NUMBER,
  };
  Module *mod = qcall_assembly (I, m, a);

  if (!mod)
    return ST_FATAL;
  for (guint i = 0; i < G_N_ELEMENTS (cols); i++)
    {
      gint32 v = (gint32) pgo_metadata_get_column (mod->md, cols[i], 1);
      memcpy (a[2 + i].p, &v, sizeof v);
    }
  return ST_RETURN;
}

/* A new string of 'text' (owned) to the StringHandleOnStack a[2]; NULL
 * refuses the call (a name the metadata does not give). */
static Status
ret_string_on_stack (Interp *I, Method *m, Slot *a, char *text)
{
  g_autofree char *owned = text;
  gpointer o;

  if (!text)
    return _pgo_interp_refuse (I, m, "a name the assembly's metadata does not give");
  if (!(o = _pgo_interp_new_string_utf8 (I, text)))
    return _pgo_interp_out_of_memory (I);
  *(gpointer *) a[2].p = o;
  return ST_RETURN;
}

/* A string column of the Assembly row of the QCall's assembly, to the
 * StringHandleOnStack a[2]. */
static Status
assembly_string (Interp *I, Method *m, Slot *a, PgoColumn col)
{
  Module *mod = qcall_assembly (I, m, a);
  const char *s = NULL;

  if (!mod)
    return ST_FATAL;
  return ret_string_on_stack (I, m, a, _pgo_metadata_lookup_string (mod->md, pgo_metadata_get_column (mod->md, col, 1),
                                                                    &s, NULL) ? g_strdup (s) : NULL);
}

/* RuntimeAssembly.GetSimpleName(assembly, ref result): its Name. */
static Status
n_assembly_simple_name (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return assembly_string (I, m, a, PGO_COL_ASSEMBLY_NAME);
}

/* RuntimeAssembly.GetLocale(assembly, ref result): its Culture ("" for
 * a neutral assembly), which AssemblyName's CultureName reads. */
static Status
n_assembly_locale (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return assembly_string (I, m, a, PGO_COL_ASSEMBLY_CULTURE);
}

/* RuntimeAssembly.GetCodeBase(assembly, ref result): the file it was
 * loaded from, as a file: URI. */
static Status
n_assembly_code_base (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Module *mod = qcall_assembly (I, m, a);
  g_autofree char *abs = NULL;

  if (!mod)
    return ST_FATAL;
  abs = g_canonicalize_filename (mod->path, NULL);
  return ret_string_on_stack (I, m, a, g_filename_to_uri (abs, NULL, NULL));
}

/* RuntimeAssembly.GetFullName(assembly, ref result): its display name
 * ("Name, Version=..., Culture=..., PublicKeyToken=..."). */
static Status
n_assembly_full_name (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Module *mod = qcall_assembly (I, m, a);
  PgoAssemblyName an = { 0 };
  char *s;

  if (!mod)
    return ST_FATAL;
  if (!pgo_metadata_lookup_assembly_name (mod->md, &an, NULL))
    return ret_string_on_stack (I, m, a, NULL);
  s = pgo_assembly_name_to_string (&an);
  pgo_assembly_name_clear (&an);
  return ret_string_on_stack (I, m, a, s);
}

/* RuntimeModule.GetFullyQualifiedName(module, ref result): the file it
 * was loaded from (Module.Name is its last part). */
static Status
n_module_file_name (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Module *mod = _pgo_interp_scope_module (I, a[1].p);

  if (!mod)
    return _pgo_interp_refuse (I, m, "a module the interpreter did not make");
  return ret_string_on_stack (I, m, a, g_canonicalize_filename (mod->path, NULL));
}

/* The UTF-16 string at 'p' (NUL-terminated, at most 1024 units) as
 * UTF-8; NULL for a null pointer. */
static char *
wide_utf8 (const gunichar2 *p)
{
  glong n = 0;

  if (!p)
    return NULL;
  while (n < 1024 && p[n])
    n++;
  return g_utf16_to_utf8 (p, n, NULL, NULL, NULL);
}

/* A pointer field 'name' of the NativeAssemblyNameParts at 'parts'. */
static gpointer
name_part (Type *t, gconstpointer parts, const char *name)
{
  Field *f = _pgo_interp_instance_field (t, name);
  gpointer p = NULL;

  if (f)
    memcpy (&p, (const guint8 *) parts + f->offset, sizeof p);
  return p;
}

/* RuntimeAssembly.InternalLoad(parts, requestingAssembly, stackMark,
 * throwOnFileNotFound, loadContext, ref result): only the load of a
 * satellite (a name with a culture) is answered: the app's binder would
 * probe <app dir>/<culture>/<name>.dll, and where that file is absent
 * the result is null (or FileNotFoundException when asked to throw).
 * Loading a satellite that is there, or any other assembly, is refused. */
static Status
n_assembly_internal_load (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Type *t = _pgo_interp_corelib_type (I, "System.Reflection.NativeAssemblyNameParts", NULL);
  g_autofree char *name = NULL, *culture = NULL, *dir = NULL, *file = NULL, *path = NULL;

  if (!t || !a[0].p || !_pgo_interp_layout (t, NULL))
    return _pgo_interp_refuse (I, m, "an assembly name the interpreter cannot read");
  name = wide_utf8 (name_part (t, a[0].p, "_pName"));
  culture = wide_utf8 (name_part (t, a[0].p, "_pCultureName"));
  if (!name || !culture || !*culture || strchr (culture, '/') || strchr (name, '/'))
    return _pgo_interp_refuse (I, m, "the load of an assembly other than a satellite");
  dir = g_path_get_dirname (I->app->path);
  file = g_strconcat (name, ".dll", NULL);
  path = g_build_filename (dir, culture, file, NULL);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return _pgo_interp_refuse (I, m, "the load of a satellite assembly");
  if (a[3].i)
    return _pgo_interp_throw_new (I, "System.IO.FileNotFoundException", "Could not load file or assembly.");
  *(gpointer *) a[5].p = NULL;
  return ST_RETURN;
}

static const NativeEntry reflect_natives[] = {
  { "System.RuntimeType::GetElementType()", n_type_element_type },
  { "System.RuntimeTypeHandle::GetElementType(System.RuntimeType)", n_type_element_type },
  { "System.RuntimeTypeHandle::CanCastTo(System.RuntimeType,System.RuntimeType)", n_type_can_cast },
  { "System.RuntimeTypeHandle::GetAssemblyIfExists(System.RuntimeType)", n_type_assembly },
  { "System.RuntimeTypeHandle::GetModuleIfExists(System.RuntimeType)", n_type_module },
  { "System.ModuleHandle::GetModuleType(System.Reflection.RuntimeModule)", n_module_type },
  { "System.Reflection.RuntimeAssembly::GetManifestModule(System.Reflection.RuntimeAssembly)",
    n_assembly_manifest_module },
  { "System.Reflection.RuntimeAssembly::GetResource(System.Runtime.CompilerServices.QCallAssembly,string,uint32&)",
    n_assembly_resource },
  { "System.Reflection.RuntimeAssembly::GetPublicKey(System.Runtime.CompilerServices.QCallAssembly,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack)", n_assembly_public_key },
  { "System.Reflection.RuntimeAssembly::GetFlags(System.Runtime.CompilerServices.QCallAssembly)", n_assembly_flags },
  { "System.Reflection.RuntimeAssembly::GetHashAlgorithm(System.Runtime.CompilerServices.QCallAssembly)",
    n_assembly_hash_algorithm },
  { "System.Reflection.RuntimeAssembly::GetVersion(System.Runtime.CompilerServices.QCallAssembly,int32&,int32&,"
    "int32&,int32&)", n_assembly_version },
  { "System.Reflection.RuntimeAssembly::GetSimpleName(System.Runtime.CompilerServices.QCallAssembly,"
    "System.Runtime.CompilerServices.StringHandleOnStack)", n_assembly_simple_name },
  { "System.Reflection.RuntimeAssembly::<GetCodeBase>g____PInvoke|14_0(System.Runtime.CompilerServices.QCallAssembly,"
    "System.Runtime.CompilerServices.StringHandleOnStack)", n_assembly_code_base },
  { "System.Reflection.RuntimeAssembly::GetFullName(System.Runtime.CompilerServices.QCallAssembly,"
    "System.Runtime.CompilerServices.StringHandleOnStack)", n_assembly_full_name },
  { "System.Reflection.RuntimeModule::GetFullyQualifiedName(System.Runtime.CompilerServices.QCallModule,"
    "System.Runtime.CompilerServices.StringHandleOnStack)", n_module_file_name },
  { "System.Reflection.RuntimeAssembly::GetLocale(System.Runtime.CompilerServices.QCallAssembly,"
    "System.Runtime.CompilerServices.StringHandleOnStack)", n_assembly_locale },
  { "System.Reflection.RuntimeAssembly::<InternalLoad>g____PInvoke|48_0(System.Reflection.NativeAssemblyNameParts*,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack,System.Runtime.CompilerServices.StackCrawlMarkHandle,int32,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack,System.Runtime.CompilerServices.ObjectHandleOnStack)",
    n_assembly_internal_load },
};

/* _pgo_interp_reflect_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_reflect_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, reflect_natives, G_N_ELEMENTS (reflect_natives));
}
