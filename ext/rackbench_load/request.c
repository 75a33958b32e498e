/*
 * request.c - see request.h.
 */
#define _GNU_SOURCE
#include "request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int request_has_header(const char **headers, int count, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < count; i++)
        if (strncasecmp(headers[i], name, n) == 0 && headers[i][n] == ':')
            return 1;
    return 0;
}

size_t request_stamp(char *dst, size_t cap, const char *req, size_t len, uint64_t epoch_us)
{
    const char *eol = memmem(req, len, "\r\n", 2);
    if (!eol || cap < len + REQUEST_STAMP_BYTES)
        return 0;
    size_t line = (size_t)(eol - req) + 2;
    memcpy(dst, req, line);
    int n = snprintf(dst + line, REQUEST_STAMP_BYTES + 1, "X-Request-Start: t=%llu\r\n", (unsigned long long)epoch_us);
    memcpy(dst + line + (size_t)n, req + line, len - line);
    return len + (size_t)n;
}

char *request_serialize(const char *method, const char *host, const char **headers, int header_count,
                        const char *body, size_t body_len, const char *path, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fprintf(f, "%s %s HTTP/1.1\r\n", method, path);
    if (!request_has_header(headers, header_count, "host"))
        fprintf(f, "Host: %s\r\n", host);
    for (int h = 0; h < header_count; h++)
        fprintf(f, "%s\r\n", headers[h]);
    if (body && !request_has_header(headers, header_count, "content-length"))
        fprintf(f, "Content-Length: %zu\r\n", body_len);
    fputs("\r\n", f);
    if (body)
        fwrite(body, 1, body_len, f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
