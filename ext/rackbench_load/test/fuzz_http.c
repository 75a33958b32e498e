/*
 * fuzz_http.c - the response parser's fuzz target (libFuzzer entry point;
 * fuzz_driver.c supplies a main() where libFuzzer is not available).
 *
 * The first input byte chooses how the rest is cut into pieces and whether
 * the request was HEAD; the rest is fed as a stream of responses on one
 * connection, re-initialising after each one, then closed. Invariants
 * checked: consumed never exceeds what was fed, an error always carries a
 * reason, and a finished response always has a status from 100 to 599.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t mode = data[0];
    size_t step = (size_t)(mode & 0x1f) + 1;
    if (mode & 0x20)
        step = size; /* all at once */
    int head = (mode & 0x40) != 0;
    const char *buf = (const char *)data + 1;
    size_t len = size - 1;

    http_parser_t p;
    http_parser_setup(&p);
    http_parser_init(&p, head);
    if (mode & 0x80)
        http_parser_expect_body(&p, "ok", 2);
    size_t pos = 0;
    int responses = 0;
    while (pos < len) {
        size_t n = step < len - pos ? step : len - pos;
        size_t used = 0;
        int rc = http_parser_feed(&p, buf + pos, n, &used);
        if (used > n)
            abort();
        pos += used;
        if (rc == HTTP_ERROR) {
            if (!p.error)
                abort();
            break;
        }
        if (rc == HTTP_DONE) {
            if (p.status < 100 || p.status > 599)
                abort();
            if (++responses > 1000)
                break;
            http_parser_init(&p, head);
        } else if (used != n) {
            abort(); /* NEED_MORE must consume everything */
        }
    }
    int rc = http_parser_eof(&p);
    if (rc == HTTP_ERROR && !p.error)
        abort();
    http_parser_free(&p);
    return 0;
}
