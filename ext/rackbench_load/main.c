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
#define MAIN_OPT_STALL_TIMEOUT 1001 /* long options without a letter */
#define MAIN_OPT_ARRIVALS 1002
#define MAIN_OPT_SEED 1003
#define MAIN_OPT_GRACE 1004
#define MAIN_OPT_PATH_ORDER 1005
#define MAIN_DEFAULT_SEED 1

static const char main_usage[] =
    "Usage: rackbench-load [options] URL\n"
    "  URL                    http://HOST[:PORT]/PATH or unix:/SOCKET/PATH:/PATH\n"
    "  -c, --connections N    open connections (default 10)\n"
    "  -t, --threads N        load threads (default 1)\n"
    "  -d, --duration T       counted duration: 10s, 500ms, 2m (default 10s)\n"
    "      --warmup T         apply load for T first, not counted\n"
    "  -R, --rate R           open loop at R requests/s in total (latency from scheduled send)\n"
    "      --arrivals A       open loop: uniform (evenly spaced, the default) or poisson (random)\n"
    "      --seed N           poisson arrivals and random paths: the generators' seed (default 1): same seed, same draws\n"
    "      --timeout T        a request without a full response after T is a timeout (default 2s)\n"
    "      --grace T          after the window, how long its requests still waiting may complete\n"
    "                         (default 1s); those that do not are censored at their age then\n"
    "  -n, --requests N       stop after N counted requests\n"
    "      --stall-timeout T  with -n and no -d: end the run after T without a response\n"
    "                         (default twice --timeout, at least 10s)\n"
    "      --interval T       time-series interval (default 1s)\n"
    "  -H, --header 'N: V'    add a request header (repeatable)\n"
    "  -m, --method M         request method (default GET)\n"
    "      --body S           request body\n"
    "      --path P           request path, repeatable: taken in turn\n"
    "      --path-order O     turn (the default) or random: each request's path drawn at random, from --seed\n"
    "      --expect-status C  expected status code(s), e.g. 200 or 200,204\n"
    "      --expect-body S    the body must contain S\n"
    "      --endpoint NAME    start an endpoint of a traffic mix: the request options after it are its own\n"
    "      --weight N         the current endpoint's weight in the mix (default 1)\n"
    "      --json             print the result as JSON\n"
    "      --allow-remote     allow targets other than loopback and unix sockets\n"
    "      --request-start    stamp each request 'X-Request-Start: t=<microseconds since the epoch>' as it is sent\n"
    "  -h, --help             this text\n"
    "  -v, --version          the version\n";

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

static void main_expect_status(config_t *cfg, const char *s)
{
    const char *p = s;
    while (*p) {
        char *end;
        long code = strtol(p, &end, 10);
        if (end == p || code < 100 || code > 599 || cfg->expect_status_count >= CONFIG_MAX_EXPECT_STATUS)
            main_die("bad --expect-status %s: expected codes such as 200 or 200,204", s);
        cfg->expect_status[cfg->expect_status_count++] = (int)code;
        p = end;
        if (*p == ',')
            p++;
        else if (*p)
            main_die("bad --expect-status %s: expected codes such as 200 or 200,204", s);
    }
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
}

static void main_parse(config_t *cfg, int argc, char **argv)
{
    static const struct option options[] = {
        {"connections", required_argument, NULL, 'c'},
        {"threads", required_argument, NULL, 't'},
        {"duration", required_argument, NULL, 'd'},
        {"warmup", required_argument, NULL, 'W'},
        {"rate", required_argument, NULL, 'R'},
        {"timeout", required_argument, NULL, 'T'},
        {"requests", required_argument, NULL, 'n'},
        {"stall-timeout", required_argument, NULL, MAIN_OPT_STALL_TIMEOUT},
        {"arrivals", required_argument, NULL, MAIN_OPT_ARRIVALS},
        {"seed", required_argument, NULL, MAIN_OPT_SEED},
        {"grace", required_argument, NULL, MAIN_OPT_GRACE},
        {"path-order", required_argument, NULL, MAIN_OPT_PATH_ORDER},
        {"interval", required_argument, NULL, 'I'},
        {"header", required_argument, NULL, 'H'},
        {"method", required_argument, NULL, 'm'},
        {"body", required_argument, NULL, 'B'},
        {"path", required_argument, NULL, 'P'},
        {"expect-status", required_argument, NULL, 'S'},
        {"expect-body", required_argument, NULL, 'E'},
        {"endpoint", required_argument, NULL, 'X'},
        {"weight", required_argument, NULL, 'w'},
        {"json", no_argument, NULL, 'J'},
        {"allow-remote", no_argument, NULL, 'A'},
        {"request-start", no_argument, NULL, 'Q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'v'},
        {NULL, 0, NULL, 0},
    };
    memset(cfg, 0, sizeof(*cfg));
    /* getopt_long permutes argv: keep the order as given, for the record */
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
    cfg->headers = calloc((size_t)argc, sizeof(char *));
    cfg->paths = calloc((size_t)argc + 1, sizeof(char *));
    if (!cfg->headers || !cfg->paths)
        main_die("out of memory");
    int duration_set = 0;
    int arrivals_set = 0;
    cfg->seed = MAIN_DEFAULT_SEED;
    cfg->grace_ns = CONFIG_DEFAULT_GRACE_NS;

    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":c:t:d:R:n:H:m:hv", options, NULL)) != -1) {
        switch (opt) {
        case 'c': cfg->connections = main_count("-c", optarg, 1); break;
        case 't': cfg->threads = (int)main_count("-t", optarg, 1); break;
        case 'd':
            cfg->duration_ns = main_duration("-d", optarg);
            duration_set = 1;
            break;
        case 'W': cfg->warmup_ns = main_duration("--warmup", optarg); break;
        case 'R': {
            double r;
            if (units_parse_count(optarg, &r) < 0 || r <= 0)
                main_die("bad --rate %s: expected requests per second above 0, e.g. 5000 or 5k", optarg);
            cfg->rate_per_s = r;
            break;
        }
        case 'T': cfg->timeout_ns = main_duration("--timeout", optarg); break;
        case 'n': cfg->requests_limit = main_count("-n", optarg, 1); break;
        case MAIN_OPT_STALL_TIMEOUT: cfg->stall_ns = main_duration("--stall-timeout", optarg); break;
        case MAIN_OPT_ARRIVALS:
            cfg->arrivals = schedule_parse_arrivals(optarg);
            if (cfg->arrivals < 0)
                main_die("bad --arrivals %s: expected uniform or poisson", optarg);
            arrivals_set = 1;
            break;
        case MAIN_OPT_SEED: cfg->seed = main_count("--seed", optarg, 0); break;
        case MAIN_OPT_GRACE: cfg->grace_ns = main_duration("--grace", optarg); break;
        case MAIN_OPT_PATH_ORDER:
            if (strcmp(optarg, "turn") != 0 && strcmp(optarg, "random") != 0)
                main_die("bad --path-order %s: expected turn or random", optarg);
            cfg->paths_random = strcmp(optarg, "random") == 0;
            break;
        case 'I': cfg->interval_ns = main_duration("--interval", optarg); break;
        case 'H':
            if (!strchr(optarg, ':') || strpbrk(optarg, "\r\n") || optarg[0] == ':')
                main_die("bad header %s: expected 'Name: value' on one line", optarg);
            cfg->headers[cfg->header_count++] = optarg;
            break;
        case 'm':
            for (const char *p = optarg; *p; p++)
                if (*p <= ' ' || *p >= 127)
                    main_die("bad method %s", optarg);
            if (!*optarg)
                main_die("empty method");
            cfg->method = optarg;
            break;
        case 'B':
            cfg->body = optarg;
            cfg->body_len = strlen(optarg);
            break;
        case 'P':
            if (optarg[0] != '/' || strpbrk(optarg, " \t\r\n"))
                main_die("bad --path %s: expected a path starting with '/' and no spaces", optarg);
            cfg->paths[cfg->path_count++] = optarg;
            break;
        case 'S': main_expect_status(cfg, optarg); break;
        case 'E':
            cfg->expect_body = optarg;
            cfg->expect_body_len = strlen(optarg);
            if (cfg->expect_body_len == 0 || cfg->expect_body_len > HTTP_EXPECT_MAX_BYTES)
                main_die("bad --expect-body: 1 to %d bytes", HTTP_EXPECT_MAX_BYTES);
            break;
        case 'X':
            if (mix_begin(cfg, optarg) < 0)
                main_die("bad --endpoint %s: a name, at most %d endpoints", optarg, MIX_MAX_ENDPOINTS);
            break;
        case 'w':
            if (mix_weight(cfg, optarg) < 0)
                main_die("bad --weight %s: a whole number from 1 to 1000000, after an --endpoint", optarg);
            break;
        case 'J': cfg->json = 1; break;
        case 'A': cfg->allow_remote = 1; break;
        case 'Q': cfg->request_start = 1; break;
        case 'h': fputs(main_usage, stdout); exit(0);
        case 'v': printf("rackbench-load %s\n", MAIN_VERSION); exit(0);
        case ':': main_die("option %s needs a value (see --help)", argv[optind - 1]);
        default: main_die("unknown option %s (see --help)", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        main_die("no target URL given (see --help)");
    if (optind + 1 < argc)
        main_die("one target URL expected, got also %s", argv[optind + 1]);
    cfg->url = argv[optind];
    if (cfg->threads > MAIN_MAX_THREADS)
        main_die("at most %d threads", MAIN_MAX_THREADS);
    if (cfg->timeout_ns == 0 || cfg->interval_ns == 0)
        main_die("--timeout and --interval must be above 0");
    if (arrivals_set && cfg->rate_per_s <= 0)
        main_die("--arrivals needs --rate: arrivals are the open loop's schedule");
    if (!duration_set)
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
    main_raise_fd_limit(cfg.connections);
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
