/*
 * main.c - rackbench-load: command line in, one run, a summary out.
 *
 *     rackbench-load http://127.0.0.1:9292/hello -c 100 -t 1 -d 10s
 *     rackbench-load unix:/tmp/app.sock:/hello --rate 5000 --json
 *
 * Reads the arguments into a config_t, checks the target answers,
 * builds the request bytes, runs worker_run() and prints the result.
 * Every failure before the run is one line on stderr and exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

#include "answer.h"
#include "config.h"
#include "http.h"
#include "mix.h"
#include "net.h"
#include "output.h"
#include "request.h"
#include "schedule.h"
#include "units.h"
#include "worker.h"

#define MAIN_VERSION "0.1.0"
#define MAIN_SPARE_FDS 64
#define MAIN_MAX_THREADS 256
#define MAIN_DEFAULT_SEED 1
/* getopt_long's value of the option at table index i (letters stay below it). */
#define MAIN_OPTION_VALUE_BASE 256
/* The column the options' help starts at in --help. */
#define MAIN_HELP_COLUMN 25

__attribute__((noreturn, format(printf, 1, 2))) static void main_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("rackbench-load: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static uint64_t main_duration(const char *opt, const char *s)
{
    uint64_t ns;
    if (units_parse_duration_ns(s, &ns) < 0)
        main_die("bad %s %s: expected a duration such as 10s, 500ms or 2m", opt, s);
    return ns;
}

static uint64_t main_count(const char *opt, const char *s, uint64_t min)
{
    double v;
    if (units_parse_count(s, &v) < 0 || v < (double)min || v > 1e15 || v != (double)(uint64_t)v)
        main_die("bad %s %s: expected a whole number of at least %llu", opt, s, (unsigned long long)min);
    return (uint64_t)v;
}

static double main_bytes_per_s(const char *opt, const char *s)
{
    double v;
    if (units_parse_count(s, &v) < 0 || v <= 0)
        main_die("bad %s %s: expected bytes per second above 0, e.g. 500 or 2k", opt, s);
    return v;
}

/* What the options said beyond the config itself, for the checks after them. */
typedef struct main_seen {
    int duration;
    int arrivals;
} main_seen_t;

typedef void (*main_setter_t)(config_t *cfg, const char *arg, main_seen_t *seen);

static void opt_connections(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->connections = main_count("-c", arg, 1);
}

static void opt_threads(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->threads = (int)main_count("-t", arg, 1);
}

static void opt_duration(config_t *cfg, const char *arg, main_seen_t *seen)
{
    cfg->duration_ns = main_duration("-d", arg);
    seen->duration = 1;
}

static void opt_warmup(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->warmup_ns = main_duration("--warmup", arg);
}

static void opt_rate(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    double r;
    if (units_parse_count(arg, &r) < 0 || r <= 0)
        main_die("bad --rate %s: expected requests per second above 0, e.g. 5000 or 5k", arg);
    cfg->rate_per_s = r;
}

static void opt_arrivals(config_t *cfg, const char *arg, main_seen_t *seen)
{
    cfg->arrivals = schedule_parse_arrivals(arg);
    if (cfg->arrivals < 0)
        main_die("bad --arrivals %s: expected uniform or poisson", arg);
    seen->arrivals = 1;
}

static void opt_seed(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->seed = main_count("--seed", arg, 0);
}

static void opt_timeout(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->timeout_ns = main_duration("--timeout", arg);
}

static void opt_grace(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->grace_ns = main_duration("--grace", arg);
}

static void opt_requests(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->requests_limit = main_count("-n", arg, 1);
}

static void opt_stall_timeout(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->stall_ns = main_duration("--stall-timeout", arg);
}

static void opt_interval(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->interval_ns = main_duration("--interval", arg);
}

static void opt_start_at(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    char *end = NULL;
    errno = 0;
    double at_s = strtod(arg, &end);
    if (errno || !end || *end || end == arg || !(at_s > 0) || at_s > 1e11)
        main_die("bad --start-at %s: expected a Unix time in seconds, e.g. 1795000000.25", arg);
    cfg->start_at_ns = (uint64_t)(at_s * 1e9);
}

static void opt_header(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    if (!strchr(arg, ':') || strpbrk(arg, "\r\n") || arg[0] == ':')
        main_die("bad header %s: expected 'Name: value' on one line", arg);
    cfg->headers[cfg->header_count++] = arg;
}

static void opt_accept_gzip(config_t *cfg, const char *arg, main_seen_t *seen)
{
    opt_header(cfg, "Accept-Encoding: gzip", seen);
    (void)arg;
}

static void opt_method(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    for (const char *p = arg; *p; p++)
        if (*p <= ' ' || *p >= 127)
            main_die("bad method %s", arg);
    if (!*arg)
        main_die("empty method");
    cfg->method = arg;
}

static void opt_body(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->body = arg;
    cfg->body_len = strlen(arg);
}

/* --body-size N: a body of N bytes ('x' repeated, a line break every 64), for uploads too large for argv. */
static void opt_body_size(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    uint64_t n;
    if (units_parse_bytes(arg, &n) < 0 || n == 0 || n > (1ULL << 30))
        main_die("bad --body-size %s: expected bytes from 1 to 1g, e.g. 1024, 64k or 1m", arg);
    char *body = malloc((size_t)n);
    if (!body)
        main_die("out of memory");
    for (uint64_t i = 0; i < n; i++)
        body[i] = i % 64 == 63 ? '\n' : 'x';
    cfg->body = body;
    cfg->body_len = (size_t)n;
}

/* --body-file PATH: the body read from a file (bodies too large for argv: 128 KB an argument on Linux). */
static void opt_body_file(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    FILE *f = fopen(arg, "rb");
    char *body = NULL;
    size_t len = 0, cap = 0;
    while (f && !ferror(f) && !feof(f)) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *grown = cap <= (1ULL << 30) ? realloc(body, cap) : NULL;
            if (!grown)
                main_die("bad --body-file %s: more than 1 GB, or out of memory", arg);
            body = grown;
        }
        len += fread(body + len, 1, cap - len, f);
    }
    if (!f || ferror(f))
        main_die("bad --body-file %s: %s", arg, strerror(errno));
    fclose(f);
    cfg->body = body ? body : "";
    cfg->body_len = len;
}

static void opt_path(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    if (arg[0] != '/' || strpbrk(arg, " \t\r\n"))
        main_die("bad --path %s: expected a path starting with '/' and no spaces", arg);
    cfg->paths[cfg->path_count++] = arg;
}

static void opt_path_order(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    if (strcmp(arg, "turn") != 0 && strcmp(arg, "random") != 0)
        main_die("bad --path-order %s: expected turn or random", arg);
    cfg->paths_random = strcmp(arg, "random") == 0;
}

static void opt_expect_status(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    if (answer_parse_statuses(&cfg->expect, arg) < 0)
        main_die("bad --expect-status %s: expected codes or ranges such as 200, 200,204 or 200-399", arg);
}

static void opt_expect_body(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->expect.body = arg;
    cfg->expect.body_len = strlen(arg);
    if (cfg->expect.body_len == 0 || cfg->expect.body_len > HTTP_EXPECT_MAX_BYTES)
        main_die("bad --expect-body: 1 to %d bytes", HTTP_EXPECT_MAX_BYTES);
}

static void opt_endpoint(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    if (mix_begin(cfg, arg) < 0)
        main_die("bad --endpoint %s: a name, at most %d endpoints", arg, MIX_MAX_ENDPOINTS);
}

static void opt_weight(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    if (mix_weight(cfg, arg) < 0)
        main_die("bad --weight %s: a whole number from 1 to 1000000, after an --endpoint", arg);
}

static void opt_slow_connections(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->slow.connections = main_count("--slow-connections", arg, 0);
}

static void opt_slow_send(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->slow.send_bytes_per_s = main_bytes_per_s("--slow-send", arg);
}

static void opt_slow_read(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)seen;
    cfg->slow.read_bytes_per_s = main_bytes_per_s("--slow-read", arg);
}

static void opt_json(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)arg, (void)seen;
    cfg->json = 1;
}

static void opt_allow_remote(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)arg, (void)seen;
    cfg->allow_remote = 1;
}

static void opt_request_start(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)arg, (void)seen;
    cfg->request_start = 1;
}

static void main_usage(void);

static void opt_help(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)cfg, (void)arg, (void)seen;
    main_usage();
    exit(0);
}

static void opt_version(config_t *cfg, const char *arg, main_seen_t *seen)
{
    (void)cfg, (void)arg, (void)seen;
    printf("rackbench-load %s\n", MAIN_VERSION);
    exit(0);
}

/* Every option: its names, its value's name (NULL: none), what it sets, and its --help line. */
static const struct main_option {
    const char *name;
    char letter;
    const char *value;
    main_setter_t set;
    const char *help;
} main_options[] = {
    {"connections", 'c', "N", opt_connections, "open connections (default 10)"},
    {"threads", 't', "N", opt_threads, "load threads (default 1)"},
    {"duration", 'd', "T", opt_duration, "counted duration: 10s, 500ms, 2m (default 10s)"},
    {"warmup", 0, "T", opt_warmup, "apply load for T first, not counted"},
    {"rate", 'R', "R", opt_rate, "open loop at R requests/s in total (latency from scheduled send)"},
    {"arrivals", 0, "A", opt_arrivals, "open loop: uniform (evenly spaced, the default) or poisson (random)"},
    {"seed", 0, "N", opt_seed,
     "poisson arrivals and random paths: the generators' seed (default 1): same seed, same draws"},
    {"timeout", 0, "T", opt_timeout, "a request without a full response after T is a timeout (default 2s)"},
    {"grace", 0, "T", opt_grace,
     "after the window, how long its requests still waiting may complete\n(default 1s); those that do not are "
     "censored at their age then"},
    {"requests", 'n', "N", opt_requests, "stop after N counted requests"},
    {"stall-timeout", 0, "T", opt_stall_timeout,
     "with -n and no -d: end the run after T without a response\n(default twice --timeout, at least 10s)"},
    {"interval", 0, "T", opt_interval, "time-series interval (default 1s)"},
    {"start-at", 0, "S", opt_start_at,
     "begin the load (its warm-up first) at Unix time S, e.g. 1795000000.25,\nso loads on one machine begin together"},
    {"header", 'H', "'N: V'", opt_header, "add a request header (repeatable)"},
    {"accept-gzip", 0, NULL, opt_accept_gzip, "send 'Accept-Encoding: gzip' (bodies counted as sent and decoded)"},
    {"method", 'm', "M", opt_method, "request method (default GET)"},
    {"body", 0, "S", opt_body, "request body"},
    {"body-size", 0, "N", opt_body_size, "a request body of N bytes: 1024, 64k, 1m (uploads)"},
    {"body-file", 0, "PATH", opt_body_file, "the request body read from a file (bodies too large for the command line)"},
    {"path", 0, "P", opt_path, "request path, repeatable: taken in turn"},
    {"path-order", 0, "O", opt_path_order, "turn (the default) or random: each request's path drawn at random, from --seed"},
    {"expect-status", 0, "C", opt_expect_status,
     "expected statuses: 200, 200,204 or 200-399 (default: any);\nothers count as status errors"},
    {"expect-body", 0, "S", opt_expect_body, "the body must contain S (else a check error)"},
    {"endpoint", 0, "NAME", opt_endpoint, "start an endpoint of a traffic mix: the request options after it are its own"},
    {"weight", 0, "N", opt_weight, "the current endpoint's weight in the mix (default 1)"},
    {"slow-connections", 0, "N", opt_slow_connections,
     "N more connections, closed loop, that send and read at the paces below;\nreported apart from the -c ones"},
    {"slow-send", 0, "B", opt_slow_send, "slow connections send each request at B bytes/s (default: full speed)"},
    {"slow-read", 0, "B", opt_slow_read, "slow connections read each response at B bytes/s (default: full speed)"},
    {"json", 0, NULL, opt_json, "print the result as JSON"},
    {"allow-remote", 0, NULL, opt_allow_remote, "allow targets other than loopback and unix sockets"},
    {"request-start", 0, NULL, opt_request_start,
     "stamp each request 'X-Request-Start: t=<microseconds since the epoch>' as it is sent"},
    {"help", 'h', NULL, opt_help, "this text"},
    {"version", 'v', NULL, opt_version, "the version"},
};
#define MAIN_OPTION_COUNT (sizeof(main_options) / sizeof(main_options[0]))

/* --help, from the table: "  -c, --connections N    open connections (default 10)". */
static void main_usage(void)
{
    fputs("Usage: rackbench-load [options] URL\n"
          "  URL                    http://HOST[:PORT]/PATH or unix:/SOCKET/PATH:/PATH\n",
          stdout);
    for (size_t i = 0; i < MAIN_OPTION_COUNT; i++) {
        const struct main_option *o = &main_options[i];
        char names[64];
        int n = snprintf(names, sizeof(names), "  %c%c%s--%s%s%s", o->letter ? '-' : ' ', o->letter ? o->letter : ' ',
                         o->letter ? ", " : "  ", o->name, o->value ? " " : "", o->value ? o->value : "");
        printf("%s%*s", names, n < MAIN_HELP_COLUMN ? MAIN_HELP_COLUMN - n : 1, "");
        for (const char *p = o->help; *p; p++) {
            putchar(*p);
            if (*p == '\n')
                printf("%*s", MAIN_HELP_COLUMN, "");
        }
        putchar('\n');
    }
}

/* getopt_long's tables from main_options: long options and the letters' string. */
static void main_getopt_tables(struct option *longs, char *letters)
{
    char *l = letters;
    *l++ = ':';
    for (size_t i = 0; i < MAIN_OPTION_COUNT; i++) {
        const struct main_option *o = &main_options[i];
        longs[i] = (struct option){o->name, o->value ? required_argument : no_argument, NULL,
                                   (int)(MAIN_OPTION_VALUE_BASE + i)};
        if (o->letter) {
            *l++ = o->letter;
            if (o->value)
                *l++ = ':';
        }
    }
    longs[MAIN_OPTION_COUNT] = (struct option){NULL, 0, NULL, 0};
    *l = '\0';
}

/* The table entry getopt_long's value names: a letter or MAIN_OPTION_VALUE_BASE + index; NULL if none. */
static const struct main_option *main_option_for(int value)
{
    if (value >= MAIN_OPTION_VALUE_BASE && value < MAIN_OPTION_VALUE_BASE + (int)MAIN_OPTION_COUNT)
        return &main_options[value - MAIN_OPTION_VALUE_BASE];
    for (size_t i = 0; i < MAIN_OPTION_COUNT; i++)
        if (main_options[i].letter && main_options[i].letter == value)
            return &main_options[i];
    return NULL;
}

/* Serialize one request per path: the bytes every send writes. */
static void main_build_requests(config_t *cfg)
{
    cfg->request_count = cfg->path_count;
    cfg->requests = calloc((size_t)cfg->path_count, sizeof(char *));
    cfg->request_lens = calloc((size_t)cfg->path_count, sizeof(size_t));
    if (!cfg->requests || !cfg->request_lens)
        main_die("out of memory");
    for (int i = 0; i < cfg->path_count; i++) {
        size_t len = 0;
        char *buf = request_serialize(cfg->method, cfg->target.host, cfg->headers, cfg->header_count, cfg->body,
                                      cfg->body_len, cfg->paths[i], &len);
        if (!buf)
            main_die("out of memory");
        cfg->requests[i] = buf;
        cfg->request_lens[i] = len;
        if (len > WORKER_NODELAY_MIN_REQUEST_BYTES)
            cfg->target.nodelay = 1;
    }
    if (mix_finish(cfg) < 0)
        main_die("out of memory");
    if (cfg->endpoint_count)
        cfg->head_request = 0; /* each endpoint says whether it is HEAD (mix_endpoint_t.head) */
    for (int e = 0; e < cfg->endpoint_count; e++)
        for (int p = 0; p < cfg->endpoints[e].path_count; p++)
            if (cfg->endpoints[e].request_lens[p] > WORKER_NODELAY_MIN_REQUEST_BYTES)
                cfg->target.nodelay = 1;
    if (cfg->slow.connections && cfg->slow.send_bytes_per_s > 0)
        cfg->target.nodelay = 1; /* paced pieces go out as written, not held for coalescing */
}

/* The defaults, and argv kept as given (getopt_long permutes it), for the record. */
static void main_defaults(config_t *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->argc = argc;
    cfg->argv = calloc((size_t)argc + 1, sizeof(char *));
    if (!cfg->argv)
        main_die("out of memory");
    memcpy(cfg->argv, argv, (size_t)argc * sizeof(char *));
    cfg->connections = CONFIG_DEFAULT_CONNECTIONS;
    cfg->threads = CONFIG_DEFAULT_THREADS;
    cfg->timeout_ns = CONFIG_DEFAULT_TIMEOUT_NS;
    cfg->interval_ns = CONFIG_DEFAULT_INTERVAL_NS;
    cfg->method = "GET";
    cfg->headers = calloc((size_t)argc + 1, sizeof(char *));
    cfg->paths = calloc((size_t)argc + 1, sizeof(char *));
    if (!cfg->headers || !cfg->paths)
        main_die("out of memory");
    cfg->seed = MAIN_DEFAULT_SEED;
    cfg->grace_ns = CONFIG_DEFAULT_GRACE_NS;
    answer_init(&cfg->expect);
}

/* What no single option can check: the URL, and the options taken together. */
static void main_check(config_t *cfg, int argc, char **argv, const main_seen_t *seen)
{
    if (optind >= argc)
        main_die("no target URL given (see --help)");
    if (optind + 1 < argc)
        main_die("one target URL expected, got also %s", argv[optind + 1]);
    cfg->url = argv[optind];
    if (cfg->threads > MAIN_MAX_THREADS)
        main_die("at most %d threads", MAIN_MAX_THREADS);
    if (cfg->timeout_ns == 0 || cfg->interval_ns == 0)
        main_die("--timeout and --interval must be above 0");
    if (seen->arrivals && cfg->rate_per_s <= 0)
        main_die("--arrivals needs --rate: arrivals are the open loop's schedule");
    if ((cfg->slow.send_bytes_per_s > 0 || cfg->slow.read_bytes_per_s > 0) && !cfg->slow.connections)
        main_die("--slow-send and --slow-read need --slow-connections N: the connections they pace");
    if (!seen->duration)
        cfg->duration_ns = cfg->requests_limit ? UINT64_MAX : CONFIG_DEFAULT_DURATION_NS;
    cfg->stall_ns = schedule_stall_ns(cfg->timeout_ns, cfg->stall_ns);
    if (cfg->duration_ns == 0)
        main_die("-d must be above 0");
    cfg->head_request = strcmp(cfg->method, "HEAD") == 0;
    char err[512];
    if (net_parse_target(cfg->url, cfg->allow_remote, &cfg->target, err, sizeof(err)) < 0)
        main_die("%s", err);
    if (cfg->path_count == 0)
        cfg->paths[cfg->path_count++] = cfg->target.path;
}

static void main_parse(config_t *cfg, int argc, char **argv)
{
    struct option longs[MAIN_OPTION_COUNT + 1];
    char letters[2 * MAIN_OPTION_COUNT + 2];
    main_getopt_tables(longs, letters);
    main_defaults(cfg, argc, argv);
    main_seen_t seen = {0};
    opterr = 0;
    int value;
    while ((value = getopt_long(argc, argv, letters, longs, NULL)) != -1) {
        if (value == ':')
            main_die("option %s needs a value (see --help)", argv[optind - 1]);
        const struct main_option *o = main_option_for(value);
        if (!o)
            main_die("unknown option %s (see --help)", argv[optind - 1]);
        o->set(cfg, optarg, &seen);
    }
    main_check(cfg, argc, argv, &seen);
}

static void main_raise_fd_limit(uint64_t connections)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return;
    rlim_t need = (rlim_t)(connections + MAIN_SPARE_FDS);
    if (rl.rlim_cur >= need)
        return;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
        rl.rlim_cur = need;
        rl.rlim_max = need;
        if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
            return; /* allowed to raise the hard limit (root) */
        main_die("%llu connections need %llu file descriptors, the hard limit is %llu (ulimit -Hn)",
                 (unsigned long long)connections, (unsigned long long)need, (unsigned long long)rl.rlim_max);
    }
    rl.rlim_cur = need;
    if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
        main_die("cannot raise the file-descriptor limit to %llu: %s", (unsigned long long)need, strerror(errno));
}

static void main_on_signal(int sig)
{
    (void)sig;
    worker_stop();
}

int main(int argc, char **argv)
{
    config_t cfg;
    main_parse(&cfg, argc, argv);
    main_raise_fd_limit(config_connections(&cfg));
    main_build_requests(&cfg);

    char err[512];
    uint64_t probe_ms = cfg.timeout_ns / 1000000ULL;
    if (probe_ms > NET_PROBE_TIMEOUT_MS || probe_ms == 0)
        probe_ms = NET_PROBE_TIMEOUT_MS;
    if (net_probe(&cfg.target, (int)probe_ms, err, sizeof(err)) < 0)
        main_die("%s", err);

    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {0};
    sa.sa_handler = main_on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    run_result_t result;
    memset(&result, 0, sizeof(result));
    if (worker_run(&cfg, &result, err, sizeof(err)) < 0)
        main_die("%s", err);
    if (cfg.json)
        output_json(stdout, &cfg, &result);
    else
        output_human(stdout, &cfg, &result);
    fflush(stdout);
    return 0;
}
