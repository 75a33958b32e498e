/*
 * http.c - incremental HTTP/1.x response parser, see http.h.
 *
 * Lines (status, headers, chunk sizes, trailers) are found with memchr
 * in the caller's buffer and parsed in place; only a line split across
 * two reads is copied, into a buffer grown on demand, so an idle
 * connection costs no buffer at all. Bodies are skipped by counting.
 */
#define _GNU_SOURCE
#include "http.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum http_state {
    HTTP_S_STATUS,
    HTTP_S_HEADER,
    HTTP_S_BODY_LENGTH,
    HTTP_S_BODY_CLOSE,
    HTTP_S_CHUNK_SIZE,
    HTTP_S_CHUNK_DATA,
    HTTP_S_CHUNK_END,
    HTTP_S_TRAILER,
    HTTP_S_DONE
};

void http_parser_setup(http_parser_t *p)
{
    memset(p, 0, sizeof(*p));
    http_parser_init(p, 0);
}

void http_parser_init(http_parser_t *p, int head_request)
{
    p->state = HTTP_S_STATUS;
    p->status = 0;
    p->http_minor = 0;
    p->keep_alive = 0;
    p->head_request = head_request;
    p->chunked = 0;
    p->has_length = 0;
    p->conn_close = 0;
    p->conn_keep_alive = 0;
    p->content_length = 0;
    p->remaining = 0;
    p->bytes = 0;
    p->header_bytes = 0;
    p->body_bytes = 0;
    p->encoding = HTTP_IDENTITY;
    p->error = NULL;
    p->line_len = 0;
    p->expect_found = 0;
    p->tail_len = 0;
}

int http_parser_expect_body(http_parser_t *p, const char *needle, size_t len)
{
    if (len > HTTP_EXPECT_MAX_BYTES)
        return -1;
    p->expect = len ? needle : NULL;
    p->expect_len = len;
    return 0;
}

void http_parser_free(http_parser_t *p)
{
    free(p->line);
    p->line = NULL;
    p->line_cap = 0;
    p->line_len = 0;
}

int http_parser_started(const http_parser_t *p)
{
    return p->bytes > 0;
}

static int http_fail(http_parser_t *p, const char *why)
{
    p->error = why;
    p->state = HTTP_S_DONE;
    return HTTP_ERROR;
}

static int http_line_append(http_parser_t *p, const char *s, size_t n)
{
    if (p->line_len + n > HTTP_LINE_MAX_BYTES)
        return -1;
    if (p->line_len + n > p->line_cap) {
        size_t cap = p->line_cap ? p->line_cap : 256;
        while (cap < p->line_len + n)
            cap *= 2;
        char *grown = realloc(p->line, cap);
        if (!grown)
            return -1;
        p->line = grown;
        p->line_cap = cap;
    }
    memcpy(p->line + p->line_len, s, n);
    p->line_len += n;
    return 0;
}

/*
 * Take the next line starting at buf[*pos]. Returns 1 with the line (CR LF
 * stripped) in *out, 0 when the line is not complete yet (the piece is
 * kept), -1 when the line is too long.
 */
static int http_take_line(http_parser_t *p, const char *buf, size_t len, size_t *pos,
                          const char **out, size_t *out_len)
{
    const char *start = buf + *pos;
    size_t avail = len - *pos;
    const char *nl = memchr(start, '\n', avail);
    if (!nl) {
        if (http_line_append(p, start, avail) < 0)
            return -1;
        *pos = len;
        return 0;
    }
    size_t n = (size_t)(nl - start);
    *pos += n + 1;
    if (p->line_len) {
        if (http_line_append(p, start, n) < 0)
            return -1;
        *out = p->line;
        *out_len = p->line_len;
        p->line_len = 0;
    } else {
        if (n > HTTP_LINE_MAX_BYTES)
            return -1;
        *out = start;
        *out_len = n;
    }
    if (*out_len && (*out)[*out_len - 1] == '\r')
        (*out_len)--;
    return 1;
}

static int http_parse_status(http_parser_t *p, const char *s, size_t n)
{
    /* HTTP/1.x SP DDD [SP reason] */
    if (n < 12 || memcmp(s, "HTTP/1.", 7) != 0 || s[7] < '0' || s[7] > '9' || s[8] != ' ')
        return -1;
    if (s[9] < '1' || s[9] > '5' || s[10] < '0' || s[10] > '9' || s[11] < '0' || s[11] > '9')
        return -1;
    if (n > 12 && s[12] != ' ')
        return -1;
    p->http_minor = s[7] - '0';
    p->status = (s[9] - '0') * 100 + (s[10] - '0') * 10 + (s[11] - '0');
    return 0;
}

static int http_is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* Does the comma-separated list `v` contain `token` (case-insensitive)? */
static int http_has_token(const char *v, size_t n, const char *token)
{
    size_t tlen = strlen(token);
    size_t i = 0;
    while (i < n) {
        while (i < n && (http_is_space(v[i]) || v[i] == ','))
            i++;
        size_t start = i;
        while (i < n && v[i] != ',')
            i++;
        size_t end = i;
        while (end > start && http_is_space(v[end - 1]))
            end--;
        if (end - start == tlen && strncasecmp(v + start, token, tlen) == 0)
            return 1;
    }
    return 0;
}

/* Is `token` the last element of the comma-separated list `v`? */
static int http_last_token_is(const char *v, size_t n, const char *token)
{
    size_t tlen = strlen(token);
    while (n && http_is_space(v[n - 1]))
        n--;
    size_t start = n;
    while (start && v[start - 1] != ',')
        start--;
    while (start < n && http_is_space(v[start]))
        start++;
    return n - start == tlen && strncasecmp(v + start, token, tlen) == 0;
}

static int http_parse_header(http_parser_t *p, const char *s, size_t n)
{
    if (n == 0 || http_is_space(s[0]))
        return -1; /* obsolete line folding is not accepted */
    const char *colon = memchr(s, ':', n);
    if (!colon || colon == s)
        return -1;
    size_t name_len = (size_t)(colon - s);
    for (size_t i = 0; i < name_len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c >= 127)
            return -1;
    }
    const char *v = colon + 1;
    size_t vlen = n - name_len - 1;
    while (vlen && http_is_space(*v)) {
        v++;
        vlen--;
    }
    while (vlen && http_is_space(v[vlen - 1]))
        vlen--;

    if (name_len == 14 && strncasecmp(s, "content-length", 14) == 0) {
        if (vlen == 0 || vlen > 19)
            return -1;
        uint64_t cl = 0;
        for (size_t i = 0; i < vlen; i++) {
            if (v[i] < '0' || v[i] > '9')
                return -1;
            cl = cl * 10 + (uint64_t)(v[i] - '0');
        }
        if (p->has_length && p->content_length != cl)
            return -1;
        p->has_length = 1;
        p->content_length = cl;
    } else if (name_len == 17 && strncasecmp(s, "transfer-encoding", 17) == 0) {
        if (http_last_token_is(v, vlen, "chunked"))
            p->chunked = 1;
        else
            p->chunked = -1; /* some other coding: body runs until close */
    } else if (name_len == 16 && strncasecmp(s, "content-encoding", 16) == 0) {
        if (vlen == 4 && strncasecmp(v, "gzip", 4) == 0)
            p->encoding = HTTP_GZIP;
        else if (!(vlen == 8 && strncasecmp(v, "identity", 8) == 0) && vlen)
            p->encoding = HTTP_OTHER_ENCODING;
    } else if (name_len == 10 && strncasecmp(s, "connection", 10) == 0) {
        if (http_has_token(v, vlen, "close"))
            p->conn_close = 1;
        if (http_has_token(v, vlen, "keep-alive"))
            p->conn_keep_alive = 1;
    }
    return 0;
}

static int http_parse_chunk_size(http_parser_t *p, const char *s, size_t n)
{
    uint64_t size = 0;
    size_t i = 0;
    for (; i < n; i++) {
        char c = s[i];
        int d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            break;
        if (i >= 15)
            return -1; /* over 2^60 bytes: nonsense */
        size = size * 16 + (uint64_t)d;
    }
    if (i == 0)
        return -1;
    while (i < n && http_is_space(s[i]))
        i++;
    if (i < n && s[i] != ';')
        return -1;
    p->remaining = size;
    return 0;
}

static void http_expect_feed(http_parser_t *p, const char *data, size_t n)
{
    if (!p->expect || p->expect_found || n == 0)
        return;
    size_t k = p->expect_len;
    if (n >= k && memmem(data, n, p->expect, k)) {
        p->expect_found = 1;
        return;
    }
    if (p->tail_len) {
        char window[2 * HTTP_EXPECT_MAX_BYTES];
        size_t m = n < k - 1 ? n : k - 1;
        memcpy(window, p->tail, p->tail_len);
        memcpy(window + p->tail_len, data, m);
        if (memmem(window, p->tail_len + m, p->expect, k)) {
            p->expect_found = 1;
            return;
        }
    }
    size_t keep_max = k - 1;
    if (n >= keep_max) {
        memcpy(p->tail, data + n - keep_max, keep_max);
        p->tail_len = keep_max;
    } else {
        size_t keep = p->tail_len < keep_max - n ? p->tail_len : keep_max - n;
        memmove(p->tail, p->tail + p->tail_len - keep, keep);
        memcpy(p->tail + keep, data, n);
        p->tail_len = keep + n;
    }
}

/* n body bytes: searched (--expect-body), counted, and their first two and last four kept (gzip). */
static void http_body_feed(http_parser_t *p, const char *data, size_t n)
{
    http_expect_feed(p, data, n);
    for (size_t i = 0; p->body_bytes + i < 2 && i < n; i++)
        p->gzip_head[p->body_bytes + i] = (unsigned char)data[i];
    if (n >= 4) {
        memcpy(p->gzip_tail, data + n - 4, 4);
    } else {
        memmove(p->gzip_tail, p->gzip_tail + n, 4 - n);
        memcpy(p->gzip_tail + 4 - n, data, n);
    }
    p->body_bytes += n;
}

uint64_t http_parser_decoded_bytes(const http_parser_t *p, int *decoded)
{
    *decoded = 1;
    if (p->encoding == HTTP_IDENTITY)
        return p->body_bytes;
    /* gzip: 10 bytes of header, the deflate data, CRC32 and ISIZE (RFC 1952) */
    if (p->encoding == HTTP_GZIP && p->body_bytes >= 18 && p->gzip_head[0] == 0x1f && p->gzip_head[1] == 0x8b)
        return (uint64_t)p->gzip_tail[0] | (uint64_t)p->gzip_tail[1] << 8 | (uint64_t)p->gzip_tail[2] << 16 |
               (uint64_t)p->gzip_tail[3] << 24;
    *decoded = 0;
    return p->body_bytes;
}

/* The blank line after the headers: decide how the body is delimited. */
static int http_headers_done(http_parser_t *p)
{
    if (p->status >= 100 && p->status < 200 && p->status != 101) {
        /* interim response (100 Continue, 103 Early Hints): the real one follows */
        uint64_t bytes = p->bytes;
        int head = p->head_request;
        http_parser_init(p, head);
        p->bytes = bytes;
        return HTTP_NEED_MORE;
    }
    p->keep_alive = p->http_minor >= 1 ? !p->conn_close : (p->conn_keep_alive && !p->conn_close);
    if (p->status == 101) {
        p->keep_alive = 0;
        p->state = HTTP_S_DONE;
        return HTTP_DONE;
    }
    if (p->head_request || p->status == 204 || p->status == 304) {
        p->state = HTTP_S_DONE;
        return HTTP_DONE;
    }
    if (p->chunked == 1) {
        p->state = HTTP_S_CHUNK_SIZE;
    } else if (p->chunked == 0 && p->has_length) {
        p->remaining = p->content_length;
        if (p->remaining == 0) {
            p->state = HTTP_S_DONE;
            return HTTP_DONE;
        }
        p->state = HTTP_S_BODY_LENGTH;
    } else {
        p->keep_alive = 0;
        p->state = HTTP_S_BODY_CLOSE;
    }
    return HTTP_NEED_MORE;
}

/* A step of http_parser_feed that leaves the response unfinished: go on with the rest of the piece. */
#define HTTP_GO_ON 2

/* The status line or a header line (or the blank line that ends them). */
static int http_feed_head(http_parser_t *p, const char *buf, size_t len, size_t *pos)
{
    const char *line;
    size_t line_len, before = *pos;
    int rc = http_take_line(p, buf, len, pos, &line, &line_len);
    p->header_bytes += *pos - before;
    p->bytes += *pos - before;
    if (rc < 0 || p->header_bytes > HTTP_HEADERS_MAX_BYTES)
        return http_fail(p, "header line or headers too long");
    if (rc == 0)
        return HTTP_GO_ON;
    if (p->state == HTTP_S_STATUS) {
        if (http_parse_status(p, line, line_len) < 0)
            return http_fail(p, "bad status line");
        p->state = HTTP_S_HEADER;
    } else if (line_len == 0) {
        if (http_headers_done(p) == HTTP_DONE)
            return HTTP_DONE;
    } else if (http_parse_header(p, line, line_len) < 0) {
        return http_fail(p, "bad header line");
    }
    return HTTP_GO_ON;
}

/* Body bytes: of a known length or a chunk's, or until the connection closes. */
static int http_feed_body(http_parser_t *p, const char *buf, size_t len, size_t *pos)
{
    size_t n = len - *pos;
    if (p->state == HTTP_S_BODY_CLOSE) {
        http_body_feed(p, buf + *pos, n);
        p->bytes += n;
        *pos = len;
        return HTTP_GO_ON;
    }
    if ((uint64_t)n > p->remaining)
        n = (size_t)p->remaining;
    http_body_feed(p, buf + *pos, n);
    *pos += n;
    p->bytes += n;
    p->remaining -= n;
    if (p->remaining)
        return HTTP_GO_ON;
    if (p->state == HTTP_S_BODY_LENGTH) {
        p->state = HTTP_S_DONE;
        return HTTP_DONE;
    }
    p->state = HTTP_S_CHUNK_END;
    return HTTP_GO_ON;
}

/* A chunk's size line, the line ending its data, or a trailer line. */
static int http_feed_chunk_line(http_parser_t *p, const char *buf, size_t len, size_t *pos)
{
    const char *line;
    size_t line_len, before = *pos;
    int rc = http_take_line(p, buf, len, pos, &line, &line_len);
    p->bytes += *pos - before;
    if (rc < 0)
        return http_fail(p, "chunk line too long");
    if (rc == 0)
        return HTTP_GO_ON;
    if (p->state == HTTP_S_CHUNK_SIZE) {
        if (http_parse_chunk_size(p, line, line_len) < 0)
            return http_fail(p, "bad chunk size");
        p->state = p->remaining ? HTTP_S_CHUNK_DATA : HTTP_S_TRAILER;
    } else if (p->state == HTTP_S_CHUNK_END) {
        if (line_len != 0)
            return http_fail(p, "chunk longer than its size");
        p->state = HTTP_S_CHUNK_SIZE;
    } else if (line_len == 0) {
        p->state = HTTP_S_DONE;
        return HTTP_DONE;
    }
    return HTTP_GO_ON;
}

int http_parser_feed(http_parser_t *p, const char *buf, size_t len, size_t *consumed)
{
    size_t pos = 0;
    while (pos < len) {
        int rc;
        switch (p->state) {
        case HTTP_S_STATUS:
        case HTTP_S_HEADER: rc = http_feed_head(p, buf, len, &pos); break;
        case HTTP_S_BODY_LENGTH:
        case HTTP_S_CHUNK_DATA:
        case HTTP_S_BODY_CLOSE: rc = http_feed_body(p, buf, len, &pos); break;
        case HTTP_S_CHUNK_SIZE:
        case HTTP_S_CHUNK_END:
        case HTTP_S_TRAILER: rc = http_feed_chunk_line(p, buf, len, &pos); break;
        default: rc = http_fail(p, "data after the end of the response"); break;
        }
        if (rc != HTTP_GO_ON) {
            *consumed = pos;
            return rc;
        }
    }
    *consumed = pos;
    return HTTP_NEED_MORE;
}

int http_parser_eof(http_parser_t *p)
{
    if (p->state == HTTP_S_BODY_CLOSE) {
        p->state = HTTP_S_DONE;
        p->keep_alive = 0;
        return HTTP_DONE;
    }
    if (p->state == HTTP_S_DONE)
        return HTTP_DONE;
    if (p->bytes == 0 && p->line_len == 0)
        return HTTP_NEED_MORE;
    p->error = "connection closed mid-response";
    p->state = HTTP_S_DONE;
    return HTTP_ERROR;
}
