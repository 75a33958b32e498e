/*
 * units.h - reading and writing durations, rates and sizes.
 */
#ifndef RACKBENCH_UNITS_H
#define RACKBENCH_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define UNITS_NS_PER_US 1000ULL
#define UNITS_NS_PER_MS 1000000ULL
#define UNITS_NS_PER_S 1000000000ULL

/*
 * units_parse_duration_ns - "10s", "500ms", "250us", "2m", "1h", "1.5s";
 * a bare number means seconds. Returns 0 and sets *ns, or -1 when invalid.
 */
int units_parse_duration_ns(const char *s, uint64_t *ns);

/*
 * units_parse_count - a non-negative integer with an optional k/M/G
 * suffix (powers of 1000), fractional allowed for rates ("2.5k").
 * Returns 0 and sets *out, or -1 when invalid.
 */
int units_parse_count(const char *s, double *out);

/*
 * units_parse_bytes - a size in bytes: "1048576", "64k", "1m", "2G" (k, m,
 * g: powers of 1024, either case). Returns 0 and sets *out, or -1 when invalid.
 */
int units_parse_bytes(const char *s, uint64_t *out);

/* units_format_us - a latency in us as "812us", "3.21ms", "1.50s" into buf. */
char *units_format_us(char *buf, size_t size, double us);

/* units_format_bytes - "512B", "3.20KB", "1.50MB", "2.00GB" (powers of 1024). */
char *units_format_bytes(char *buf, size_t size, double bytes);

#endif
