/*
 * json.c - the streaming JSON writer, see json.h.
 */
#include "json.h"

#include <math.h>

void json_init(json_t *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->members[0] = 0;
}

static void json_escaped(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* The comma before a value (not the first at its depth) and its key. */
static void json_member(json_t *j, const char *key)
{
    if (j->members[j->depth]++)
        fputc(',', j->out);
    if (key) {
        json_escaped(j->out, key);
        fputc(':', j->out);
    }
}

static void json_open(json_t *j, const char *key, char bracket)
{
    json_member(j, key);
    fputc(bracket, j->out);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        j->depth++;
    j->members[j->depth] = 0;
}

static void json_close(json_t *j, char bracket)
{
    fputc(bracket, j->out);
    if (j->depth > 0)
        j->depth--;
}

void json_open_object(json_t *j, const char *key)
{
    json_open(j, key, '{');
}

void json_close_object(json_t *j)
{
    json_close(j, '}');
}

void json_open_array(json_t *j, const char *key)
{
    json_open(j, key, '[');
}

void json_close_array(json_t *j)
{
    json_close(j, ']');
}

void json_uint(json_t *j, const char *key, uint64_t value)
{
    json_member(j, key);
    fprintf(j->out, "%llu", (unsigned long long)value);
}

void json_real(json_t *j, const char *key, double value, int decimals)
{
    json_member(j, key);
    if (isfinite(value))
        fprintf(j->out, "%.*f", decimals, value);
    else
        fputs("null", j->out);
}

void json_string(json_t *j, const char *key, const char *value)
{
    json_member(j, key);
    json_escaped(j->out, value);
}

void json_bool(json_t *j, const char *key, int value)
{
    json_member(j, key);
    fputs(value ? "true" : "false", j->out);
}

void json_null(json_t *j, const char *key)
{
    json_member(j, key);
    fputs("null", j->out);
}
