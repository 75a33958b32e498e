/*
 * request.h - the bytes of one HTTP/1.1 request, as every send writes them.
 *
 *     size_t len;
 *     char *req = request_serialize("POST", "127.0.0.1", headers, 1, "{}", 2, "/items", &len);
 */
#ifndef RACKBENCH_REQUEST_H
#define RACKBENCH_REQUEST_H

#include <stddef.h>
#include <stdint.h>

/* Room request_stamp adds: "X-Request-Start: t=" + 20 digits + CRLF. */
#define REQUEST_STAMP_BYTES 41

/*
 * request_serialize - "METHOD PATH HTTP/1.1", a Host header unless headers
 * has one, the headers ("Name: value"), a Content-Length when there is a
 * body and no such header, then the body. Returns a malloc'd buffer and its
 * length in *len, or NULL when out of memory.
 */
char *request_serialize(const char *method, const char *host, const char **headers, int header_count,
                        const char *body, size_t body_len, const char *path, size_t *len);

/*
 * request_stamp - req (len bytes) with "X-Request-Start: t=<epoch_us>" after
 * its request line (the convention APM and autoscaling tools read: the
 * server's queue time is its arrival less this stamp), written into dst of
 * cap bytes. Returns the stamped length, or 0 when dst has less than
 * len + REQUEST_STAMP_BYTES bytes or req has no request line.
 */
size_t request_stamp(char *dst, size_t cap, const char *req, size_t len, uint64_t epoch_us);

#endif
