/*
 * answer.h - the check each answer is held to, as the engine is given it:
 * the expected statuses (codes and ranges) and a substring the body must
 * contain. rackbench decides the rule (its AnswerRule) and passes it as
 * --expect-status and --expect-body; the engine applies it and counts.
 *
 *     answer_t a;
 *     answer_init(&a);
 *     answer_parse_statuses(&a, "200-399");      (0, or -1 when malformed)
 *     answer_judge(&a, 500, body_found);         -> ANSWER_STATUS
 *
 * Without --expect-status every status is accepted (the engine has no rule
 * of its own; status_counts still count each code).
 */
#ifndef RACKBENCH_ANSWER_H
#define RACKBENCH_ANSWER_H

#include <stddef.h>

/* Status codes the engine tells apart (status_counts, checks): 0..599. */
#define ANSWER_STATUS_CODES 600

enum answer_verdict {
    ANSWER_OK,     /* the status is expected and the body (if checked) contains the substring */
    ANSWER_STATUS, /* the status is not one of the expected */
    ANSWER_CHECK   /* the status is expected, the body lacks the substring */
};

typedef struct answer {
    int statuses_given;                          /* --expect-status was given */
    unsigned char status[ANSWER_STATUS_CODES];   /* 1: this status is expected */
    const char *body;                            /* --expect-body, or NULL */
    size_t body_len;
} answer_t;

/* answer_init - no check: every status, any body. */
void answer_init(answer_t *a);

/*
 * answer_parse_statuses - "200", "200,204", "200-399" or "200-299,404":
 * replaces the expected statuses. Returns 0, or -1 (a unchanged) when a code
 * is outside 100..599, a range runs backwards or the text is malformed.
 */
int answer_parse_statuses(answer_t *a, const char *text);

/* answer_judge - the verdict (enum answer_verdict) on a response's status and whether its body held the substring. */
int answer_judge(const answer_t *a, int status, int body_found);

#endif
