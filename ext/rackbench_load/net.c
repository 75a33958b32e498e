/*
 * net.c - target parsing and the TCP and Unix transports, see net.h.
 */
#define _GNU_SOURCE
#include "net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* ---- transports ---------------------------------------------------- */

static int net_start_connect(int fd, const net_target_t *t, int *in_progress)
{
    if (connect(fd, (const struct sockaddr *)&t->addr, t->addr_len) == 0) {
        *in_progress = 0;
        return fd;
    }
    if (errno == EINPROGRESS) {
        *in_progress = 1;
        return fd;
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

static int net_tcp_open(const net_target_t *t, int *in_progress)
{
    int fd = socket(t->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (t->nodelay) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    }
    return net_start_connect(fd, t, in_progress);
}

static int net_unix_open(const net_target_t *t, int *in_progress)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    /* EAGAIN here means the listen backlog is full: an error, retried later */
    return net_start_connect(fd, t, in_progress);
}

static int net_sock_finish(int fd)
{
    int err = 0;
    socklen_t len = sizeof(err);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
        return errno;
    return err;
}

static ssize_t net_sock_read(int fd, void *buf, size_t len)
{
    return read(fd, buf, len);
}

static ssize_t net_sock_write(int fd, const void *buf, size_t len)
{
    return write(fd, buf, len);
}

static void net_sock_close(int fd)
{
    close(fd);
}

const net_ops_t net_tcp_ops = {"tcp", net_tcp_open, net_sock_finish, net_sock_read, net_sock_write, net_sock_close};
const net_ops_t net_unix_ops = {"unix", net_unix_open, net_sock_finish, net_sock_read, net_sock_write, net_sock_close};

/* ---- targets ------------------------------------------------------- */

int net_is_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    }
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a))
            return 1;
        if (IN6_IS_ADDR_V4MAPPED(a))
            return a->s6_addr[12] == 127;
    }
    return sa->sa_family == AF_UNIX;
}

static int net_path_ok(const char *path, char *err, size_t err_size)
{
    if (path[0] != '/') {
        snprintf(err, err_size, "request path must start with '/': %s", path);
        return -1;
    }
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if (*c <= ' ' || *c == 127) {
            snprintf(err, err_size, "request path contains a space or control character");
            return -1;
        }
    }
    return 0;
}

static int net_parse_unix(const char *rest, net_target_t *t, char *err, size_t err_size)
{
    /* rest = "/path/to/sock:/hello" or "/path/to/sock" */
    const char *sep = strstr(rest, ":/");
    size_t sock_len = sep ? (size_t)(sep - rest) : strlen(rest);
    if (sock_len == 0) {
        snprintf(err, err_size, "unix target needs a socket path: unix:/path/to/sock:/request/path");
        return -1;
    }
    if (sock_len >= NET_UNIX_PATH_MAX_BYTES) {
        snprintf(err, err_size, "unix socket path longer than %d bytes", NET_UNIX_PATH_MAX_BYTES - 1);
        return -1;
    }
    memcpy(t->unix_path, rest, sock_len);
    t->unix_path[sock_len] = '\0';
    t->path = strdup(sep ? sep + 1 : "/");
    if (!t->path || net_path_ok(t->path, err, err_size) < 0)
        return -1;
    struct sockaddr_un *un = (struct sockaddr_un *)&t->addr;
    un->sun_family = AF_UNIX;
    memcpy(un->sun_path, t->unix_path, sock_len + 1);
    t->addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + sock_len + 1);
    t->is_unix = 1;
    t->ops = &net_unix_ops;
    snprintf(t->host, sizeof(t->host), "localhost");
    snprintf(t->display, sizeof(t->display), "unix:%s", t->unix_path);
    return 0;
}

static int net_resolve(const char *host, int port, int allow_remote, net_target_t *t, char *err, size_t err_size)
{
    struct sockaddr_in *in4 = (struct sockaddr_in *)&t->addr;
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&t->addr;
    if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
        in4->sin_family = AF_INET;
        in4->sin_port = htons((uint16_t)port);
        t->addr_len = sizeof(*in4);
    } else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)port);
        t->addr_len = sizeof(*in6);
    } else if (strcasecmp(host, "localhost") == 0) {
        in4->sin_family = AF_INET;
        in4->sin_port = htons((uint16_t)port);
        in4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        t->addr_len = sizeof(*in4);
    } else if (!allow_remote) {
        snprintf(err, err_size, "refusing non-loopback host %s (pass --allow-remote to load another machine)", host);
        return -1;
    } else {
        struct addrinfo hints = {0}, *res = NULL;
        hints.ai_socktype = SOCK_STREAM;
        char port_s[8];
        snprintf(port_s, sizeof(port_s), "%d", port);
        int rc = getaddrinfo(host, port_s, &hints, &res);
        if (rc != 0 || !res) {
            snprintf(err, err_size, "cannot resolve host %s: %s", host, gai_strerror(rc));
            return -1;
        }
        memcpy(&t->addr, res->ai_addr, res->ai_addrlen);
        t->addr_len = res->ai_addrlen;
        freeaddrinfo(res);
    }
    if (!allow_remote && !net_is_loopback((struct sockaddr *)&t->addr)) {
        snprintf(err, err_size, "refusing non-loopback address %s (pass --allow-remote to load another machine)", host);
        return -1;
    }
    return 0;
}

/* The host of an authority (h, len bytes: "host", "host:port", "[v6]:port") into host; *port_s at its
   port's digits (NULL: none). Returns 0, or -1 with the reason in err. */
static int net_parse_authority(const char *url, const char *h, size_t len, char *host, size_t host_size,
                               const char **port_s, size_t *port_len, char *err, size_t err_size)
{
    const char *end = h + len, *after;
    size_t hl;
    if (len && h[0] == '[') {
        const char *close = memchr(h, ']', len);
        if (!close || (size_t)(close - h - 1) >= host_size) {
            snprintf(err, err_size, "bad URL %s: unterminated IPv6 address", url);
            return -1;
        }
        hl = (size_t)(close - h - 1);
        memcpy(host, h + 1, hl);
        after = close + 1;
        if (after < end && *after != ':') {
            snprintf(err, err_size, "bad URL %s", url);
            return -1;
        }
    } else {
        const char *colon = memchr(h, ':', len);
        hl = colon ? (size_t)(colon - h) : len;
        if (hl >= host_size) {
            snprintf(err, err_size, "bad URL %s: host too long", url);
            return -1;
        }
        memcpy(host, h, hl);
        after = colon ? colon : end;
    }
    host[hl] = '\0';
    *port_s = after < end ? after + 1 : NULL;
    *port_len = after < end ? (size_t)(end - after - 1) : 0;
    if (host[0] == '\0') {
        snprintf(err, err_size, "bad URL %s: no host", url);
        return -1;
    }
    return 0;
}

/* The port's digits (s, len bytes) as a number from 1 to 65535 in *port. Returns 0, or -1 with the reason in err. */
static int net_parse_port(const char *url, const char *s, size_t len, int *port, char *err, size_t err_size)
{
    if (len == 0 || len > 5) {
        snprintf(err, err_size, "bad URL %s: bad port", url);
        return -1;
    }
    *port = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            snprintf(err, err_size, "bad URL %s: bad port", url);
            return -1;
        }
        *port = *port * 10 + (s[i] - '0');
    }
    if (*port < 1 || *port > 65535) {
        snprintf(err, err_size, "bad URL %s: port out of range", url);
        return -1;
    }
    return 0;
}

int net_parse_target(const char *url, int allow_remote, net_target_t *t, char *err, size_t err_size)
{
    memset(t, 0, sizeof(*t));
    if (strncmp(url, "unix:", 5) == 0)
        return net_parse_unix(url + 5, t, err, err_size);
    const char *scheme_end = strstr(url, "://");
    if (!scheme_end) {
        snprintf(err, err_size, "bad URL %s: expected http://HOST[:PORT]/PATH or unix:/SOCKET:/PATH", url);
        return -1;
    }
    if ((size_t)(scheme_end - url) != 4 || strncasecmp(url, "http", 4) != 0) {
        snprintf(err, err_size, "unsupported scheme %.*s:// (rackbench-load speaks http:// and unix:)",
                 (int)(scheme_end - url), url);
        return -1;
    }
    const char *h = scheme_end + 3;
    const char *path = strchr(h, '/');
    size_t authority_len = path ? (size_t)(path - h) : strlen(h);
    if (memchr(h, '@', authority_len)) {
        snprintf(err, err_size, "bad URL %s: user info is not supported", url);
        return -1;
    }
    char host[NET_HOST_MAX_BYTES];
    const char *port_s;
    size_t port_len;
    int port = 80;
    if (net_parse_authority(url, h, authority_len, host, sizeof(host), &port_s, &port_len, err, err_size) < 0 ||
        (port_s && net_parse_port(url, port_s, port_len, &port, err, err_size) < 0))
        return -1;
    t->path = strdup(path ? path : "/");
    if (!t->path || net_path_ok(t->path, err, err_size) < 0)
        return -1;
    if (net_resolve(host, port, allow_remote, t, err, err_size) < 0)
        return -1;
    int v6 = strchr(host, ':') != NULL;
    if (port == 80)
        snprintf(t->host, sizeof(t->host), v6 ? "[%s]" : "%s", host);
    else
        snprintf(t->host, sizeof(t->host), v6 ? "[%s]:%d" : "%s:%d", host, port);
    snprintf(t->display, sizeof(t->display), v6 ? "[%s]:%d" : "%s:%d", host, port);
    t->ops = &net_tcp_ops;
    return 0;
}

void net_target_free(net_target_t *t)
{
    free(t->path);
    t->path = NULL;
}

int net_probe(const net_target_t *t, int timeout_ms, char *err, size_t err_size)
{
    if (t->is_unix) {
        struct stat st;
        if (stat(t->unix_path, &st) < 0) {
            snprintf(err, err_size, "unix socket %s: %s", t->unix_path, strerror(errno));
            return -1;
        }
        if (!S_ISSOCK(st.st_mode)) {
            snprintf(err, err_size, "%s is not a unix socket", t->unix_path);
            return -1;
        }
    }
    int in_progress = 0;
    int fd = t->ops->open(t, &in_progress);
    if (fd < 0) {
        snprintf(err, err_size, "cannot connect to %s: %s", t->display, strerror(errno));
        return -1;
    }
    if (in_progress) {
        struct pollfd pfd = {.fd = fd, .events = POLLOUT};
        int rc = poll(&pfd, 1, timeout_ms);
        int e = rc == 0 ? ETIMEDOUT : rc < 0 ? errno : t->ops->finish(fd);
        if (e) {
            t->ops->close(fd);
            snprintf(err, err_size, "cannot connect to %s: %s", t->display, strerror(e));
            return -1;
        }
    }
    t->ops->close(fd);
    return 0;
}
