/* test_units.c - durations and counts from the command line, formatted figures. */
#include <string.h>

#include "test.h"
#include "units.h"

int main(void)
{
    uint64_t ns;
    CHECK(units_parse_duration_ns("10s", &ns) == 0 && ns == 10000000000ULL);
    CHECK(units_parse_duration_ns("10", &ns) == 0 && ns == 10000000000ULL);
    CHECK(units_parse_duration_ns("1.5s", &ns) == 0 && ns == 1500000000ULL);
    CHECK(units_parse_duration_ns("500ms", &ns) == 0 && ns == 500000000ULL);
    CHECK(units_parse_duration_ns("250us", &ns) == 0 && ns == 250000ULL);
    CHECK(units_parse_duration_ns("2m", &ns) == 0 && ns == 120000000000ULL);
    CHECK(units_parse_duration_ns("1h", &ns) == 0 && ns == 3600000000000ULL);
    CHECK(units_parse_duration_ns("", &ns) == -1);
    CHECK(units_parse_duration_ns("s", &ns) == -1);
    CHECK(units_parse_duration_ns("10x", &ns) == -1);
    CHECK(units_parse_duration_ns("-1s", &ns) == -1);

    double v;
    CHECK(units_parse_count("100", &v) == 0 && v == 100);
    CHECK(units_parse_count("2.5k", &v) == 0 && v == 2500);
    CHECK(units_parse_count("1M", &v) == 0 && v == 1e6);
    CHECK(units_parse_count("1q", &v) == -1);

    char buf[32];
    CHECK(strcmp(units_format_us(buf, sizeof(buf), 812), "812us") == 0);
    CHECK(strcmp(units_format_us(buf, sizeof(buf), 3210), "3.21ms") == 0);
    CHECK(strcmp(units_format_us(buf, sizeof(buf), 1500000), "1.50s") == 0);
    CHECK(strcmp(units_format_bytes(buf, sizeof(buf), 1536), "1.50KB") == 0);
    return test_summary("units");
}
