# mibc-writer/local.mk: schema -> .mibc.  The stage has no sources yet; its
# convenience library joins libpgo_stage_libs, compiled with
# $(hub_cppflags) -I$(top_srcdir)/mibc-writer, when it has.

EXTRA_DIST += mibc-writer/README.md
