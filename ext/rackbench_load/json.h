/*
 * json.h - a small streaming JSON writer: objects, arrays and values, the
 * commas between members kept for the caller.
 *
 *     json_t j;
 *     json_init(&j, stdout);
 *     json_open_object(&j, NULL);
 *     json_uint(&j, "requests", 120);
 *     json_open_array(&j, "args");
 *     json_string(&j, NULL, "-c");
 *     json_close_array(&j);
 *     json_close_object(&j);          -> {"requests":120,"args":["-c"]}
 *
 * Every value function takes the member's key (NULL for an array element or
 * the top value). Reals are written with a fixed number of decimals, so a
 * figure's precision is chosen where it is written. The writer knows no
 * figure of the engine: the units that own a figure (figures.c, mix.c,
 * output.c) write it with these calls.
 */
#ifndef RACKBENCH_JSON_H
#define RACKBENCH_JSON_H

#include <stdint.h>
#include <stdio.h>

/* Deepest nesting of objects and arrays the writer tracks. */
#define JSON_MAX_DEPTH 16

typedef struct json {
    FILE *out;
    int depth;
    int members[JSON_MAX_DEPTH]; /* values written so far at each depth */
} json_t;

/* json_init - a writer on out, at the top level. */
void json_init(json_t *j, FILE *out);

/* json_open_object / json_open_array - start a value; json_close_* ends the innermost. */
void json_open_object(json_t *j, const char *key);
void json_close_object(json_t *j);
void json_open_array(json_t *j, const char *key);
void json_close_array(json_t *j);

/* json_uint - a whole number. */
void json_uint(json_t *j, const char *key, uint64_t value);

/* json_real - a number with `decimals` digits after the point (non-finite values are written as null). */
void json_real(json_t *j, const char *key, double value, int decimals);

/* json_string - a string, escaped (quotes, backslashes, control characters). */
void json_string(json_t *j, const char *key, const char *value);

/* json_bool / json_null - true or false, and null. */
void json_bool(json_t *j, const char *key, int value);
void json_null(json_t *j, const char *key);

#endif
