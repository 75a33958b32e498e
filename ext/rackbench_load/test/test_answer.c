/*
 * test_answer.c - the answer check: statuses as codes and ranges, the body
 * substring, and the verdicts counted apart (status, then check).
 */
#include "answer.h"
#include "test.h"

int main(void)
{
    answer_t a;
    answer_init(&a);
    CHECK(answer_judge(&a, 500, 0) == ANSWER_OK); /* no rule of its own: any status */

    CHECK(answer_parse_statuses(&a, "200-399") == 0);
    CHECK(answer_judge(&a, 200, 0) == ANSWER_OK);
    CHECK(answer_judge(&a, 399, 0) == ANSWER_OK);
    CHECK(answer_judge(&a, 404, 0) == ANSWER_STATUS);
    CHECK(answer_judge(&a, 199, 0) == ANSWER_STATUS);

    CHECK(answer_parse_statuses(&a, "201,204,300-302") == 0); /* replaces the range */
    CHECK(answer_judge(&a, 200, 0) == ANSWER_STATUS);
    CHECK(answer_judge(&a, 204, 0) == ANSWER_OK);
    CHECK(answer_judge(&a, 301, 0) == ANSWER_OK);
    CHECK(answer_judge(&a, 303, 0) == ANSWER_STATUS);

    static const char *bad[] = {"", "99", "600", "200-", "300-200", "200,", "2OO", "200;204", "-200"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        CHECK(answer_parse_statuses(&a, bad[i]) == -1);
    CHECK(answer_judge(&a, 204, 0) == ANSWER_OK); /* a bad list leaves the check as it was */

    a.body = "hello";
    a.body_len = 5;
    CHECK(answer_judge(&a, 204, 1) == ANSWER_OK);
    CHECK(answer_judge(&a, 204, 0) == ANSWER_CHECK);
    CHECK(answer_judge(&a, 500, 0) == ANSWER_STATUS); /* one verdict per answer: the status first */
    return test_summary("answer");
}
