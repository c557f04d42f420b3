/* SPDX-License-Identifier: MIT
 *
 * fuzz-mibc.c: libFuzzer target for the .mibc reader: the zip container,
 * the image, the MibcGroup method bodies and their instrumentation data.
 * SPEC: mibc(5) "FILE FORMS", "PROFILE LAYOUT", "INSTRUMENTATION DATA"
 *
 * Input: arbitrary bytes, read as a .mibc (zipped or plain). Output:
 * nothing; crashes, sanitizer reports and leaks are the findings.  Built
 * and run by "make fuzz" (tests/fuzz/run.sh).
 */
#include "config.h"

#include <stdint.h>

#include "pgo-mibc.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Whether the last input was read (replay.c checks the good corpus). */
int pgo_fuzz_accepted;

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GBytes *bytes = g_bytes_new_static (data, size);
  GPtrArray *profiles = pgo_mibc_parse (bytes, "fuzz.mibc", NULL, NULL, NULL);

  pgo_fuzz_accepted = profiles != NULL;
  if (profiles)
    g_ptr_array_unref (profiles);
  g_bytes_unref (bytes);
  return 0;
}
