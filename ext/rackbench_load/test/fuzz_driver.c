/*
 * fuzz_driver.c - a stand-in for libFuzzer: random mutations of the seed
 * corpus for a bounded time, run under ASan/UBSan.
 *
 *     ./test/fuzz_http SECONDS CORPUS_DIR
 *
 * Mutations: flip, insert, delete, duplicate a span, splice in a token
 * from the HTTP dictionary. Crashes abort (the sanitizers print where).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_SEEDS 256
#define FUZZ_MAX_INPUT_BYTES 4096

static const char *fuzz_tokens[] = {"HTTP/1.1 ", "HTTP/1.0 ", "200 OK", "\r\n", "\r\n\r\n", "Content-Length: ",
                                    "Transfer-Encoding: chunked", "Connection: close", "0\r\n\r\n", "ffffffff",
                                    ":", " ", "100 Continue", "204", "304", "\n", ";x=y"};

static uint64_t fuzz_state = 88172645463325252ULL;
static uint64_t fuzz_rand(void)
{
    fuzz_state ^= fuzz_state << 13;
    fuzz_state ^= fuzz_state >> 7;
    fuzz_state ^= fuzz_state << 17;
    return fuzz_state;
}

static size_t fuzz_mutate(uint8_t *buf, size_t len, size_t cap)
{
    int rounds = 1 + (int)(fuzz_rand() % 4);
    for (int r = 0; r < rounds; r++) {
        size_t at = len ? fuzz_rand() % len : 0;
        switch (fuzz_rand() % 5) {
        case 0:
            if (len)
                buf[at] ^= (uint8_t)(1u << (fuzz_rand() % 8));
            break;
        case 1:
            if (len < cap) {
                memmove(buf + at + 1, buf + at, len - at);
                buf[at] = (uint8_t)fuzz_rand();
                len++;
            }
            break;
        case 2:
            if (len) {
                size_t n = 1 + fuzz_rand() % 8;
                if (n > len - at)
                    n = len - at;
                memmove(buf + at, buf + at + n, len - at - n);
                len -= n;
            }
            break;
        case 3: {
            size_t n = len ? 1 + fuzz_rand() % 32 : 0;
            if (n > len - at)
                n = len - at;
            if (len + n <= cap) {
                memmove(buf + at + n, buf + at, len - at);
                len += n;
            }
            break;
        }
        default: {
            const char *t = fuzz_tokens[fuzz_rand() % (sizeof(fuzz_tokens) / sizeof(fuzz_tokens[0]))];
            size_t n = strlen(t);
            if (len + n <= cap) {
                memmove(buf + at + n, buf + at, len - at);
                memcpy(buf + at, t, n);
                len += n;
            }
        }
        }
    }
    return len;
}

int main(int argc, char **argv)
{
    if (argc > 1 && argv[1][0] == '-') {
        fprintf(stderr, "fuzz_http: the stand-in driver takes SECONDS CORPUS_DIR, not libFuzzer flags\n");
        return 2;
    }
    double seconds = argc > 1 ? atof(argv[1]) : 10;
    const char *dir = argc > 2 ? argv[2] : "test/fuzz_corpus";
    static uint8_t seeds[FUZZ_MAX_SEEDS][FUZZ_MAX_INPUT_BYTES];
    static size_t seed_lens[FUZZ_MAX_SEEDS];
    int nseeds = 0;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) && nseeds < FUZZ_MAX_SEEDS) {
            if (e->d_name[0] == '.')
                continue;
            char path[1024];
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            FILE *f = fopen(path, "rb");
            if (!f)
                continue;
            seed_lens[nseeds] = fread(seeds[nseeds], 1, FUZZ_MAX_INPUT_BYTES, f);
            fclose(f);
            nseeds++;
        }
        closedir(d);
    }
    if (nseeds == 0) {
        memcpy(seeds[0], " HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", 42);
        seed_lens[0] = 42;
        nseeds = 1;
    }
    fuzz_state ^= (uint64_t)time(NULL);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    uint8_t input[FUZZ_MAX_INPUT_BYTES];
    unsigned long long runs = 0;
    for (;;) {
        for (int i = 0; i < 1000; i++) {
            int s = (int)(fuzz_rand() % (uint64_t)nseeds);
            memcpy(input, seeds[s], seed_lens[s]);
            size_t len = fuzz_mutate(input, seed_lens[s], sizeof(input));
            LLVMFuzzerTestOneInput(input, len);
            runs++;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 >= seconds)
            break;
    }
    printf("fuzz_http: %llu inputs in %.0fs, no crash\n", runs, seconds);
    return 0;
}
