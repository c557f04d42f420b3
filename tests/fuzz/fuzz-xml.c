/* SPDX-License-Identifier: MIT
 *
 * fuzz-xml.c: libFuzzer target for the XML profile import: parsing,
 * schema validation and the conversion to method profiles, then the
 * export of what was read.  SPEC: pgo-xml(5) "Document", "Validation"
 *
 * Input: arbitrary bytes, read as an XML profile document. Output:
 * nothing; crashes, sanitizer reports and leaks are the findings.  Built
 * and run by "make fuzz" (tests/fuzz/run.sh).
 */
#include "config.h"

#include <stdint.h>

#include "pgo-xml.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Whether the last input was read (replay.c checks the good corpus). */
int pgo_fuzz_accepted;

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GBytes *bytes = g_bytes_new_static (data, size);
  GPtrArray *profiles = pgo_profiles_from_xml (bytes, "fuzz.xml", NULL);

  pgo_fuzz_accepted = profiles != NULL;
  if (profiles)
    {
      GBytes *again = pgo_profiles_to_xml (profiles, NULL);
      if (again)
        g_bytes_unref (again);
      g_ptr_array_unref (profiles);
    }
  g_bytes_unref (bytes);
  return 0;
}
