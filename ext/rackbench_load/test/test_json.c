/*
 * test_json.c - the JSON writer: commas, nesting, escapes, numbers, and the
 * shared figures (histogram, window requests) written through it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "json.h"
#include "test.h"

/* What the writer put in a memory stream, written by fill(j). */
static char *written(void (*fill)(json_t *j))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    json_t j;
    json_init(&j, out);
    fill(&j);
    fclose(out);
    return buf;
}

static void fill_nested(json_t *j)
{
    json_open_object(j, NULL);
    json_uint(j, "requests", 120);
    json_real(j, "rate", 2.5, 3);
    json_open_array(j, "args");
    json_string(j, NULL, "-c");
    json_string(j, NULL, "say \"hi\"\\\n\t\x01");
    json_close_array(j);
    json_open_object(j, "empty");
    json_close_object(j);
    json_bool(j, "yes", 1);
    json_null(j, "none");
    json_real(j, "nan", 0.0 / 0.0, 2);
    json_close_object(j);
}

static void fill_figures(json_t *j)
{
    hist_t *h = hist_new(HIST_LATENCY_HIGHEST_US, HIST_LATENCY_DIGITS);
    hist_record(h, 100);
    hist_record(h, 100);
    hist_record(h, 2000);
    censor_t c;
    censor_init(&c);
    censor_issue(&c);
    censor_issue(&c);
    censor_complete(&c, 100);
    censor_record(&c, CENSOR_IN_FLIGHT, 5000);
    json_open_object(j, NULL);
    figures_json_histogram(j, "histogram", h);
    figures_json_window_requests(j, &c);
    json_close_object(j);
    hist_free(h);
    censor_free(&c);
}

int main(void)
{
    char *s = written(fill_nested);
    CHECK(strcmp(s, "{\"requests\":120,\"rate\":2.500,\"args\":[\"-c\",\"say \\\"hi\\\"\\\\\\n\\t\\u0001\"],"
                    "\"empty\":{},\"yes\":true,\"none\":null,\"nan\":null}") == 0);
    free(s);

    s = written(fill_figures);
    CHECK(strstr(s, "{\"histogram\":[[100,2],[2000,1]],\"window_requests\":{\"total\":2,\"completed\":1,\"failed\":0,"
                    "\"censored\":1,\"timeout\":0,\"in_flight\":1,\"unsent\":0,") == s);
    CHECK(strstr(s, "\"latency_all_us\":{\"p50\":100,") != NULL);
    CHECK(strstr(s, "\"latency_all_censored\":{\"p50\":false,\"p75\":true,") != NULL);
    CHECK(s[strlen(s) - 1] == '}');
    free(s);
    return test_summary("json");
}
