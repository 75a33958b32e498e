/*
 * test_http.c - the response parser, fed whole and one byte at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "test.h"

typedef struct outcome {
    int rc;         /* HTTP_DONE, HTTP_ERROR, or HTTP_NEED_MORE */
    int status;
    int keep_alive;
    size_t consumed;
    int expect_found;
} outcome_t;

/* Feed `s` in pieces of `step` bytes (0: all at once); `eof` closes after. */
static outcome_t parse(const char *s, size_t step, int eof, int head, const char *expect)
{
    http_parser_t p;
    http_parser_setup(&p);
    http_parser_init(&p, head);
    if (expect)
        http_parser_expect_body(&p, expect, strlen(expect));
    outcome_t o = {HTTP_NEED_MORE, 0, 0, 0, 0};
    size_t len = strlen(s), pos = 0;
    while (pos < len) {
        size_t n = step && step < len - pos ? step : len - pos;
        size_t used = 0;
        int rc = http_parser_feed(&p, s + pos, n, &used);
        pos += used;
        if (rc != HTTP_NEED_MORE) {
            o.rc = rc;
            break;
        }
    }
    if (o.rc == HTTP_NEED_MORE && eof)
        o.rc = http_parser_eof(&p);
    o.status = p.status;
    o.keep_alive = p.keep_alive;
    o.consumed = pos;
    o.expect_found = p.expect_found;
    http_parser_free(&p);
    return o;
}

/* The same outcome whatever the piece size. */
static outcome_t parse_all_ways(const char *s, int eof, int head, const char *expect)
{
    outcome_t whole = parse(s, 0, eof, head, expect);
    for (size_t step = 1; step <= 7; step++) {
        outcome_t o = parse(s, step, eof, head, expect);
        CHECK(o.rc == whole.rc);
        CHECK(o.status == whole.status);
        CHECK(o.keep_alive == whole.keep_alive);
        CHECK_EQ_U(o.consumed, whole.consumed);
        CHECK(o.expect_found == whole.expect_found);
    }
    return whole;
}

static void test_content_length_keep_alive(void)
{
    const char *r = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello";
    outcome_t o = parse_all_ways(r, 0, 0, "ell");
    CHECK(o.rc == HTTP_DONE);
    CHECK(o.status == 200);
    CHECK(o.keep_alive);
    CHECK_EQ_U(o.consumed, strlen(r));
    CHECK(o.expect_found);
    o = parse_all_ways(r, 0, 0, "world");
    CHECK(!o.expect_found);
}

static void test_response_ends_where_the_next_begins(void)
{
    const char *r = "HTTP/1.1 404 Not Found\r\ncontent-length: 2\r\n\r\nnoHTTP/1.1 200 OK\r\n";
    outcome_t o = parse(r, 0, 0, 0, NULL);
    CHECK(o.rc == HTTP_DONE);
    CHECK(o.status == 404);
    CHECK_EQ_U(o.consumed, strlen(r) - strlen("HTTP/1.1 200 OK\r\n"));
}

static void test_connection_close_and_http10(void)
{
    outcome_t o = parse_all_ways("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", 0, 0, NULL);
    CHECK(o.rc == HTTP_DONE && !o.keep_alive);
    o = parse_all_ways("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", 0, 0, NULL);
    CHECK(o.rc == HTTP_DONE && !o.keep_alive);
    o = parse_all_ways("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\nx", 0, 0, NULL);
    CHECK(o.rc == HTTP_DONE && o.keep_alive);
    o = parse_all_ways("HTTP/1.1 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 1\r\n\r\nx", 0, 0, NULL);
    CHECK(o.rc == HTTP_DONE && !o.keep_alive);
}

static void test_chunked(void)
{
    const char *r = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n";
    outcome_t o = parse_all_ways(r, 0, 0, "o, w");
    CHECK(o.rc == HTTP_DONE);
    CHECK(o.keep_alive);
    CHECK(o.expect_found);
    CHECK_EQ_U(o.consumed, strlen(r));
    o = parse_all_ways("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n", 0, 0,
                       NULL);
    CHECK(o.rc == HTTP_DONE);
    o = parse_all_ways("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 0, 0, NULL);
    CHECK(o.rc == HTTP_ERROR);
    o = parse_all_ways("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", 0, 0, NULL);
    CHECK(o.rc == HTTP_ERROR);
}

static void test_body_until_close(void)
{
    const char *r = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome body";
    outcome_t o = parse_all_ways(r, 0, 0, NULL);
    CHECK(o.rc == HTTP_NEED_MORE);
    o = parse_all_ways(r, 1, 0, "body");
    CHECK(o.rc == HTTP_DONE && !o.keep_alive && o.expect_found);
}

static void test_no_body_responses(void)
{
    outcome_t o = parse_all_ways("HTTP/1.1 204 No Content\r\n\r\n", 0, 0, NULL);
    CHECK(o.rc == HTTP_DONE && o.status == 204 && o.keep_alive);
    o = parse_all_ways("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", 0, 0, NULL);
    CHECK(o.rc == HTTP_DONE);
    o = parse_all_ways("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", 0, 1, NULL);
    CHECK(o.rc == HTTP_DONE && o.status == 200);
}

static void test_interim_100_continue(void)
{
    const char *r = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok";
    outcome_t o = parse_all_ways(r, 0, 0, NULL);
    CHECK(o.rc == HTTP_DONE && o.status == 201);
    CHECK_EQ_U(o.consumed, strlen(r));
}

static void test_truncated_responses_are_errors_at_eof(void)
{
    outcome_t o = parse_all_ways("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 1, 0, NULL);
    CHECK(o.rc == HTTP_ERROR);
    o = parse_all_ways("HTTP/1.1 200 OK\r\nContent-Le", 1, 0, NULL);
    CHECK(o.rc == HTTP_ERROR);
    o = parse_all_ways("", 1, 0, NULL);
    CHECK(o.rc == HTTP_NEED_MORE); /* nothing arrived: the caller decides */
}

static void test_garbage_is_malformed(void)
{
    const char *bad[] = {
        "garbage\r\n\r\n",
        "HTTP/2 200 OK\r\n\r\n",
        "HTTP/1.1 20 OK\r\n\r\n",
        "HTTP/1.1 200OK\r\n\r\n",
        "HTTP/1.1 999 Nope\r\n\r\n",
        "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
        "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\n folded: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        outcome_t o = parse_all_ways(bad[i], 0, 0, NULL);
        CHECK(o.rc == HTTP_ERROR);
        if (o.rc != HTTP_ERROR)
            fprintf(stderr, "  accepted: %s\n", bad[i]);
    }
}

static void test_oversized_headers_are_malformed(void)
{
    size_t n = HTTP_LINE_MAX_BYTES + 100;
    char *r = malloc(n + 64);
    strcpy(r, "HTTP/1.1 200 OK\r\nX: ");
    memset(r + strlen(r), 'a', n);
    r[20 + n] = '\0';
    outcome_t o = parse(r, 0, 0, 0, NULL);
    CHECK(o.rc == HTTP_ERROR);
    o = parse(r, 100, 0, 0, NULL);
    CHECK(o.rc == HTTP_ERROR);
    free(r);
}

static void test_parser_is_reusable(void)
{
    http_parser_t p;
    http_parser_setup(&p);
    const char *r = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx";
    for (int i = 0; i < 3; i++) {
        size_t used;
        http_parser_init(&p, 0);
        CHECK(http_parser_feed(&p, r, strlen(r), &used) == HTTP_DONE);
        CHECK_EQ_U(used, strlen(r));
    }
    CHECK(http_parser_expect_body(&p, "x", HTTP_EXPECT_MAX_BYTES + 1) == -1);
    http_parser_free(&p);
}

/* Feed a binary response in pieces of step bytes (0: whole); returns the parser's result, p kept for reading. */
static int parse_bytes(http_parser_t *p, const unsigned char *s, size_t len, size_t step)
{
    http_parser_setup(p);
    http_parser_init(p, 0);
    size_t pos = 0;
    while (pos < len) {
        size_t n = step && step < len - pos ? step : len - pos;
        size_t used = 0;
        int rc = http_parser_feed(p, (const char *)s + pos, n, &used);
        pos += used;
        if (rc != HTTP_NEED_MORE)
            return rc;
    }
    return HTTP_NEED_MORE;
}

/* 1,000 'a' gzipped (python: gzip.compress(b"a" * 1000, mtime=0)): 29 bytes whose trailer says 1000. */
static const unsigned char test_gzip_1000[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03,
                                               0x4b, 0x4c, 0x1c, 0x05, 0xa3, 0x60, 0x14, 0x0c, 0x77, 0x00,
                                               0x00, 0x03, 0xda, 0x38, 0x9a, 0xe8, 0x03, 0x00, 0x00};

/* Bodies are counted as sent (de-chunked) and decoded: identity as is, gzip by its trailer's ISIZE. */
static void test_body_bytes_and_gzip(void)
{
    unsigned char buf[512];
    http_parser_t p;
    int decoded;
    for (size_t step = 0; step <= 5; step++) {
        const char *plain = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world";
        CHECK(parse_bytes(&p, (const unsigned char *)plain, strlen(plain), step) == HTTP_DONE);
        CHECK_EQ_U(p.body_bytes, 11);
        CHECK_EQ_U(http_parser_decoded_bytes(&p, &decoded), 11);
        CHECK(decoded && p.encoding == HTTP_IDENTITY);
        http_parser_free(&p);

        /* gzip, sent in two chunks split inside the trailer */
        int n = snprintf((char *)buf, sizeof(buf),
                         "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n15\r\n");
        memcpy(buf + n, test_gzip_1000, 21);
        n += 21;
        n += snprintf((char *)buf + n, sizeof(buf) - (size_t)n, "\r\n8\r\n");
        memcpy(buf + n, test_gzip_1000 + 21, 8);
        n += 8;
        n += snprintf((char *)buf + n, sizeof(buf) - (size_t)n, "\r\n0\r\n\r\n");
        CHECK(parse_bytes(&p, buf, (size_t)n, step) == HTTP_DONE);
        CHECK_EQ_U(p.body_bytes, sizeof(test_gzip_1000));
        CHECK(p.encoding == HTTP_GZIP);
        CHECK_EQ_U(http_parser_decoded_bytes(&p, &decoded), 1000);
        CHECK(decoded);
        http_parser_free(&p);
    }
    /* a gzip label on a body that is not gzip: its size as sent, and not decoded */
    const char *fake = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 20\r\n\r\nnot compressed at al";
    CHECK(parse_bytes(&p, (const unsigned char *)fake, strlen(fake), 0) == HTTP_DONE);
    CHECK_EQ_U(http_parser_decoded_bytes(&p, &decoded), 20);
    CHECK(!decoded);
    http_parser_free(&p);
    const char *br = "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 3\r\n\r\nabc";
    CHECK(parse_bytes(&p, (const unsigned char *)br, strlen(br), 0) == HTTP_DONE);
    CHECK(p.encoding == HTTP_OTHER_ENCODING);
    http_parser_decoded_bytes(&p, &decoded);
    CHECK(!decoded);
    http_parser_free(&p);
}

int main(void)
{
    test_content_length_keep_alive();
    test_response_ends_where_the_next_begins();
    test_connection_close_and_http10();
    test_chunked();
    test_body_until_close();
    test_no_body_responses();
    test_interim_100_continue();
    test_truncated_responses_are_errors_at_eof();
    test_garbage_is_malformed();
    test_oversized_headers_are_malformed();
    test_parser_is_reusable();
    test_body_bytes_and_gzip();
    return test_summary("http");
}
