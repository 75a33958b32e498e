/*
 * request.h - the bytes of one HTTP/1.1 request, as every send writes them.
 *
 *     size_t len;
 *     char *req = request_serialize("POST", "127.0.0.1", headers, 1, "{}", 2, "/items", &len);
 */
#ifndef RACKBENCH_REQUEST_H
#define RACKBENCH_REQUEST_H

#include <stddef.h>

/*
 * request_serialize - "METHOD PATH HTTP/1.1", a Host header unless headers
 * has one, the headers ("Name: value"), a Content-Length when there is a
 * body and no such header, then the body. Returns a malloc'd buffer and its
 * length in *len, or NULL when out of memory.
 */
char *request_serialize(const char *method, const char *host, const char **headers, int header_count,
                        const char *body, size_t body_len, const char *path, size_t *len);

#endif
