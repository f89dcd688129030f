/* The JSON reader: valid documents, escapes, and hostile input (deep
   nesting, huge numbers, invalid UTF-8, truncation) rejected with a
   position, never a crash. */
#include "check.h"
#include "internal.h"
#include "../src/tools/common/json.h"

static prof_json * parse(const char * text, char * err)
{
    return prof_impl_json_parse(text, strlen(text), err, 160);
}

/* The parse fails and the message contains want. */
static void bad(const char * text, const char * want)
{
    char err[160];
    prof_json * j = parse(text, err);
    CHECK(j == NULL, "accepted [%s]", text);
    CHECK(strstr(err, want) != NULL, "[%s]: error [%s], expected [%s]", text, err, want);
    prof_impl_json_free(j);
}

/* prof_impl_json_each: the elements one at a time, in order. */
typedef struct { double sum; size_t n, stop_at; char * err; } visit;

static int each(const prof_json * item, size_t index, void * ctx)
{
    visit * v = (visit *) ctx;
    CHECK(index == v->n, "index %lu, expected %lu", (unsigned long) index,
          (unsigned long) v->n);
    v->n++;
    if (item->kind == PROF_JSON_NUMBER)
        v->sum += item->number;
    if (v->n == v->stop_at)
    {
        strcpy(v->err, "stopped by the callback");
        return -1;
    }
    return 0;
}

static int stream(const char * text, size_t stop_at, visit * v, char * err)
{
    memset(v, 0, sizeof *v);
    v->stop_at = stop_at;
    v->err = err;
    return prof_impl_json_each(text, strlen(text), "b", each, v, err, 160);
}

static void test_each(void)
{
    char err[160];
    visit v;
    CHECK(stream("{\"a\": {\"b\": [9]}, \"b\": [1, 2, {\"x\": [3]}, 4], \"c\": 5}",
                 0, &v, err) == 0 && v.n == 4 && v.sum == 7, "%s: %lu items, sum %g",
          err, (unsigned long) v.n, v.sum);
    CHECK(stream("{\"b\": []}", 0, &v, err) == 0 && v.n == 0, "empty array");
    CHECK(stream("{\"a\": [1]}", 0, &v, err) == 1 && v.n == 0, "no b: %s", err);
    CHECK(stream("{\"b\": 3}", 0, &v, err) == 1, "b not an array");
    CHECK(stream("[1, 2]", 0, &v, err) == 1, "not an object");
    CHECK(stream("{\"b\": [1, 2, 3]}", 2, &v, err) == -1 && v.n == 2
          && strcmp(err, "stopped by the callback") == 0, "stop: %s", err);
    CHECK(stream("{\"b\": [1, 2], \"b\": [3]}", 0, &v, err) == -1
          && strstr(err, "a second \"b\" member"), "second b: %s", err);
    CHECK(stream("{\"b\": [1, 2,]}", 0, &v, err) == -1 && v.n == 2
          && strstr(err, "line 1, column 13: invalid value"), "bad element: %s", err);
    CHECK(stream("{\"b\": [1]} x", 0, &v, err) == -1
          && strstr(err, "unexpected text after"), "trailing text: %s", err);
    CHECK(stream("{\"a\": [1, }, \"b\": [1]}", 0, &v, err) == -1 && v.n == 0,
          "other members are checked too: %s", err);
}

int main(void)
{
    char err[160], deep[400];
    prof_json * j;
    const prof_json * v;
    int i;

    j = parse(" {\"a\": [1, -2.5e3, true, false, null, \"x\"], \"b\": {}, \"a\": 7} ", err);
    CHECK(j != NULL && j->kind == PROF_JSON_OBJECT && j->count == 3, "%s", err);
    v = prof_impl_json_get(j, "a");
    CHECK(v != NULL && v->kind == PROF_JSON_NUMBER && v->number == 7, "last duplicate wins");
    v = j ? j->items[0] : NULL;
    CHECK(v != NULL && v->kind == PROF_JSON_ARRAY && v->count == 6, "array");
    if (v != NULL && v->count == 6)
    {
        CHECK(v->items[1]->number == -2500.0, "number %g", v->items[1]->number);
        CHECK(v->items[2]->kind == PROF_JSON_BOOL && v->items[2]->number == 1, "true");
        CHECK(v->items[3]->kind == PROF_JSON_BOOL && v->items[3]->number == 0, "false");
        CHECK(v->items[4]->kind == PROF_JSON_NULL, "null");
        CHECK(strcmp(v->items[5]->string, "x") == 0, "string");
    }
    CHECK(prof_impl_json_get(j, "zz") == NULL, "missing key");
    prof_impl_json_free(j);

    /* Escapes, including a surrogate pair and an embedded NUL. */
    j = parse("\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC\\ud83d\\ude00\\u0000z\"", err);
    CHECK(j != NULL && j->kind == PROF_JSON_STRING, "%s", err);
    if (j != NULL)
    {
        static const char want[] = "a\"\\/\b\f\n\r\t\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\0z";
        CHECK(j->length == sizeof want - 1 && memcmp(j->string, want, sizeof want - 1) == 0,
              "unescaped %lu bytes", (unsigned long) j->length);
    }
    prof_impl_json_free(j);
    j = parse("\xEF\xBB\xBF[\"\xC3\xA9\"]", err);
    CHECK(j != NULL, "BOM and UTF-8: %s", err);
    prof_impl_json_free(j);

    /* Errors say where. */
    bad("{\"a\": 1,\n \"b\" 2}", "line 2, column 6: ':' expected");
    bad("[1, 2", "unexpected end of input");
    bad("", "unexpected end of input");
    bad("[1] x", "unexpected text after");
    bad("{\"a\":1,}", "object key");
    bad("[1,]", "invalid value");
    bad("[01]", "',' or ']' expected");
    bad("[1.]", "digit expected after '.'");
    bad("[1e]", "digit expected in exponent");
    bad("[1e999]", "number out of range");
    bad("[-1e400]", "number out of range");
    bad("[\"abc", "unterminated string");
    bad("[\"a\nb\"]", "control character");
    bad("[\"\xC3\"]", "invalid UTF-8");
    bad("[\"\xED\xA0\x80\"]", "invalid UTF-8");       /* encoded surrogate */
    bad("[\"\xC0\xAF\"]", "invalid UTF-8");           /* overlong */
    bad("[\"\\x\"]", "bad escape");
    bad("[\"\\u12\"]", "bad hex digit");
    bad("[\"\\ud800\"]", "unpaired surrogate");
    bad("[\"\\udc00\"]", "unpaired surrogate");
    bad("[tru]", "invalid value");
    bad("{1:2}", "object key");
    {
        char longnum[100];
        memset(longnum, '1', sizeof longnum);
        longnum[0] = '[';
        longnum[98] = ']';
        longnum[99] = '\0';
        bad(longnum, "number too long");
    }

    /* Nesting: 64 levels are fine, 65 are refused. */
    for (i = 0; i < 64; i++) deep[i] = '[';
    for (i = 0; i < 64; i++) deep[64 + i] = ']';
    deep[128] = '\0';
    j = parse(deep, err);
    CHECK(j != NULL, "64 levels: %s", err);
    prof_impl_json_free(j);
    for (i = 0; i < 200; i++) deep[i] = '[';
    deep[200] = '\0';
    bad(deep, "nested deeper than 64 levels");

    CHECK(prof_impl_json_parse(NULL, 0, err, sizeof err) == NULL, "NULL text");
    test_each();
    return check_report("test_json");
}
