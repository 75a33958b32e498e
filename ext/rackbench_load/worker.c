/*
 * worker.c - the event loops, see worker.h.
 *
 * Each connection is a small state machine driven by epoll (level
 * triggered). A request is written directly when the previous response
 * completes; writability is watched only after a short write, so a
 * keep-alive request costs one write and one read. Timeouts and connect
 * retries are found by a scan of the thread's connections every
 * WORKER_TICK_NS, the open-loop schedule by a timerfd.
 */
#define _GNU_SOURCE
#include "worker.h"
#include "request.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "http.h"
#include "schedule.h"
#include "units.h"

#define WORKER_READ_BUFFER_BYTES 65536
#define WORKER_EPOLL_EVENTS 512
#define WORKER_TICK_NS (10ULL * UNITS_NS_PER_MS)
#define WORKER_RECONNECT_DELAY_NS (10ULL * UNITS_NS_PER_MS)
/* A slow reader's socket receive buffer (the kernel doubles it): bounded, so the server's
   writes are held back once its send buffer and this one are full (responses of a few hundred
   KB), yet large enough for TCP's window updates to keep the pace asked (16 KB lost 15 % of a
   32 KB/s pace to late window updates on loopback). */
#define WORKER_SLOW_RCVBUF_BYTES 65536

enum conn_state {
    CONN_CLOSED,     /* no socket; reconnect at retry_ns */
    CONN_CONNECTING, /* connect in progress, waiting for writability */
    CONN_WRITING,    /* request partly written, waiting for writability */
    CONN_READING,    /* request written, waiting for the response */
    CONN_IDLE        /* open loop: connected, nothing due */
};

enum error_kind { ERR_CONNECT, ERR_READ, ERR_WRITE, ERR_TIMEOUT, ERR_MALFORMED };

struct worker;

typedef struct conn {
    struct worker *w;
    int fd;
    int state;
    uint32_t events;       /* what epoll watches for fd */
    int has_request;       /* a request is issued and not yet answered */
    int resent;            /* this request was re-sent after an idle close */
    int in_idle;           /* on the worker's idle stack (open loop) */
    uint32_t generation;   /* bumped at every close: tells stale events apart */
    uint64_t served;       /* responses on the current socket */
    uint64_t start_ns;     /* latency origin: issued (closed) or scheduled (open) */
    uint64_t deadline_ns;  /* timeout of the connect or request in flight */
    uint64_t retry_ns;     /* CONN_CLOSED: when to connect again */
    const char *req;
    size_t req_len;
    int endpoint;          /* the mix endpoint of the request in flight */
    int slow;              /* a slow client (clients.h): closed loop, paced sends and reads */
    int paused;            /* slow: waiting off the epoll set until pace_at_ns */
    uint64_t pace_at_ns;   /* slow, paused: when its next bytes are due */
    uint64_t send_start_ns; /* when this request's first byte was due to go out */
    uint64_t send_end_ns;  /* when its last byte went out */
    uint64_t read_start_ns; /* slow: when its response was first readable */
    size_t req_off;
    char *stamped;         /* --request-start: this request with its X-Request-Start */
    size_t stamped_cap;
    http_parser_t parser;
} conn_t;

typedef struct worker {
    const config_t *cfg;
    pthread_t thread;
    int epfd;
    int timerfd;
    conn_t *conns;
    size_t conn_count;
    char *buf;
    hist_t *latency_us;
    censor_t cohort;        /* the window's requests (censor.h) */
    series_t series;
    worker_counts_t counts;
    clients_stats_t clients[CLIENTS_GROUPS]; /* fast and slow connections apart */
    mix_worker_t mix;
    size_t path_next;
    uint64_t path_rng;      /* --path-order random: this thread's generator (mix_random), from --seed + thread */
    uint64_t start_ns;
    uint64_t measure_ns;
    uint64_t end_ns;
    uint64_t next_tick_ns;
    /* open loop */
    int open_loop;
    double rate_per_s;      /* this thread's share of the rate */
    uint64_t seed;          /* this thread's poisson seed */
    schedule_t sched;
    uint64_t timer_at_ns;
    uint64_t stopped_ns;    /* when this thread's loop ended (at the latest, the grace's end) */
    int grace_started;      /* the window closed: only its requests are still served */
    uint64_t progress_published_ns; /* last response time this thread published */
    conn_t **idle;
    size_t idle_count;
    double cpu_s;
    double wall_s;
    double wait_s;          /* this thread's run-queue delay (runnable, no CPU), from /proc/thread-self/schedstat */
    int failed;
} worker_t;

static atomic_int worker_stopping;
static atomic_ullong worker_stop_ns;
static atomic_ullong worker_counted;
static atomic_ullong worker_progress_ns; /* last complete response of any thread (to within a tick) */
static atomic_int worker_stalled;
static int worker_timer_tag;

/* Sleeps until the CLOCK_REALTIME instant at_ns (0: returns at once); returns how late it woke, in seconds. */
static double worker_wait_until(uint64_t at_ns)
{
    if (!at_ns)
        return 0;
    struct timespec at = {.tv_sec = (time_t)(at_ns / UNITS_NS_PER_S), .tv_nsec = (long)(at_ns % UNITS_NS_PER_S)};
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) == EINTR && !atomic_load(&worker_stopping))
        ;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t now_ns = (uint64_t)now.tv_sec * UNITS_NS_PER_S + (uint64_t)now.tv_nsec;
    return now_ns > at_ns ? (double)(now_ns - at_ns) / 1e9 : 0;
}

static uint64_t worker_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UNITS_NS_PER_S + (uint64_t)ts.tv_nsec;
}

void worker_stop(void)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&worker_stopping, &expected, 1))
        atomic_store(&worker_stop_ns, worker_now_ns());
}

/* Counted: a completion or an error in the window (throughput, errors, series). */
static int worker_counting(const worker_t *w, uint64_t now)
{
    return now >= w->measure_ns && now < w->end_ns;
}

/* The window's requests: scheduled (open) or issued (closed) in it; their
   latencies, or ages when censored, make the latency distribution. */
static int worker_in_window(const worker_t *w, uint64_t start_ns)
{
    return start_ns >= w->measure_ns && start_ns < w->end_ns;
}

/* Closed loop: requests are issued in the window, none in the grace after it. */
static int worker_issuing(const worker_t *w, uint64_t now)
{
    return now < w->end_ns;
}

/* This connection takes the open loop's schedule (slow clients run closed loop). */
static int conn_open_loop(const conn_t *c)
{
    return c->w->open_loop && !c->slow;
}

/* A closed-loop connection issues its next request now. */
static int conn_issues(const conn_t *c, uint64_t now)
{
    return !conn_open_loop(c) && worker_issuing(c->w, now);
}

static clients_stats_t *conn_group(conn_t *c)
{
    return &c->w->clients[c->slow ? CLIENTS_SLOW : CLIENTS_FAST];
}

/* ---- epoll bookkeeping ------------------------------------------------ */

static void conn_watch(conn_t *c, uint32_t events)
{
    if (c->events == events)
        return;
    if (events == 0) { /* a paced connection waits off the set: the tick wakes it */
        epoll_ctl(c->w->epfd, EPOLL_CTL_DEL, c->fd, NULL);
        c->events = 0;
        return;
    }
    struct epoll_event ev = {.events = events, .data.ptr = c};
    epoll_ctl(c->w->epfd, c->events ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, c->fd, &ev);
    c->events = events;
}

static void conn_close(conn_t *c)
{
    if (c->fd >= 0) {
        c->w->cfg->target.ops->close(c->fd); /* also leaves the epoll set */
        c->fd = -1;
    }
    c->generation++;
    c->events = 0;
    c->served = 0;
    c->paused = 0;
    c->state = CONN_CLOSED;
}

/* ---- counting ------------------------------------------------------- */

static void worker_error(worker_t *w, conn_t *c, int kind, uint64_t now)
{
    if (now < w->measure_ns)
        w->counts.warmup_errors++;
    if (!worker_counting(w, now))
        return;
    conn_group(c)->err_other++;
    switch (kind) {
    case ERR_CONNECT: w->counts.err_connect++; break;
    case ERR_READ: w->counts.err_read++; break;
    case ERR_WRITE: w->counts.err_write++; break;
    case ERR_TIMEOUT: w->counts.err_timeout++; break;
    default: w->counts.err_malformed++; break;
    }
    series_error(&w->series, now - w->measure_ns);
}

/* A completed response's body: as sent, decoded, and how it was encoded. */
static void worker_count_body(worker_t *w, const http_parser_t *p)
{
    int decoded;
    w->counts.body_bytes += p->body_bytes;
    w->counts.decoded_bytes += http_parser_decoded_bytes(p, &decoded);
    if (p->encoding == HTTP_GZIP)
        w->counts.gzip_responses++;
    if (!decoded)
        w->counts.undecoded++;
}

/* A completed response in its client group's counts; a slow client's paced transfers timed. */
static void worker_count_group(conn_t *c, uint64_t now, uint64_t latency_us, int verdict)
{
    clients_stats_t *g = conn_group(c);
    g->requests++;
    hist_record(g->latency_us, latency_us);
    if (verdict == ANSWER_STATUS)
        g->err_status++;
    else if (verdict == ANSWER_CHECK)
        g->err_check++;
    const clients_slow_t *slow = &c->w->cfg->slow;
    if (!c->slow)
        return;
    if (slow->send_bytes_per_s > 0 && c->send_end_ns > c->send_start_ns) {
        g->send_bytes += c->req_len;
        g->send_ns += c->send_end_ns - c->send_start_ns;
    }
    if (slow->read_bytes_per_s > 0 && c->read_start_ns && now > c->read_start_ns) {
        g->read_bytes += c->parser.bytes;
        g->read_ns += now - c->read_start_ns;
    }
}

/*
 * One complete response: counted (requests, latency_us, status, series)
 * when it completed in the window; in the window's requests (censor.h)
 * when its request belongs to the window, whenever it completed. Returns 0
 * when the run must stop (-n reached).
 */
static int worker_record(worker_t *w, conn_t *c, uint64_t now)
{
    const config_t *cfg = w->cfg;
    int counting = worker_counting(w, now);
    int keep_going = 1;
    if (counting && cfg->requests_limit) {
        unsigned long long ticket = atomic_fetch_add(&worker_counted, 1);
        if (ticket >= cfg->requests_limit) {
            if (worker_in_window(w, c->start_ns)) { /* past the count: as if never asked */
                censor_withdraw(&w->cohort);
                if (cfg->endpoint_count)
                    mix_withdraw(&w->mix, c->endpoint);
            }
            return 0;
        }
        if (ticket + 1 == cfg->requests_limit) {
            worker_stop();
            keep_going = 0;
        }
    }
    uint64_t latency_us = (now - c->start_ns + UNITS_NS_PER_US / 2) / UNITS_NS_PER_US;
    if (worker_in_window(w, c->start_ns)) {
        censor_complete(&w->cohort, latency_us);
        if (cfg->endpoint_count)
            mix_complete(&w->mix, c->endpoint, latency_us);
    }
    if (now < w->measure_ns)
        w->counts.warmup_requests++;
    if (!counting)
        return 1;
    w->counts.requests++;
    hist_record(w->latency_us, latency_us);
    series_record(&w->series, now - w->measure_ns, latency_us);
    int status = c->parser.status;
    if (status > 0 && status < WORKER_STATUS_CODES)
        w->counts.status[status]++;
    worker_count_body(w, &c->parser);
    const answer_t *expect = cfg->endpoint_count ? mix_expect(cfg, c->endpoint) : &cfg->expect;
    int verdict = answer_judge(expect, status, c->parser.expect_found);
    if (cfg->endpoint_count)
        mix_record(&w->mix, c->endpoint, latency_us, verdict);
    worker_count_group(c, now, latency_us, verdict);
    if (verdict != ANSWER_OK) {
        if (verdict == ANSWER_STATUS)
            w->counts.err_status++;
        else
            w->counts.err_check++;
        series_error(&w->series, now - w->measure_ns);
    }
    return keep_going;
}

/* ---- requests ------------------------------------------------------- */

static void conn_connect(conn_t *c, uint64_t now);
static void conn_send(conn_t *c, uint64_t now);

/* --request-start: the request as issued, stamped with the wall clock now (a resend keeps its stamp). */
static void conn_stamp(conn_t *c)
{
    size_t need = c->req_len + REQUEST_STAMP_BYTES;
    if (c->stamped_cap < need) {
        char *grown = realloc(c->stamped, need);
        if (!grown)
            return; /* out of memory: this request goes unstamped */
        c->stamped = grown;
        c->stamped_cap = need;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t epoch_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    size_t len = request_stamp(c->stamped, c->stamped_cap, c->req, c->req_len, epoch_us);
    if (len) {
        c->req = c->stamped;
        c->req_len = len;
    }
}

static void conn_issue(conn_t *c, uint64_t start_ns)
{
    worker_t *w = c->w;
    const config_t *cfg = w->cfg;
    if (cfg->endpoint_count) {
        c->endpoint = mix_pick(&w->mix, cfg, &c->req, &c->req_len);
        http_parser_expect_body(&c->parser, cfg->endpoints[c->endpoint].expect.body,
                                cfg->endpoints[c->endpoint].expect.body_len);
    } else {
        size_t i;
        if (cfg->paths_random) {
            i = (size_t)(mix_random(&w->path_rng) % (uint64_t)cfg->request_count);
        } else {
            i = w->path_next++;
            if (w->path_next >= (size_t)cfg->request_count)
                w->path_next = 0;
        }
        c->req = cfg->requests[i];
        c->req_len = cfg->request_lens[i];
    }
    if (cfg->request_start)
        conn_stamp(c);
    c->req_off = 0;
    c->start_ns = start_ns;
    c->has_request = 1;
    c->resent = 0;
    if (worker_in_window(w, start_ns)) {
        censor_issue(&w->cohort);
        if (cfg->endpoint_count)
            mix_issue(&w->mix, c->endpoint);
    }
}

/* Open loop: take the next scheduled send time if it is due (and due before
   the window closed: the grace after it sends only what was due in it). */
static int worker_take_due(worker_t *w, uint64_t now, uint64_t *scheduled)
{
    uint64_t due = schedule_next_ns(&w->sched);
    if (due > now || due >= w->end_ns)
        return 0;
    if (worker_in_window(w, due))
        w->counts.scheduled++;
    *scheduled = due;
    schedule_advance(&w->sched);
    return 1;
}

static uint64_t worker_age_us(uint64_t now, uint64_t since)
{
    return now > since ? (now - since + UNITS_NS_PER_US / 2) / UNITS_NS_PER_US : 0;
}

/* A request without a response, censored at its age (censor.h), also in its endpoint's counts. */
static void worker_censor(worker_t *w, int kind, int endpoint, uint64_t age_us)
{
    censor_record(&w->cohort, kind, age_us);
    if (w->cfg->endpoint_count)
        mix_censor(&w->mix, endpoint, kind, age_us);
}

/* A connected socket with nothing in flight: send what is due, or wait. */
static void conn_ready(conn_t *c, uint64_t now)
{
    worker_t *w = c->w;
    if (!c->has_request) {
        uint64_t scheduled;
        if (conn_issues(c, now)) {
            conn_issue(c, now);
        } else if (conn_open_loop(c) && worker_take_due(w, now, &scheduled)) {
            conn_issue(c, scheduled);
        } else {
            c->state = CONN_IDLE;
            conn_watch(c, EPOLLIN);
            if (conn_open_loop(c) && !c->in_idle) {
                c->in_idle = 1;
                w->idle[w->idle_count++] = c;
            }
            return;
        }
    }
    conn_send(c, now);
}

/* Drop the socket after an error; the request in flight (if any) is lost
   (a timed-out one is censored at its age). */
static void conn_fail(conn_t *c, int kind, uint64_t now)
{
    worker_error(c->w, c, kind, now);
    if (kind == ERR_TIMEOUT && c->has_request && worker_in_window(c->w, c->start_ns))
        worker_censor(c->w, CENSOR_TIMEOUT, c->endpoint, worker_age_us(now, c->start_ns));
    if (c->has_request && c->w->cfg->endpoint_count && worker_counting(c->w, now))
        mix_error(&c->w->mix, c->endpoint);
    conn_close(c);
    c->has_request = 0;
    if (kind == ERR_CONNECT) {
        c->retry_ns = now + WORKER_RECONNECT_DELAY_NS;
        return;
    }
    if (conn_issues(c, now))
        conn_issue(c, now);
    conn_connect(c, now);
}

/* The server closed a socket that had served a response: not an error. */
static void conn_reconnect(conn_t *c, uint64_t now)
{
    if (worker_counting(c->w, now))
        c->w->counts.reconnects++;
    conn_close(c);
    conn_connect(c, now);
}

static void conn_connect(conn_t *c, uint64_t now)
{
    worker_t *w = c->w;
    int in_progress = 0;
    int fd = w->cfg->target.ops->open(&w->cfg->target, &in_progress);
    if (fd < 0) {
        c->state = CONN_CLOSED;
        worker_error(w, c, ERR_CONNECT, now);
        c->has_request = 0;
        c->retry_ns = now + WORKER_RECONNECT_DELAY_NS;
        return;
    }
    c->fd = fd;
    c->events = 0;
    c->served = 0;
    c->paused = 0;
    if (c->slow && w->cfg->slow.read_bytes_per_s > 0) {
        int rcvbuf = WORKER_SLOW_RCVBUF_BYTES;
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
    }
    c->req_off = 0; /* a request carried over from a closed socket goes out whole */
    if (in_progress) {
        c->state = CONN_CONNECTING;
        c->deadline_ns = now + w->cfg->timeout_ns;
        if (c->has_request) {
            /* over loopback the handshake is usually done already: try the request at once */
            conn_send(c, now);
            return;
        }
        conn_watch(c, EPOLLOUT);
        return;
    }
    conn_ready(c, now);
}

/* How many of the request's remaining bytes may go out now: all, or a slow client's due share. */
static size_t conn_send_allowance(const conn_t *c, uint64_t now)
{
    size_t left = c->req_len - c->req_off;
    double rate = c->w->cfg->slow.send_bytes_per_s;
    if (!c->slow || rate <= 0)
        return left;
    uint64_t allowed = clients_pace_allowed(rate, c->send_start_ns, now);
    if (allowed <= c->req_off)
        return 0;
    return allowed - c->req_off < left ? (size_t)(allowed - c->req_off) : left;
}

/* A slow client ahead of its pace: off the epoll set until byte done + 1 is due (the tick wakes
   it); its timeout runs from then. */
static void conn_pause(conn_t *c, double rate, uint64_t start_ns, uint64_t done)
{
    c->paused = 1;
    c->pace_at_ns = clients_pace_due_ns(rate, start_ns, done + 1);
    if (c->deadline_ns < c->pace_at_ns + c->w->cfg->timeout_ns)
        c->deadline_ns = c->pace_at_ns + c->w->cfg->timeout_ns;
    conn_watch(c, 0);
}

/* n request bytes written: counted in the window, for the run and the connection's group. */
static void conn_sent(conn_t *c, size_t n, uint64_t now)
{
    c->req_off += n;
    if (worker_counting(c->w, now)) {
        c->w->counts.sent_bytes += n;
        conn_group(c)->sent_bytes += n;
    }
}

static void conn_send(conn_t *c, uint64_t now)
{
    worker_t *w = c->w;
    if (c->req_off == 0) {
        const config_t *cfg = w->cfg;
        http_parser_init(&c->parser, cfg->endpoint_count ? cfg->endpoints[c->endpoint].head : cfg->head_request);
        c->deadline_ns = now + w->cfg->timeout_ns;
        c->send_start_ns = now;
        c->read_start_ns = 0;
    }
    c->paused = 0;
    while (c->req_off < c->req_len) {
        size_t allowed = conn_send_allowance(c, now);
        if (allowed == 0) {
            c->state = CONN_WRITING;
            conn_pause(c, w->cfg->slow.send_bytes_per_s, c->send_start_ns, c->req_off);
            return;
        }
        ssize_t n = w->cfg->target.ops->write(c->fd, c->req + c->req_off, allowed);
        if (n > 0) {
            conn_sent(c, (size_t)n, now);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            if (c->state == CONN_CONNECTING && c->req_off == 0) {
                conn_watch(c, EPOLLOUT); /* the handshake is not done yet */
                return;
            }
            c->state = CONN_WRITING;
            conn_watch(c, EPOLLIN | EPOLLOUT);
            return;
        }
        if (c->state == CONN_CONNECTING) {
            conn_fail(c, ERR_CONNECT, now); /* refused, reset: the write reports the connect's fate */
            return;
        }
        if (c->served && c->req_off == 0 && !c->resent) {
            /* the server closed the idle keep-alive socket under us: send again */
            c->resent = 1;
            conn_reconnect(c, now);
            return;
        }
        conn_fail(c, ERR_WRITE, now);
        return;
    }
    c->send_end_ns = now;
    c->state = CONN_READING;
    conn_watch(c, EPOLLIN);
}

/* ---- responses ------------------------------------------------------ */

static void conn_complete(conn_t *c, uint64_t now, int extra_bytes)
{
    worker_t *w = c->w;
    if (now - w->progress_published_ns >= WORKER_TICK_NS) {
        atomic_store_explicit(&worker_progress_ns, now, memory_order_relaxed);
        w->progress_published_ns = now;
    }
    if (extra_bytes) {
        /* bytes beyond the response's end (e.g. a body longer than its
           Content-Length): a malformed response, not also a success */
        conn_fail(c, ERR_MALFORMED, now);
        return;
    }
    int keep_going = worker_record(w, c, now);
    c->has_request = 0;
    if (!keep_going)
        return;
    c->served++;
    if (!c->parser.keep_alive) {
        if (conn_issues(c, now))
            conn_issue(c, now);
        conn_reconnect(c, now);
        return;
    }
    conn_ready(c, now);
}

/* The peer closed (or reset) the socket while we waited to read. */
static void conn_closed_by_peer(conn_t *c, int reset, uint64_t now)
{
    if (c->state == CONN_IDLE) {
        /* open loop: an idle keep-alive socket closed; take it out of the idle set lazily */
        c->state = CONN_CLOSED;
        conn_reconnect(c, now);
        return;
    }
    int rc = reset ? (http_parser_started(&c->parser) ? HTTP_ERROR : HTTP_NEED_MORE)
                   : http_parser_eof(&c->parser);
    if (rc == HTTP_DONE) {
        conn_complete(c, now, 0);
        return;
    }
    if (rc == HTTP_NEED_MORE && c->served && !c->resent) {
        /* closed after the previous response, before reading this request: send again */
        c->resent = c->has_request;
        conn_reconnect(c, now);
        return;
    }
    conn_fail(c, ERR_READ, now);
}

/* How many bytes a read may take now: a buffer's worth, or a slow reader's due share (0: pause). */
static size_t conn_read_allowance(conn_t *c, uint64_t now)
{
    double rate = c->w->cfg->slow.read_bytes_per_s;
    if (!c->slow || rate <= 0 || c->state != CONN_READING)
        return WORKER_READ_BUFFER_BYTES;
    if (!c->read_start_ns)
        c->read_start_ns = now;
    uint64_t allowed = clients_pace_allowed(rate, c->read_start_ns, now);
    uint64_t done = c->parser.bytes;
    if (allowed <= done)
        return 0;
    return allowed - done < WORKER_READ_BUFFER_BYTES ? (size_t)(allowed - done) : WORKER_READ_BUFFER_BYTES;
}

static void conn_readable(conn_t *c, uint64_t now)
{
    worker_t *w = c->w;
    for (;;) {
        size_t want = conn_read_allowance(c, now);
        if (want == 0) {
            conn_pause(c, w->cfg->slow.read_bytes_per_s, c->read_start_ns, c->parser.bytes);
            return;
        }
        ssize_t n = w->cfg->target.ops->read(c->fd, w->buf, want);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN)
                return;
            conn_closed_by_peer(c, 1, now);
            return;
        }
        if (n == 0) {
            conn_closed_by_peer(c, 0, now);
            return;
        }
        if (worker_counting(w, now)) {
            w->counts.bytes += (uint64_t)n;
            conn_group(c)->bytes += (uint64_t)n;
        }
        if (c->state != CONN_READING && c->state != CONN_WRITING) {
            conn_fail(c, ERR_MALFORMED, now); /* bytes nobody asked for */
            return;
        }
        size_t used = 0;
        int rc = http_parser_feed(&c->parser, w->buf, (size_t)n, &used);
        if (rc == HTTP_ERROR) {
            conn_fail(c, ERR_MALFORMED, now);
            return;
        }
        if (rc == HTTP_DONE) {
            conn_complete(c, now, used < (size_t)n);
            return;
        }
        if ((size_t)n < want)
            return;
    }
}

static void conn_writable(conn_t *c, uint64_t now)
{
    if (c->state == CONN_CONNECTING && c->has_request) {
        conn_send(c, now); /* a failed connect shows as the write's error */
    } else if (c->state == CONN_CONNECTING) {
        int e = c->w->cfg->target.ops->finish(c->fd);
        if (e) {
            conn_fail(c, ERR_CONNECT, now);
            return;
        }
        conn_ready(c, now);
    } else if (c->state == CONN_WRITING) {
        conn_send(c, now);
    }
}

/* ---- timers --------------------------------------------------------- */

/* A paced slow client whose next bytes are due: back on the epoll set, and on with its transfer. */
static void conn_resume(conn_t *c, uint64_t now)
{
    c->paused = 0;
    if (c->state == CONN_WRITING) {
        conn_send(c, now);
        return;
    }
    conn_watch(c, EPOLLIN);
    conn_readable(c, now);
}

static void worker_tick(worker_t *w, uint64_t now)
{
    for (size_t i = 0; i < w->conn_count; i++) {
        conn_t *c = &w->conns[i];
        switch (c->state) {
        case CONN_CLOSED:
            if (now >= c->retry_ns) {
                if (!c->has_request && conn_issues(c, now))
                    conn_issue(c, now);
                conn_connect(c, now);
            }
            break;
        case CONN_CONNECTING:
            if (now >= c->deadline_ns)
                conn_fail(c, ERR_CONNECT, now);
            break;
        case CONN_WRITING:
        case CONN_READING:
            if (now >= c->deadline_ns)
                conn_fail(c, ERR_TIMEOUT, now);
            else if (c->paused && now >= c->pace_at_ns)
                conn_resume(c, now);
            break;
        default:
            break;
        }
    }
}

/* Open loop: hand due requests to idle connections, then arm the timer. */
static void worker_dispatch(worker_t *w, uint64_t now)
{
    while (w->idle_count) {
        conn_t *c = w->idle[w->idle_count - 1];
        if (c->state != CONN_IDLE) {
            /* closed while idle and busy again since */
            c->in_idle = 0;
            w->idle_count--;
            continue;
        }
        uint64_t scheduled;
        if (!worker_take_due(w, now, &scheduled))
            break;
        c->in_idle = 0;
        w->idle_count--;
        conn_issue(c, scheduled);
        conn_send(c, now);
    }
    uint64_t next = schedule_next_ns(&w->sched);
    if (w->idle_count && w->timer_at_ns != next && next < w->end_ns) {
        struct itimerspec its = {0};
        its.it_value.tv_sec = (time_t)(next / UNITS_NS_PER_S);
        its.it_value.tv_nsec = (long)(next % UNITS_NS_PER_S);
        timerfd_settime(w->timerfd, TFD_TIMER_ABSTIME, &its, NULL);
        w->timer_at_ns = next;
    }
}

/* ---- the window's end ---------------------------------------------- */

/* -n reached: the run ended by its count, so nothing in flight is censored. */
static int worker_count_reached(const worker_t *w)
{
    return w->cfg->requests_limit && atomic_load(&worker_counted) >= w->cfg->requests_limit;
}

/* A request of the window still waits: in flight, or (open loop) due in it and not yet sent. */
static int worker_outstanding(const worker_t *w)
{
    if (w->open_loop && schedule_next_ns(&w->sched) < w->end_ns)
        return 1;
    for (size_t i = 0; i < w->conn_count; i++)
        if (w->conns[i].has_request && worker_in_window(w, w->conns[i].start_ns))
            return 1;
    return 0;
}

/*
 * When the run stops (the grace after the window over, or interrupted):
 * each request of the window still in flight, and in open loop each slot
 * due in the window and never sent, is censored at its age then. Unsent
 * slots are taken from the schedule in order, each given the endpoint the
 * mix would have picked for it.
 */
static void worker_censor_at_end(worker_t *w)
{
    uint64_t stop = w->stopped_ns;
    if (stop <= w->measure_ns)
        return; /* stopped before the window opened */
    int count_reached = worker_count_reached(w);
    for (size_t i = 0; i < w->conn_count; i++) {
        conn_t *c = &w->conns[i];
        if (!c->has_request || !worker_in_window(w, c->start_ns) || c->start_ns >= stop)
            continue;
        if (!count_reached) {
            worker_censor(w, CENSOR_IN_FLIGHT, c->endpoint, worker_age_us(stop, c->start_ns));
            continue;
        }
        censor_withdraw(&w->cohort); /* -n: the run's count was its end, not a request left waiting */
        if (w->cfg->endpoint_count)
            mix_withdraw(&w->mix, c->endpoint);
    }
    if (!w->open_loop)
        return;
    uint64_t window_end = w->end_ns < stop ? w->end_ns : stop;
    for (uint64_t due = schedule_next_ns(&w->sched); due < window_end; due = schedule_next_ns(&w->sched)) {
        int endpoint = 0;
        if (w->cfg->endpoint_count) {
            const char *req;
            size_t len;
            endpoint = mix_pick(&w->mix, w->cfg, &req, &len);
        }
        if (worker_in_window(w, due)) {
            w->counts.scheduled++;
            w->counts.unsent++;
            worker_censor(w, CENSOR_UNSENT, endpoint, worker_age_us(stop, due));
        }
        schedule_advance(&w->sched);
    }
}

/* ---- the loop ------------------------------------------------------- */

/* Handle one epoll event: the open loop's timer, or a connection's readiness. */
static void worker_event(worker_t *w, const struct epoll_event *event, uint64_t now)
{
    conn_t *c = event->data.ptr;
    if (c == (conn_t *)&worker_timer_tag) {
        uint64_t expirations;
        if (read(w->timerfd, &expirations, sizeof(expirations)) < 0) {
            /* nothing to do: the timer only wakes the loop */
        }
        w->timer_at_ns = 0;
        return;
    }
    if (c->fd < 0)
        return;
    uint32_t ev = event->events;
    if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        if (c->state == CONN_CONNECTING) {
            conn_writable(c, now);
            return;
        }
        uint32_t generation = c->generation;
        conn_readable(c, now);
        if (c->generation != generation)
            return;
    }
    if (ev & EPOLLOUT)
        conn_writable(c, now);
}

/* The tick: timeouts, reconnects and paced transfers; 0 when the loop must end (the window's requests
   all answered in the grace, or a -n run stalled). */
static int worker_on_tick(worker_t *w, uint64_t now, int in_grace)
{
    worker_tick(w, now);
    w->next_tick_ns = now + WORKER_TICK_NS;
    if (in_grace && !worker_outstanding(w))
        return 0; /* every request of the window answered, timed out or failed */
    if (w->end_ns == UINT64_MAX &&
        schedule_stalled(atomic_load_explicit(&worker_progress_ns, memory_order_relaxed), now, w->cfg->stall_ns)) {
        atomic_store(&worker_stalled, 1); /* -n alone and a stalled server: the deadline ends the run */
        worker_stop();
        return 0;
    }
    return 1;
}

/* Seconds the calling thread has waited, runnable, for a CPU since it started (the second field of
   /proc/thread-self/schedstat); 0 where the kernel does not keep it. */
static double worker_thread_wait_s(void)
{
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    unsigned long long on_cpu_ns = 0, waited_ns = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%llu %llu", &on_cpu_ns, &waited_ns) != 2)
        waited_ns = 0;
    fclose(f);
    return (double)waited_ns / 1e9;
}

/* The loop's end: censor what is left, take the thread's CPU time and wait, close every connection. */
static void worker_finish(worker_t *w, uint64_t now, uint64_t grace_end, uint64_t began)
{
    w->stopped_ns = now < grace_end ? now : grace_end;
    worker_censor_at_end(w);
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) == 0) {
        w->cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    }
    w->wall_s = (double)(worker_now_ns() - began) / 1e9;
    w->wait_s = worker_thread_wait_s();
    for (size_t i = 0; i < w->conn_count; i++) {
        conn_close(&w->conns[i]);
        http_parser_free(&w->conns[i].parser);
        free(w->conns[i].stamped);
    }
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    struct epoll_event events[WORKER_EPOLL_EVENTS];
    uint64_t now = worker_now_ns();
    uint64_t began = now;
    if (w->open_loop)
        prctl(PR_SET_TIMERSLACK, 1UL); /* send on schedule, not up to 50 us late (the default slack) */
    for (size_t i = 0; i < w->conn_count; i++) {
        conn_t *c = &w->conns[i];
        if (!conn_open_loop(c))
            conn_issue(c, now);
        conn_connect(c, now);
    }
    w->next_tick_ns = now + WORKER_TICK_NS;
    uint64_t grace_end = w->end_ns == UINT64_MAX ? UINT64_MAX : w->end_ns + w->cfg->grace_ns;
    for (;;) {
        now = worker_now_ns();
        if (now >= grace_end || atomic_load_explicit(&worker_stopping, memory_order_relaxed))
            break;
        int in_grace = now >= w->end_ns;
        if (in_grace && !w->grace_started) {
            w->grace_started = 1;
            w->next_tick_ns = now; /* look at once whether anything of the window still waits */
        }
        if (now >= w->next_tick_ns && !worker_on_tick(w, now, in_grace))
            break;
        if (w->open_loop)
            worker_dispatch(w, now);
        uint64_t until = in_grace ? grace_end : w->end_ns;
        uint64_t wake = w->next_tick_ns < until ? w->next_tick_ns : until;
        int timeout_ms = wake > now ? (int)((wake - now + UNITS_NS_PER_MS - 1) / UNITS_NS_PER_MS) : 0;
        int n = epoll_wait(w->epfd, events, WORKER_EPOLL_EVENTS, timeout_ms);
        for (int i = 0; i < n; i++) /* n < 0: EINTR */
            worker_event(w, &events[i], worker_now_ns()); /* per event: a response ends when it is read */
    }
    worker_finish(w, now, grace_end, began);
    return NULL;
}

/* ---- setup and merge ------------------------------------------------ */

static void worker_counts_add(worker_counts_t *dst, const worker_counts_t *src)
{
    dst->requests += src->requests;
    dst->bytes += src->bytes;
    dst->sent_bytes += src->sent_bytes;
    dst->body_bytes += src->body_bytes;
    dst->decoded_bytes += src->decoded_bytes;
    dst->gzip_responses += src->gzip_responses;
    dst->undecoded += src->undecoded;
    dst->err_status += src->err_status;
    dst->reconnects += src->reconnects;
    dst->err_connect += src->err_connect;
    dst->err_read += src->err_read;
    dst->err_write += src->err_write;
    dst->err_timeout += src->err_timeout;
    dst->err_malformed += src->err_malformed;
    dst->err_check += src->err_check;
    dst->unsent += src->unsent;
    dst->scheduled += src->scheduled;
    dst->warmup_requests += src->warmup_requests;
    dst->warmup_errors += src->warmup_errors;
    for (int i = 0; i < WORKER_STATUS_CODES; i++)
        dst->status[i] += src->status[i];
}

static int worker_setup(worker_t *w, const config_t *cfg, size_t fast_count, size_t slow_count, double rate_per_s,
                        uint64_t seed)
{
    size_t conn_count = fast_count + slow_count;
    memset(w, 0, sizeof(*w));
    w->cfg = cfg;
    w->epfd = -1;
    w->timerfd = -1;
    w->conn_count = conn_count;
    w->conns = calloc(conn_count, sizeof(conn_t));
    w->idle = calloc(conn_count, sizeof(conn_t *));
    w->buf = malloc(WORKER_READ_BUFFER_BYTES);
    w->latency_us = hist_new(HIST_LATENCY_HIGHEST_US, HIST_LATENCY_DIGITS);
    series_init(&w->series, cfg->interval_ns);
    if (mix_worker_init(&w->mix, cfg) < 0 || censor_init(&w->cohort) < 0 || clients_stats_init(w->clients) < 0)
        return -1;
    w->path_rng = seed;
    w->mix.rng = seed ^ 0x5851F42D4C957F2Dull; /* endpoints draw apart from the plain path list */
    if (!w->conns || !w->idle || !w->buf || !w->latency_us)
        return -1;
    w->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (w->epfd < 0)
        return -1;
    for (size_t i = 0; i < conn_count; i++) {
        conn_t *c = &w->conns[i];
        c->w = w;
        c->fd = -1;
        c->state = CONN_CLOSED;
        http_parser_setup(&c->parser);
        http_parser_expect_body(&c->parser, cfg->expect.body, cfg->expect.body_len);
        c->slow = i >= fast_count;
    }
    if (rate_per_s > 0) {
        w->open_loop = 1;
        w->rate_per_s = rate_per_s;
        w->seed = seed;
        w->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (w->timerfd < 0)
            return -1;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &worker_timer_tag};
        if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->timerfd, &ev) < 0)
            return -1;
    }
    return 0;
}

static void worker_teardown(worker_t *w)
{
    if (w->epfd >= 0)
        close(w->epfd);
    if (w->timerfd >= 0)
        close(w->timerfd);
    free(w->conns);
    free(w->idle);
    free(w->buf);
    hist_free(w->latency_us);
    censor_free(&w->cohort);
    series_free(&w->series);
    mix_worker_free(&w->mix, w->cfg);
    clients_stats_free(w->clients);
}

/*
 * Peak RSS of this program: VmHWM belongs to the current memory map, while
 * getrusage's ru_maxrss also remembers the image before exec (a parent's
 * RSS inherited through fork + exec).
 */
static uint64_t worker_peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmHWM: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

/* Thread t's share of n connections: the first threads take the fast ones' remainder, the last the slow ones'. */
static size_t worker_share(uint64_t n, int threads, int t, int from_last)
{
    int rank = from_last ? threads - 1 - t : t;
    return (size_t)(n / (uint64_t)threads) + ((uint64_t)rank < n % (uint64_t)threads ? 1 : 0);
}

/* Set up each thread with its share of the connections and the rate; returns how many were set up
   (all of them, or up to the one that failed, with the reason in err). */
static int worker_setup_all(worker_t *workers, int threads, const config_t *cfg, char *err, size_t err_size)
{
    for (int t = 0; t < threads; t++) {
        size_t fast = worker_share(cfg->connections, threads, t, 0);
        size_t slow = worker_share(cfg->slow.connections, threads, t, 1);
        double rate = cfg->connections ? cfg->rate_per_s * (double)fast / (double)cfg->connections : 0;
        if (worker_setup(&workers[t], cfg, fast, slow, rate, cfg->seed + (uint64_t)t) < 0) {
            snprintf(err, err_size, "cannot set up thread %d: %s", t, strerror(errno));
            return -(t + 1);
        }
    }
    return threads;
}

/* Where the counted window lies on the monotonic clock, for a load begun at start late_ns after its
   --start-at instant: the window keeps its place after the instant (a late engine cuts its warm-up, and
   past the warm-up the window's beginning), so loads begun together count the same span of time however
   late each began (a duet's partner that began 0.2 s late would otherwise count 0.2 s alone at its end).
   Begun so late that nothing of the window is left, it is counted from start as without an instant. */
static void worker_window_span(const config_t *cfg, uint64_t start, uint64_t late_ns, uint64_t *measure,
                               uint64_t *end)
{
    *measure = start + cfg->warmup_ns;
    *end = cfg->duration_ns == UINT64_MAX ? UINT64_MAX : *measure + cfg->duration_ns;
    if (!late_ns || cfg->duration_ns == UINT64_MAX || late_ns >= cfg->warmup_ns + cfg->duration_ns)
        return;
    uint64_t placed = start - late_ns + cfg->warmup_ns;
    *measure = placed > start ? placed : start;
    *end = placed + cfg->duration_ns;
}

/* Start the threads on one timeline and wait for them; returns how many ran (< threads: err says why). */
static int worker_start_all(worker_t *workers, int threads, const config_t *cfg, uint64_t start, uint64_t late_ns,
                            char *err, size_t err_size)
{
    uint64_t measure, end;
    worker_window_span(cfg, start, late_ns, &measure, &end);
    int started = 0;
    for (int t = 0; t < threads; t++) {
        worker_t *w = &workers[t];
        w->start_ns = start;
        w->measure_ns = measure;
        w->end_ns = end;
        if (w->open_loop)
            schedule_init(&w->sched, start, w->rate_per_s, cfg->arrivals, w->seed);
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            snprintf(err, err_size, "cannot start thread %d", t);
            worker_stop();
            break;
        }
        started++;
    }
    for (int t = 0; t < started; t++)
        pthread_join(workers[t].thread, NULL);
    return started;
}

/* The counted window actually run, and why it ended early (interrupted, stalled). */
static void worker_window(const config_t *cfg, run_result_t *out, uint64_t start, uint64_t late_ns)
{
    uint64_t measure, end;
    worker_window_span(cfg, start, late_ns, &measure, &end);
    uint64_t finished = worker_now_ns();
    if (atomic_load(&worker_stopping)) {
        uint64_t stop = atomic_load(&worker_stop_ns);
        if (stop < finished)
            finished = stop;
        out->stalled = atomic_load(&worker_stalled);
        out->interrupted = !out->stalled &&
                           (cfg->requests_limit == 0 || atomic_load(&worker_counted) < cfg->requests_limit);
    }
    if (finished > end)
        finished = end;
    out->duration_s = finished > measure ? (double)(finished - measure) / 1e9 : 0.0;
    /* the series covers the whole counted window, idle intervals included */
    if (out->duration_s > 0) {
        size_t intervals = (size_t)((out->duration_s * 1e9 + (double)cfg->interval_ns - 1) / (double)cfg->interval_ns);
        series_pad(&out->series, intervals);
    }
}

static void worker_merge(run_result_t *out, const worker_t *w, const config_t *cfg)
{
    worker_counts_add(&out->counts, &w->counts);
    hist_merge(out->latency_us, w->latency_us);
    censor_merge(&out->cohort, &w->cohort);
    mix_stats_merge(out->endpoints, &w->mix, cfg);
    series_merge(&out->series, &w->series);
    clients_stats_merge(out->clients, w->clients);
    double share = w->wall_s > 0 ? w->cpu_s / w->wall_s : 0;
    if (share > out->max_thread_cpu_share)
        out->max_thread_cpu_share = share;
    out->wait_s += w->wait_s;
}

/* The whole process's CPU time and peak memory. */
static void worker_usage(run_result_t *out)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        out->user_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
        out->sys_s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
        out->max_rss_kb = (uint64_t)ru.ru_maxrss;
    }
    uint64_t hwm_kb = worker_peak_rss_kb();
    if (hwm_kb)
        out->max_rss_kb = hwm_kb;
}

int worker_run(const config_t *cfg, run_result_t *out, char *err, size_t err_size)
{
    int threads = cfg->threads;
    if ((uint64_t)threads > config_connections(cfg))
        threads = (int)config_connections(cfg);
    worker_t *workers = calloc((size_t)threads, sizeof(worker_t));
    out->latency_us = hist_new(HIST_LATENCY_HIGHEST_US, HIST_LATENCY_DIGITS);
    series_init(&out->series, cfg->interval_ns);
    out->endpoints = mix_stats_new(cfg);
    if (!workers || !out->latency_us || censor_init(&out->cohort) < 0 || (cfg->endpoint_count && !out->endpoints) ||
        clients_stats_init(out->clients) < 0) {
        snprintf(err, err_size, "out of memory");
        free(workers);
        return -1;
    }
    atomic_store(&worker_stopping, 0);
    atomic_store(&worker_counted, 0);
    atomic_store(&worker_stalled, 0);

    int set_up = worker_setup_all(workers, threads, cfg, err, err_size);
    int rc = set_up == threads ? 0 : -1;
    set_up = set_up < 0 ? -set_up : set_up;
    if (rc == 0)
        out->start_late_s = worker_wait_until(cfg->start_at_ns);
    uint64_t start = worker_now_ns();
    uint64_t late_ns = (uint64_t)(out->start_late_s * 1e9);
    atomic_store(&worker_progress_ns, start);
    int started = rc == 0 ? worker_start_all(workers, threads, cfg, start, late_ns, err, err_size) : 0;
    if (started < threads)
        rc = -1;
    worker_window(cfg, out, start, late_ns);
    for (int t = 0; t < started; t++)
        worker_merge(out, &workers[t], cfg);
    for (int t = 0; t < set_up; t++)
        worker_teardown(&workers[t]);
    free(workers);
    worker_usage(out);
    return rc;
}
