# man/local.mk: hand-written manual pages: commands (1), the C API (3),
# the file formats (5) and the JIT model and our inference (7).  Code cites
# their sections as  SPEC: page(N) "Section"  (tests/structure/man-pages.sh).

dist_man1_MANS += man/pgo-reconstruct.1 man/pgo-interp.1
dist_man3_MANS += man/libpgo.3
dist_man5_MANS += man/nettrace.5 man/pgo-text.5 man/mibc.5 man/pgo-assembly.5 man/pgo-store.5 man/pgo-xml.5 man/pgo-pdb.5
dist_man7_MANS += man/pgo-jit.7 man/pgo-inference.7
