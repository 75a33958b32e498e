/*
 * test_request.c - request_serialize and request_stamp.
 */
#include "../request.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static void test_serialize_adds_host_and_content_length(void)
{
    size_t len;
    const char *headers[] = {"Accept: */*"};
    char *req = request_serialize("POST", "127.0.0.1", headers, 1, "{}", 2, "/items", &len);
    const char *want = "POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\nContent-Length: 2\r\n\r\n{}";
    CHECK_EQ_U(len, strlen(want));
    CHECK(memcmp(req, want, len) == 0);
    free(req);
}

static void test_stamp_goes_after_the_request_line(void)
{
    const char *req = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n";
    char dst[128];
    size_t len = request_stamp(dst, sizeof dst, req, strlen(req), 1700000000123456ull);
    const char *want = "GET /hello HTTP/1.1\r\nX-Request-Start: t=1700000000123456\r\nHost: x\r\n\r\n";
    CHECK_EQ_U(len, strlen(want));
    CHECK(memcmp(dst, want, len) == 0);
}

static void test_stamp_keeps_a_body_whole(void)
{
    const char *req = "POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\n\r\n\r\n";
    char dst[128];
    size_t len = request_stamp(dst, sizeof dst, req, strlen(req), 7);
    CHECK_EQ_U(len, strlen(req) + strlen("X-Request-Start: t=7\r\n"));
    CHECK(memcmp(dst + len - 8, "\r\n\r\n\r\n\r\n", 8) == 0);
}

static void test_stamp_refuses_a_small_buffer_or_no_request_line(void)
{
    const char *req = "GET / HTTP/1.1\r\n\r\n";
    char dst[128];
    CHECK_EQ_U(request_stamp(dst, strlen(req) + REQUEST_STAMP_BYTES - 1, req, strlen(req), 1), 0);
    CHECK_EQ_U(request_stamp(dst, sizeof dst, "GET / HTTP/1.1", 14, 1), 0);
}

int main(void)
{
    test_serialize_adds_host_and_content_length();
    test_stamp_goes_after_the_request_line();
    test_stamp_keeps_a_body_whole();
    test_stamp_refuses_a_small_buffer_or_no_request_line();
    return test_summary("request");
}
