/*
 * warnings.h - the advice a finished run calls for, as data: each warning
 * has a code, its figures (name and number) and a sentence for people.
 *
 *     warnings_t w;
 *     warnings_collect(cfg, result, &w);
 *     w.list[0].code       -> "shortfall"
 *     w.list[0].fields[0]  -> {"served", 23}
 *     w.list[0].text       -> "open loop served 23 of the 238 requests due ..."
 *
 * The JSON carries both: "warnings" [text] as before, and "warning_codes"
 * [{"code":"shortfall","served":23,"due":238,...}], in the same order, so a
 * reader never parses the sentence. The codes and their fields are listed in
 * README.md ("Warnings").
 */
#ifndef RACKBENCH_WARNINGS_H
#define RACKBENCH_WARNINGS_H

#include "config.h"
#include "worker.h"

#define WARNINGS_MAX 20
#define WARNINGS_TEXT_BYTES 320
#define WARNINGS_MAX_FIELDS 8

typedef struct warning_field {
    const char *name;
    double value;
    int decimals;           /* 0: a whole number */
} warning_field_t;

typedef struct warning {
    const char *code;
    char text[WARNINGS_TEXT_BYTES];
    int field_count;
    warning_field_t fields[WARNINGS_MAX_FIELDS];
} warning_t;

typedef struct warnings {
    int count;
    warning_t list[WARNINGS_MAX];
} warnings_t;

/* warnings_collect - fill *w with the warnings the run calls for (none: count 0). */
void warnings_collect(const config_t *cfg, const run_result_t *r, warnings_t *w);

#endif
