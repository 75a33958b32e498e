/*
 * http.h - an incremental HTTP/1.x response parser.
 *
 * Bytes are fed as they arrive, in pieces of any size; the parser keeps
 * only what it needs between calls (a partial line, the body counters).
 * It understands the status line, headers (Content-Length,
 * Transfer-Encoding: chunked, Connection), bodies delimited by length,
 * by chunks or by the connection closing, interim 1xx responses, and
 * responses that carry no body (HEAD, 1xx, 204, 304).
 *
 * Usage:
 *     http_parser_init(&p, 0);
 *     while ((n = read(fd, buf, sizeof buf)) > 0) {
 *         size_t used;
 *         int rc = http_parser_feed(&p, buf, n, &used);
 *         if (rc == HTTP_DONE) { ... p.status, p.keep_alive ...; break; }
 *         if (rc == HTTP_ERROR) { ... p.error ...; break; }
 *     }
 *     if (n == 0) rc = http_parser_eof(&p);
 */
#ifndef RACKBENCH_HTTP_H
#define RACKBENCH_HTTP_H

#include <stddef.h>
#include <stdint.h>

/* Longest single status or header line, and all headers together. */
#define HTTP_LINE_MAX_BYTES 8192
#define HTTP_HEADERS_MAX_BYTES 65536
/* Longest --expect-body substring. */
#define HTTP_EXPECT_MAX_BYTES 256

enum http_encoding {
    HTTP_IDENTITY = 0,  /* no Content-Encoding (or identity) */
    HTTP_GZIP,          /* Content-Encoding: gzip */
    HTTP_OTHER_ENCODING /* any other coding (br, deflate, ...) */
};

enum http_result {
    HTTP_NEED_MORE = 0, /* everything consumed, response not complete */
    HTTP_DONE = 1,      /* a full response ended; *consumed says where */
    HTTP_ERROR = -1     /* malformed; p->error names the problem */
};

typedef struct http_parser {
    int state;
    int status;           /* status code of the final response */
    int http_minor;       /* 0 for HTTP/1.0, 1 for HTTP/1.1 */
    int keep_alive;       /* the connection may carry another request */
    int head_request;     /* the request was HEAD: no body follows */
    int chunked;
    int has_length;
    int conn_close;       /* Connection: close seen */
    int conn_keep_alive;  /* Connection: keep-alive seen */
    uint64_t content_length;
    uint64_t remaining;   /* body or chunk bytes still to come */
    uint64_t bytes;       /* bytes of this response seen so far */
    size_t header_bytes;
    uint64_t body_bytes;  /* body bytes as sent (de-chunked; compressed when encoded) */
    int encoding;         /* enum http_encoding: its Content-Encoding */
    unsigned char gzip_head[2];  /* the body's first two bytes (gzip's magic 1f 8b) */
    unsigned char gzip_tail[4];  /* the body's last four bytes (gzip's ISIZE) */
    const char *error;    /* static text when HTTP_ERROR was returned */
    /* a line split across feeds, grown on demand */
    char *line;
    size_t line_len;
    size_t line_cap;
    /* --expect-body: substring search across pieces */
    const char *expect;
    size_t expect_len;
    int expect_found;
    size_t tail_len;
    char tail[HTTP_EXPECT_MAX_BYTES];
} http_parser_t;

/*
 * http_parser_init - prepare a parser for one response.
 * head_request: non-zero when the request was HEAD (no body expected).
 * Keeps any line buffer and expectation already set on `p` when called
 * again on the same parser (call http_parser_setup() once first).
 */
void http_parser_setup(http_parser_t *p);
void http_parser_init(http_parser_t *p, int head_request);

/*
 * http_parser_expect_body - look for `needle` (not copied; must outlive
 * the parser) in every response body; p->expect_found says if it was seen.
 * Returns 0, or -1 when the needle is longer than HTTP_EXPECT_MAX_BYTES.
 */
int http_parser_expect_body(http_parser_t *p, const char *needle, size_t len);

/* http_parser_free - release the line buffer. */
void http_parser_free(http_parser_t *p);

/*
 * http_parser_feed - consume up to `len` bytes.
 * Returns HTTP_NEED_MORE (all consumed), HTTP_DONE (a response ended after
 * *consumed bytes; the rest belongs to whatever follows) or HTTP_ERROR.
 */
int http_parser_feed(http_parser_t *p, const char *buf, size_t len, size_t *consumed);

/*
 * http_parser_eof - the peer closed the connection.
 * Returns HTTP_DONE when this ends a body delimited by the close,
 * HTTP_ERROR when a response was cut short (p->error says so), and
 * HTTP_NEED_MORE when no byte of a response had arrived yet.
 */
int http_parser_eof(http_parser_t *p);

/*
 * http_parser_decoded_bytes - the body's size once decoded: body_bytes for
 * an identity body; for gzip, the ISIZE of its trailer (the uncompressed
 * size modulo 2^32, exact below 4 GB; of the last member of a multi-member
 * stream). Sets *decoded to 0 (and returns body_bytes) when the body could
 * not be sized: another coding, or gzip without its magic or a full trailer.
 */
uint64_t http_parser_decoded_bytes(const http_parser_t *p, int *decoded);

/* http_parser_started - non-zero once any byte of the response arrived. */
int http_parser_started(const http_parser_t *p);

#endif
