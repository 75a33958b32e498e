/*
 * answer.c - the check each answer is held to, see answer.h.
 */
#include "answer.h"

#include <stdlib.h>
#include <string.h>

void answer_init(answer_t *a)
{
    memset(a, 0, sizeof(*a));
}

/* One code at *p (100..599); -1 when there is none. */
static long answer_code(const char **p)
{
    char *end;
    long code = strtol(*p, &end, 10);
    if (end == *p || code < 100 || code > 599)
        return -1;
    *p = end;
    return code;
}

int answer_parse_statuses(answer_t *a, const char *text)
{
    unsigned char status[ANSWER_STATUS_CODES] = {0};
    const char *p = text;
    if (!*p)
        return -1;
    while (*p) {
        long low = answer_code(&p), high = low;
        if (low < 0)
            return -1;
        if (*p == '-') {
            p++;
            high = answer_code(&p);
            if (high < low)
                return -1;
        }
        for (long code = low; code <= high; code++)
            status[code] = 1;
        if (*p == ',' && p[1])
            p++;
        else if (*p)
            return -1;
    }
    memcpy(a->status, status, sizeof(status));
    a->statuses_given = 1;
    return 0;
}

int answer_judge(const answer_t *a, int status, int body_found)
{
    if (a->statuses_given && (status < 0 || status >= ANSWER_STATUS_CODES || !a->status[status]))
        return ANSWER_STATUS;
    if (a->body_len && !body_found)
        return ANSWER_CHECK;
    return ANSWER_OK;
}
