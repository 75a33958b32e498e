/*
 * units.c - see units.h.
 */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The non-negative finite number s starts with, and in *end what follows it; -1 when there is none. */
static int units_number(const char *s, double *v, char **end)
{
    if (!s || !*s)
        return -1;
    *v = strtod(s, end);
    return *end == s || !(*v >= 0) || isinf(*v) ? -1 : 0;
}

int units_parse_duration_ns(const char *s, uint64_t *ns)
{
    char *end;
    double v;
    if (units_number(s, &v, &end) < 0)
        return -1;
    double scale;
    if (*end == '\0' || strcmp(end, "s") == 0)
        scale = 1e9;
    else if (strcmp(end, "ms") == 0)
        scale = 1e6;
    else if (strcmp(end, "us") == 0)
        scale = 1e3;
    else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
        scale = 60e9;
    else if (strcmp(end, "h") == 0)
        scale = 3600e9;
    else
        return -1;
    double total = v * scale;
    if (total > 1e18)
        return -1;
    *ns = (uint64_t)llround(total);
    return 0;
}

int units_parse_count(const char *s, double *out)
{
    char *end;
    double v;
    if (units_number(s, &v, &end) < 0)
        return -1;
    if (*end == 'k' || *end == 'K') {
        v *= 1e3;
        end++;
    } else if (*end == 'M') {
        v *= 1e6;
        end++;
    } else if (*end == 'G') {
        v *= 1e9;
        end++;
    }
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

char *units_format_us(char *buf, size_t size, double us)
{
    if (us < 1000)
        snprintf(buf, size, "%.0fus", us);
    else if (us < 1e6)
        snprintf(buf, size, "%.2fms", us / 1e3);
    else
        snprintf(buf, size, "%.2fs", us / 1e6);
    return buf;
}

char *units_format_bytes(char *buf, size_t size, double bytes)
{
    if (bytes < 1024)
        snprintf(buf, size, "%.0fB", bytes);
    else if (bytes < 1024.0 * 1024)
        snprintf(buf, size, "%.2fKB", bytes / 1024);
    else if (bytes < 1024.0 * 1024 * 1024)
        snprintf(buf, size, "%.2fMB", bytes / (1024.0 * 1024));
    else
        snprintf(buf, size, "%.2fGB", bytes / (1024.0 * 1024 * 1024));
    return buf;
}

int units_parse_bytes(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return -1;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return -1;
    unsigned long long scale = 1;
    if (*end == 'k' || *end == 'K')
        scale = 1024ULL;
    else if (*end == 'm' || *end == 'M')
        scale = 1024ULL * 1024ULL;
    else if (*end == 'g' || *end == 'G')
        scale = 1024ULL * 1024ULL * 1024ULL;
    if (scale > 1)
        end++;
    if (*end != '\0' || v > UINT64_MAX / scale)
        return -1;
    *out = (uint64_t)(v * scale);
    return 0;
}
