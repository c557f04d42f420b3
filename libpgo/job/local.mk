# libpgo/job/local.mk: the main job as library calls (traces read in
# passes into a profile set; a .mibc from traces).  The one part of
# libpgo above the stages: it sees their public headers (AM_CPPFLAGS),
# and no stage includes it.

noinst_LTLIBRARIES += libpgo/job/libpgo-job.la
libpgo_stage_libs += libpgo/job/libpgo-job.la

libpgo_job_libpgo_job_la_CPPFLAGS = $(AM_CPPFLAGS)
libpgo_job_libpgo_job_la_SOURCES = libpgo/job/pgo-trace-stream.c libpgo/job/pgo-inputs.c \
	libpgo/job/pgo-compare-files.c \
	libpgo/job/pgo-evaluate-files.c libpgo/job/pgo-trace-filter.c libpgo/job/pgo-job-private.h
libpgo_include_HEADERS += libpgo/job/pgo-trace-stream.h libpgo/job/pgo-inputs.h \
	libpgo/job/pgo-trace-filter.h \
	libpgo/job/pgo-jobs.h
EXTRA_DIST += libpgo/job/README.md

