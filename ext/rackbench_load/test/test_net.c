/* test_net.c - target parsing: schemes, ports, paths, unix sockets, loopback only. */
#include <netinet/in.h>
#include <string.h>

#include "net.h"
#include "test.h"

static int ok(const char *url, int allow_remote, net_target_t *t)
{
    char err[256] = "";
    int rc = net_parse_target(url, allow_remote, t, err, sizeof(err));
    if (rc == 0)
        CHECK(err[0] == '\0');
    else
        CHECK(err[0] != '\0' && strchr(err, '\n') == NULL);
    return rc == 0;
}

int main(void)
{
    net_target_t t;
    CHECK(ok("http://127.0.0.1:9292/hello?x=1", 0, &t));
    CHECK(strcmp(t.path, "/hello?x=1") == 0);
    CHECK(strcmp(t.host, "127.0.0.1:9292") == 0);
    CHECK(ntohs(((struct sockaddr_in *)&t.addr)->sin_port) == 9292);
    CHECK(t.ops == &net_tcp_ops && !t.is_unix);
    net_target_free(&t);

    CHECK(ok("http://localhost", 0, &t));
    CHECK(strcmp(t.path, "/") == 0 && strcmp(t.host, "localhost") == 0);
    net_target_free(&t);

    CHECK(ok("http://[::1]:8080/", 0, &t));
    CHECK(t.addr.ss_family == AF_INET6 && strcmp(t.host, "[::1]:8080") == 0);
    net_target_free(&t);

    CHECK(ok("http://127.3.4.5:1/", 0, &t));
    net_target_free(&t);

    CHECK(ok("unix:/tmp/app.sock:/hello", 0, &t));
    CHECK(t.is_unix && t.ops == &net_unix_ops);
    CHECK(strcmp(t.unix_path, "/tmp/app.sock") == 0 && strcmp(t.path, "/hello") == 0);
    net_target_free(&t);

    CHECK(ok("unix:/tmp/app.sock", 0, &t));
    CHECK(strcmp(t.path, "/") == 0);
    net_target_free(&t);

    /* refused: remote hosts (no DNS lookup), bad schemes, bad ports */
    CHECK(!ok("http://10.0.0.1/", 0, &t));
    CHECK(!ok("http://example.com/", 0, &t));
    CHECK(!ok("http://[2001:db8::1]/", 0, &t));
    CHECK(ok("http://10.0.0.1/", 1, &t));
    net_target_free(&t);
    CHECK(!ok("https://127.0.0.1/", 0, &t));
    CHECK(!ok("ftp://127.0.0.1/", 0, &t));
    CHECK(!ok("127.0.0.1:80/", 0, &t));
    CHECK(!ok("http://127.0.0.1:0/", 0, &t));
    CHECK(!ok("http://127.0.0.1:65536/", 0, &t));
    CHECK(!ok("http://127.0.0.1:8x/", 0, &t));
    CHECK(!ok("http://:80/", 0, &t));
    CHECK(!ok("http://user@127.0.0.1/", 0, &t));
    CHECK(!ok("unix:", 0, &t));
    CHECK(!ok("unix::/hello", 0, &t));

    net_target_t lo;
    CHECK(ok("http://127.0.0.1:1/", 0, &lo));
    CHECK(net_is_loopback((struct sockaddr *)&lo.addr));
    char err[256];
    /* port 1 on loopback: nobody listens there */
    CHECK(net_probe(&lo, 500, err, sizeof(err)) == -1);
    CHECK(strstr(err, "refused") != NULL);
    net_target_free(&lo);
    CHECK(ok("unix:/nonexistent/rackbench.sock:/", 0, &lo));
    CHECK(net_probe(&lo, 500, err, sizeof(err)) == -1);
    CHECK(strstr(err, "No such file") != NULL);
    net_target_free(&lo);
    return test_summary("net");
}
