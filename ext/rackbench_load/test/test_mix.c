/*
 * test_mix.c - the traffic mix: options grouped per endpoint, exact shares
 * by weight, paths in turn or at random (seeded), HEAD endpoints, checks and
 * counts per endpoint.
 */
#include <string.h>

#include "config.h"
#include "mix.h"
#include "test.h"

static config_t test_config(void)
{
    static const char *headers[8];
    static const char *paths[8];
    config_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.method = "GET";
    cfg.headers = headers;
    cfg.paths = paths;
    strcpy(cfg.target.host, "127.0.0.1:9292");
    cfg.target.path = (char *)"/";
    return cfg;
}

/* --path-order random: an endpoint's paths drawn at random from the seed, the
 * same draws from the same seed; a HEAD endpoint says so. */
static void draw(mix_worker_t *m, const config_t *cfg, uint64_t seed, char *seen, size_t n)
{
    m->rng = seed;
    for (size_t i = 0; i < n; i++) {
        const char *req;
        size_t len;
        int e = mix_pick(m, cfg, &req, &len);
        seen[i] = e == 0 ? req[strlen("GET /items/")] : 'H';
    }
}

static void test_random_paths_and_head(void)
{
    config_t cfg = test_config();
    cfg.paths_random = 1;
    CHECK(mix_begin(&cfg, "item") == 0);
    cfg.paths[cfg.path_count++] = "/items/1";
    cfg.paths[cfg.path_count++] = "/items/2";
    cfg.paths[cfg.path_count++] = "/items/3";
    cfg.paths[cfg.path_count++] = "/items/4";
    CHECK(mix_begin(&cfg, "check") == 0);
    cfg.method = "HEAD";
    CHECK(mix_finish(&cfg) == 0);
    CHECK(cfg.endpoints[0].paths_random);
    CHECK(!cfg.endpoints[0].head);
    CHECK(cfg.endpoints[1].head);

    mix_worker_t m;
    CHECK(mix_worker_init(&m, &cfg) == 0);
    char first[400], again[400], other[400];
    draw(&m, &cfg, 7, first, sizeof(first));
    draw(&m, &cfg, 7, again, sizeof(again));
    draw(&m, &cfg, 8, other, sizeof(other));
    CHECK(memcmp(first, again, sizeof(first)) == 0);
    CHECK(memcmp(first, other, sizeof(first)) != 0);
    int count[5] = {0, 0, 0, 0, 0};
    int in_turn = 1;
    char last = 0;
    for (size_t i = 0; i < sizeof(first); i++) {
        if (first[i] == 'H')
            continue;
        count[first[i] - '0']++;
        if (last && first[i] != (last == '4' ? '1' : last + 1))
            in_turn = 0;
        last = first[i];
    }
    for (int id = 1; id <= 4; id++)
        CHECK(count[id] > 25); /* 200 draws over 4 paths: each near 50 (sd 6), none absent */
    CHECK(!in_turn);
    mix_worker_free(&m, &cfg);
}

int main(void)
{
    config_t cfg = test_config();
    /* a default header, then: home x3 (two paths), create x1 (POST, its own checks) */
    cfg.headers[cfg.header_count++] = "Cookie: a=b";
    CHECK(answer_parse_statuses(&cfg.expect, "200-399") == 0); /* every endpoint's, unless its own */
    CHECK(mix_weight(&cfg, "3") < 0); /* no endpoint yet */
    CHECK(mix_begin(&cfg, "home") == 0);
    CHECK(mix_weight(&cfg, "3") == 0);
    cfg.paths[cfg.path_count++] = "/a";
    cfg.paths[cfg.path_count++] = "/b";
    CHECK(mix_begin(&cfg, "create") == 0);
    CHECK(mix_weight(&cfg, "0") < 0);
    cfg.method = "POST";
    cfg.body = "{}";
    cfg.body_len = 2;
    CHECK(answer_parse_statuses(&cfg.expect, "201") == 0); /* replaces the defaults' 200-399 */
    CHECK(mix_finish(&cfg) == 0);
    CHECK_EQ_U(cfg.endpoint_count, 2);
    CHECK(strcmp(cfg.endpoints[0].method, "GET") == 0);
    CHECK_EQ_U(cfg.endpoints[1].path_count, 1);
    CHECK(strcmp(cfg.endpoints[1].paths[0], "/") == 0); /* the URL's path when it names none */
    CHECK(strstr(cfg.endpoints[1].requests[0], "POST / HTTP/1.1\r\n") == cfg.endpoints[1].requests[0]);
    CHECK(strstr(cfg.endpoints[1].requests[0], "Cookie: a=b\r\n") != NULL);
    CHECK(strstr(cfg.endpoints[1].requests[0], "Content-Length: 2\r\n\r\n{}") != NULL);
    CHECK(strstr(cfg.endpoints[0].requests[1], "GET /b HTTP/1.1\r\n") != NULL);

    mix_worker_t m;
    CHECK(mix_worker_init(&m, &cfg) == 0);
    int picked[2] = {0, 0};
    int a_then_b = 1;
    const char *last_home = NULL;
    for (int i = 0; i < 400; i++) {
        const char *req;
        size_t len;
        int e = mix_pick(&m, &cfg, &req, &len);
        picked[e]++;
        if (e == 0) {
            if (last_home && strncmp(last_home, req, 7) == 0)
                a_then_b = 0;
            last_home = req;
        }
        mix_record(&m, e, 100 + (uint64_t)e * 900, answer_judge(mix_expect(&cfg, e), 200, 0));
        if (i % 4 == 0)
            mix_censor(&m, e, CENSOR_UNSENT, 5000);
    }
    CHECK_EQ_U(picked[0], 300);
    CHECK_EQ_U(picked[1], 100);
    CHECK(a_then_b);
    CHECK_EQ_U(m.stats[0].err_status, 0);
    CHECK_EQ_U(m.stats[1].err_status, 100); /* 200 is not the 201 it expects */
    CHECK_EQ_U(m.stats[1].err_check, 0);
    CHECK(answer_judge(mix_expect(&cfg, 1), 201, 0) == ANSWER_OK);
    CHECK(answer_judge(mix_expect(&cfg, 0), 302, 0) == ANSWER_OK);   /* the defaults' range */
    CHECK(answer_judge(mix_expect(&cfg, 0), 404, 0) == ANSWER_STATUS);

    mix_stats_t *merged = mix_stats_new(&cfg);
    mix_stats_merge(merged, &m, &cfg);
    mix_stats_merge(merged, &m, &cfg);
    CHECK_EQ_U(merged[0].requests, 600);
    CHECK_EQ_U(hist_percentile(merged[1].latency_us, 50) / 100, 10);
    /* censored requests merge per endpoint, exactly: every 4th pick, twice over */
    CHECK_EQ_U(censor_total(&merged[0].cohort) + censor_total(&merged[1].cohort), 200);
    CHECK_EQ_U(merged[0].cohort.count[CENSOR_UNSENT] + merged[1].cohort.count[CENSOR_UNSENT], 200);
    CHECK_EQ_U(merged[0].cohort.age_us->total + merged[1].cohort.age_us->total, 200);
    mix_stats_free(merged, &cfg);
    mix_worker_free(&m, &cfg);
    test_random_paths_and_head();
    return test_summary("mix");
}
