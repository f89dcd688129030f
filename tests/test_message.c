/* The string helpers of src/core/message.c, each escaped character one by
   one: CSV fields, JSON strings (every control character, the quote, the
   backslash, bytes that are not UTF-8), markdown cells and their widths,
   UTF-8 lengths, the bounded copy, fixed-point numbers; and the messages'
   prefix. */
#include "check.h"
#include "internal.h"

#include <math.h>

/* What f(s) writes, in a buffer of its own (reused by the next call). */
static const char * written(void (*f)(FILE *, const char *), const char * s)
{
    static char out[4096];
    FILE * tmp = tmpfile();
    if (tmp == NULL)
        return "";
    f(tmp, s);
    prof_impl_copy(out, sizeof out, check_slurp(tmp));
    fclose(tmp);
    return out;
}

static void expect(void (*f)(FILE *, const char *), const char * what,
        const char * s, const char * want)
{
    const char * got = written(f, s);
    CHECK(strcmp(got, want) == 0, "%s: [%s] gave [%s], expected [%s]", what, s,
          got, want);
}

static void test_csv(void)
{
    expect(prof_impl_csv_string, "csv", "", "\"\"");
    expect(prof_impl_csv_string, "csv", "plain", "\"plain\"");
    expect(prof_impl_csv_string, "csv", "\"", "\"\"\"\"");
    expect(prof_impl_csv_string, "csv", "a\"b\"\"c", "\"a\"\"b\"\"\"\"c\"");
    /* the separator, line breaks and a backslash stay inside the quotes */
    expect(prof_impl_csv_string, "csv", "a,b\nc\r\\d;'", "\"a,b\nc\r\\d;'\"");
    /* UTF-8 passes whole; each byte that is not UTF-8 is U+FFFD */
    expect(prof_impl_csv_string, "csv", "\xC3\xA9\"\xFF",
           "\"\xC3\xA9\"\"\xEF\xBF\xBD\"");
    expect(prof_impl_csv_string, "csv", "\xE2\x82",
           "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
    /* the same without quotes: nothing doubled */
    expect(prof_impl_put_unicode, "unicode", "a\"\xC0,\xC3\xA9",
           "a\"\xEF\xBF\xBD,\xC3\xA9");
    expect(prof_impl_put_unicode, "unicode", "", "");
}

static void test_json(void)
{
    char in[2], want[16];
    int c;
    expect(prof_impl_json_string, "json", "", "\"\"");
    expect(prof_impl_json_string, "json", "\"", "\"\\\"\"");
    expect(prof_impl_json_string, "json", "\\", "\"\\\\\"");
    expect(prof_impl_json_string, "json", "a\\\"b/", "\"a\\\\\\\"b/\"");
    /* every control character as \u00XX; DEL and space are themselves */
    for (c = 1; c < 0x20; c++)
    {
        in[0] = (char) c;
        in[1] = '\0';
        snprintf(want, sizeof want, "\"\\u%04x\"", c);
        expect(prof_impl_json_string, "json control", in, want);
    }
    expect(prof_impl_json_string, "json", "\x7f \x1f", "\"\x7f \\u001f\"");
    /* UTF-8 passes whole; each byte that is not UTF-8 is U+FFFD */
    expect(prof_impl_json_string, "json", "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80",
           "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"");
    expect(prof_impl_json_string, "json", "a\xFFz", "\"a\\ufffdz\"");
    expect(prof_impl_json_string, "json", "\xC3", "\"\\ufffd\"");
    expect(prof_impl_json_string, "json", "\xE2\x82", "\"\\ufffd\\ufffd\"");
    expect(prof_impl_json_string, "json", "\xC0\xAF", "\"\\ufffd\\ufffd\"");
}

static void test_markdown(void)
{
    expect(prof_impl_md_text, "md", "a|b", "a\\|b");
    expect(prof_impl_md_text, "md", "a\nb\rc\\", "a b c\\");
    expect(prof_impl_md_code, "md code", "x|y", "`x\\|y`");
    CHECK(prof_impl_md_width("") == 0, "width of nothing");
    CHECK(prof_impl_md_width("abc") == 3, "width abc");
    CHECK(prof_impl_md_width("a|b") == 4, "an escaped | takes 2");
    CHECK(prof_impl_md_width("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80") == 3,
          "characters, not bytes: %d",
          prof_impl_md_width("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));
}

static size_t utf(const char * s)
{
    return prof_impl_utf_len((const unsigned char *) s, strlen(s));
}

static void test_utf8(void)
{
    /* each length's first and last code point, and each bound's
       neighbour outside it */
    CHECK(prof_impl_utf_len((const unsigned char *) "", 0) == 0, "empty");
    CHECK(utf("\x7f") == 1 && utf("a") == 1, "ASCII");
    CHECK(utf("\xC2\x80") == 2 && utf("\xDF\xBF") == 2, "two bytes");
    CHECK(utf("\xC1\xBF") == 0 && utf("\xC0\x80") == 0, "overlong two");
    CHECK(utf("\xE0\xA0\x80") == 3 && utf("\xEF\xBF\xBF") == 3, "three bytes");
    CHECK(utf("\xE0\x9F\xBF") == 0, "overlong three");
    CHECK(utf("\xED\x9F\xBF") == 3 && utf("\xEE\x80\x80") == 3, "around surrogates");
    CHECK(utf("\xED\xA0\x80") == 0 && utf("\xED\xBF\xBF") == 0, "surrogates");
    CHECK(utf("\xF0\x90\x80\x80") == 4 && utf("\xF4\x8F\xBF\xBF") == 4, "four bytes");
    CHECK(utf("\xF0\x8F\xBF\xBF") == 0, "overlong four");
    CHECK(utf("\xF4\x90\x80\x80") == 0 && utf("\xF5\x80\x80\x80") == 0, "past U+10FFFF");
    CHECK(utf("\x80") == 0 && utf("\xBF") == 0, "a continuation byte first");
    CHECK(utf("\xC3") == 0 && utf("\xE2\x82") == 0, "cut short");
    CHECK(utf("\xC3\x41") == 0 && utf("\xE2\x82\xC3") == 0, "not a continuation");
    CHECK(prof_impl_utf_len((const unsigned char *) "\xC3\xA9", 1) == 0, "n too small");
}

static void test_copy_and_fixed(void)
{
    char buf[8], num[64];
    memset(buf, 'x', sizeof buf);
    prof_impl_copy(buf, 4, "abcdef");
    CHECK(strcmp(buf, "abc") == 0 && buf[4] == 'x', "cut: [%s]", buf);
    prof_impl_copy(buf, 4, "abc");
    CHECK(strcmp(buf, "abc") == 0, "fits: [%s]", buf);
    prof_impl_copy(buf, 1, "abc");
    CHECK(buf[0] == '\0', "size 1");
    buf[0] = 'y';
    prof_impl_copy(buf, 0, "abc");
    CHECK(buf[0] == 'y', "size 0 writes nothing");

    CHECK(strcmp(prof_impl_fixed(num, sizeof num, 1.005, 2, 0), "1.00") == 0
          || strcmp(num, "1.01") == 0, "1.005: %s", num);
    CHECK(strcmp(prof_impl_fixed(num, sizeof num, 2.5, 1, 1), "+2.5") == 0, "%s", num);
    CHECK(strcmp(prof_impl_fixed(num, sizeof num, -2.5, 1, 0), "-2.5") == 0, "%s", num);
    CHECK(strcmp(prof_impl_fixed(num, sizeof num, 9.99e14, 0, 0), "999000000000000") == 0,
          "under the bound: %s", num);
    CHECK(strcmp(prof_impl_fixed(num, sizeof num, 1e15, 2, 0), "1e+15") == 0,
          "at the bound: %s", num);
    CHECK(strcmp(prof_impl_fixed(num, sizeof num, -1e300, 2, 1), "-1e+300") == 0, "%s", num);
    CHECK(strcmp(prof_impl_fixed(num, sizeof num, INFINITY, 2, 1), "+inf") == 0, "%s", num);
    CHECK(strcmp(prof_impl_fixed(num, sizeof num, NAN, 2, 0), "nan") == 0
          || strcmp(num, "-nan") == 0, "%s", num);
}

static void test_messages(void)
{
    capture_t cap;
    const char * out;
    capture_begin(&cap, 2);
    prof_impl_warn("%s %d", "value", 7);
    prof_impl_status("half way");
    prof_impl_warn("after");
    prof_impl_status_clear();
    out = capture_end(&cap);
    CHECK(strcmp(out, "profiler: value 7\n\rprofiler: half way\033[K\r\033[K"
                      "profiler: after\n") == 0, "stderr [%s]", out);
}

int main(void)
{
    test_csv();
    test_json();
    test_markdown();
    test_utf8();
    test_copy_and_fixed();
    test_messages();
    return check_report("test_message");
}
