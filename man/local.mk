# man/local.mk: hand-written manual pages.

dist_man1_MANS += man/pgo-reconstruct.1
dist_man3_MANS += man/libpgo.3
