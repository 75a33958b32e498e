/*
 * net.h - targets and transports.
 *
 * A target is parsed once from the command line:
 *     http://127.0.0.1:9292/hello      TCP over IPv4 (or [::1] for IPv6)
 *     unix:/path/to/app.sock:/hello    a Unix domain stream socket
 * Only loopback addresses (127.0.0.0/8, ::1, the name "localhost") and
 * Unix sockets are accepted unless allow_remote is set; other host names
 * are refused before any DNS lookup.
 *
 * A transport is a table of functions (TCP and Unix today); the event
 * loop only ever calls through target->ops.
 */
#ifndef RACKBENCH_NET_H
#define RACKBENCH_NET_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

#define NET_HOST_MAX_BYTES 256
#define NET_UNIX_PATH_MAX_BYTES 108
#define NET_PROBE_TIMEOUT_MS 2000

struct net_target;

typedef struct net_ops {
    const char *name;
    /*
     * open - create a non-blocking socket and start connecting.
     * Returns the fd and sets *in_progress (1: wait for writability, then
     * call finish), or -1 with errno set.
     */
    int (*open)(const struct net_target *t, int *in_progress);
    /* finish - the outcome of a connect in progress: 0 or an errno value. */
    int (*finish)(int fd);
    /* read / write - as read(2) and write(2). */
    ssize_t (*read)(int fd, void *buf, size_t len);
    ssize_t (*write)(int fd, const void *buf, size_t len);
    /* close - release the socket. */
    void (*close)(int fd);
} net_ops_t;

typedef struct net_target {
    const net_ops_t *ops;
    int is_unix;
    int nodelay;                      /* set TCP_NODELAY on each socket */
    char host[NET_HOST_MAX_BYTES + 8]; /* for the Host header: a parsed host, "[]" round IPv6, ":PORT" when not 80 */
    char unix_path[NET_UNIX_PATH_MAX_BYTES];
    char *path;                       /* request path (and query), malloc'd */
    struct sockaddr_storage addr;
    socklen_t addr_len;
    char display[NET_HOST_MAX_BYTES + NET_UNIX_PATH_MAX_BYTES + 16]; /* "127.0.0.1:80" or the socket path */
} net_target_t;

extern const net_ops_t net_tcp_ops;
extern const net_ops_t net_unix_ops;

/*
 * net_parse_target - parse `url` into *t.
 * Returns 0, or -1 with a one-line reason in err.
 */
int net_parse_target(const char *url, int allow_remote, net_target_t *t, char *err, size_t err_size);

/* net_target_free - release what net_parse_target allocated. */
void net_target_free(net_target_t *t);

/*
 * net_probe - connect once, waiting up to timeout_ms, and close.
 * Returns 0, or -1 with a one-line reason in err (refused, missing socket...).
 */
int net_probe(const net_target_t *t, int timeout_ms, char *err, size_t err_size);

/* net_is_loopback - non-zero for 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104. */
int net_is_loopback(const struct sockaddr *sa);

#endif
