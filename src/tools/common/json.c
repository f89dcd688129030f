/*
    A strict JSON reader (RFC 8259) for result files: a tree of nodes, with
    errors that name the line and column. Hostile input is bounded: nesting
    depth, numbers that do not fit a double, invalid UTF-8 and control
    characters in strings are errors, never crashes.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
    const char * text;
    size_t len, pos;
    char * err;
    size_t errlen;
    int failed;
} parser;

static void fail(parser * p, const char * fmt, ...)
{
    size_t i, line = 1, col = 1;
    char msg[200];
    va_list ap;

    if (p->failed)
        return;
    p->failed = 1;
    for (i = 0; i < p->pos && i < p->len; i++)
    {
        if (p->text[i] == '\n')
            line++, col = 1;
        else
            col++;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->err != NULL && p->errlen > 0)
        snprintf(p->err, p->errlen, "line %lu, column %lu: %s",
                 (unsigned long) line, (unsigned long) col, msg);
}

static void skip_space(parser * p)
{
    while (p->pos < p->len)
    {
        char c = p->text[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        p->pos++;
    }
}

static prof_json * new_node(parser * p, int kind)
{
    prof_json * n = (prof_json *) calloc(1, sizeof *n);
    if (n == NULL)
        fail(p, "out of memory");
    else
        n->kind = kind;
    return n;
}

/* Append to a growable array of pointers. */
static int push(parser * p, void *** items, size_t * count, size_t * cap,
                void * item)
{
    if (prof_impl_grow(items, cap, *count + 1, sizeof **items) != 0)
    {
        fail(p, "out of memory");
        return -1;
    }
    (*items)[(*count)++] = item;
    return 0;
}

static int hex4(parser * p, unsigned * out)
{
    unsigned v = 0;
    int i;
    if (p->len - p->pos < 4)
    {
        fail(p, "truncated \\u escape");
        return -1;
    }
    for (i = 0; i < 4; i++)
    {
        char c = p->text[p->pos++];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned) (c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned) (c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned) (c - 'A' + 10);
        else
        {
            p->pos--;
            fail(p, "bad hex digit in \\u escape");
            return -1;
        }
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char * out, unsigned cp)
{
    if (cp < 0x80) { out[0] = (char) cp; return 1; }
    if (cp < 0x800)
    {
        out[0] = (char) (0xC0 | (cp >> 6));
        out[1] = (char) (0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000)
    {
        out[0] = (char) (0xE0 | (cp >> 12));
        out[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char) (0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char) (0xF0 | (cp >> 18));
    out[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char) (0x80 | (cp & 0x3F));
    return 4;
}

/* Find the closing quote of the string whose first byte is at start,
   checking its bytes (no control character, valid UTF-8) on the way, so
   that the unescaped copy can be sized once: its index, or 0 after fail. */
static size_t string_end(parser * p, size_t start)
{
    size_t end = start;
    for (;;)
    {
        unsigned char c;
        size_t k;
        p->pos = end;
        if (end >= p->len)
        {
            fail(p, "unterminated string");
            return 0;
        }
        c = (unsigned char) p->text[end];
        if (c == '"')
            return end;
        if (c < 0x20)
        {
            fail(p, "control character in string");
            return 0;
        }
        if (c == '\\')
        {
            end += 2;
            continue;
        }
        k = prof_impl_utf_len((const unsigned char *) p->text + end,
                               p->len - end);
        if (k == 0)
        {
            fail(p, "invalid UTF-8 in string");
            return 0;
        }
        end += k;
    }
}

/* The code point of a \u escape whose four hex digits start at p->pos,
   joining a surrogate pair: 0, or -1 after fail. */
static int unicode_escape(parser * p, unsigned * cp)
{
    unsigned lo;
    if (hex4(p, cp) != 0)
        return -1;
    if (*cp >= 0xDC00 && *cp <= 0xDFFF)
    {
        fail(p, "unpaired surrogate in \\u escape");
        return -1;
    }
    if (!(*cp >= 0xD800 && *cp <= 0xDBFF))
        return 0;
    if (p->pos + 2 > p->len || p->text[p->pos] != '\\'
        || p->text[p->pos + 1] != 'u')
    {
        fail(p, "unpaired surrogate in \\u escape");
        return -1;
    }
    p->pos += 2;
    if (hex4(p, &lo) != 0)
        return -1;
    if (lo < 0xDC00 || lo > 0xDFFF)
    {
        fail(p, "unpaired surrogate in \\u escape");
        return -1;
    }
    *cp = 0x10000 + ((*cp - 0xD800) << 10) + (lo - 0xDC00);
    return 0;
}

/* Decode the escape whose letter is at p->pos into out: the number of
   bytes written, or 0 after fail. Escapes never expand beyond their own
   length (6 bytes for at most 3 UTF-8 bytes, 12 for 4). */
static size_t escape(parser * p, char * out)
{
    static const char letters[] = "\"\\/bfnrt", values[] = "\"\\/\b\f\n\r\t";
    char c = p->text[p->pos++];
    const char * at = c != '\0' ? strchr(letters, c) : NULL;
    unsigned cp;
    if (at != NULL)
    {
        out[0] = values[at - letters];
        return 1;
    }
    if (c == 'u')
        return unicode_escape(p, &cp) == 0 ? put_utf8(out, cp) : 0;
    p->pos--;
    fail(p, "bad escape '\\%c'", c);
    return 0;
}

/* Parse a string at p->pos (the opening quote) into a new NUL-terminated
   buffer; *len gets its length (it may contain NUL from \u0000). */
static char * parse_string(parser * p, size_t * len)
{
    size_t start = p->pos + 1, n = 0, end = string_end(p, start);
    char * out;

    if (end == 0)
        return NULL;
    out = (char *) malloc(end - start + 1);
    if (out == NULL)
    {
        fail(p, "out of memory");
        return NULL;
    }
    p->pos = start;
    while (p->pos < end)
    {
        size_t k;
        if (p->text[p->pos] != '\\')
        {
            out[n++] = p->text[p->pos++];
            continue;
        }
        p->pos++;
        if ((k = escape(p, out + n)) == 0)
            break;
        n += k;
    }
    if (p->pos != end && !p->failed)
        fail(p, "truncated escape at end of string");
    if (p->failed)
    {
        free(out);
        return NULL;
    }
    p->pos = end + 1;
    out[n] = '\0';
    *len = n;
    return out;
}

static int parse_number(parser * p, double * out)
{
    size_t start = p->pos, i = p->pos;
    char buf[64], * end;
    const char * t = p->text;

    if (i < p->len && t[i] == '-') i++;
    if (i < p->len && t[i] == '0') i++;
    else if (i < p->len && t[i] >= '1' && t[i] <= '9')
        while (i < p->len && t[i] >= '0' && t[i] <= '9') i++;
    else
    {
        fail(p, "invalid value");
        return -1;
    }
    if (i < p->len && t[i] == '.')
    {
        i++;
        if (!(i < p->len && t[i] >= '0' && t[i] <= '9'))
        {
            p->pos = i;
            fail(p, "digit expected after '.'");
            return -1;
        }
        while (i < p->len && t[i] >= '0' && t[i] <= '9') i++;
    }
    if (i < p->len && (t[i] == 'e' || t[i] == 'E'))
    {
        i++;
        if (i < p->len && (t[i] == '+' || t[i] == '-')) i++;
        if (!(i < p->len && t[i] >= '0' && t[i] <= '9'))
        {
            p->pos = i;
            fail(p, "digit expected in exponent");
            return -1;
        }
        while (i < p->len && t[i] >= '0' && t[i] <= '9') i++;
    }
    if (i - start >= sizeof buf)
    {
        fail(p, "number too long (%lu characters)", (unsigned long) (i - start));
        return -1;
    }
    memcpy(buf, t + start, i - start);
    buf[i - start] = '\0';
    errno = 0;
    *out = strtod(buf, &end);
    if (!isfinite(*out))
    {
        fail(p, "number out of range: %s", buf);
        return -1;
    }
    p->pos = i;
    return 0;
}

static int match(parser * p, const char * word)
{
    size_t n = strlen(word);
    if (p->len - p->pos >= n && memcmp(p->text + p->pos, word, n) == 0)
    {
        p->pos += n;
        return 1;
    }
    return 0;
}

static prof_json * parse_value(parser * p, int depth);

/* What walk calls for each member of a container: the key (objects; the
   callee owns it) or NULL (arrays), with p->pos at the value, which it
   parses. 0, or -1 after fail. */
typedef int (*member_fn)(parser * p, char * key, int depth, void * ctx);

/* The key of an object member and its ':': a new string, or NULL after
   fail. */
static char * member_key(parser * p)
{
    char * key;
    size_t klen;
    if (p->pos >= p->len || p->text[p->pos] != '"')
    {
        fail(p, p->pos >= p->len ? "unexpected end of input"
                                 : "object key (a string) expected");
        return NULL;
    }
    key = parse_string(p, &klen);
    if (key == NULL)
        return NULL;
    skip_space(p);
    if (p->pos >= p->len || p->text[p->pos] != ':')
    {
        fail(p, "':' expected after object key");
        free(key);
        return NULL;
    }
    p->pos++;
    return key;
}

/* Walk the container (kind PROF_JSON_OBJECT or PROF_JSON_ARRAY, at
   depth) whose opening bracket is at p->pos, calling member for each of
   its values, up to and past the closing bracket: 0, or -1 after fail. */
static int walk(parser * p, int depth, int kind, member_fn member, void * ctx)
{
    int object = kind == PROF_JSON_OBJECT;
    char close = object ? '}' : ']';
    p->pos++;
    skip_space(p);
    if (p->pos < p->len && p->text[p->pos] == close)
    {
        p->pos++;
        return 0;
    }
    for (;;)
    {
        char * key = NULL;
        skip_space(p);
        if (object && (key = member_key(p)) == NULL)
            return -1;
        if (member(p, key, depth + 1, ctx) != 0)
            return -1;
        skip_space(p);
        if (p->pos < p->len && p->text[p->pos] == ',')
        {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->text[p->pos] == close)
        {
            p->pos++;
            return 0;
        }
        fail(p, p->pos >= p->len ? "unexpected end of input"
                                 : "',' or '%c' expected", close);
        return -1;
    }
}

/* A container being built, with the capacities of its arrays. */
typedef struct
{
    prof_json * node;
    size_t cap, kcap, kcount;
} builder;

/* A member of a container being built (ctx): appended to it. */
static int add_member(parser * p, char * key, int depth, void * ctx)
{
    builder * b = (builder *) ctx;
    prof_json * item;
    if (key != NULL
        && push(p, (void ***) &b->node->keys, &b->kcount, &b->kcap, key) != 0)
    {
        free(key);
        return -1;
    }
    item = parse_value(p, depth);
    if (item == NULL
        || push(p, (void ***) &b->node->items, &b->node->count, &b->cap,
                item) != 0)
    {
        prof_impl_json_free(item);
        if (key != NULL)        /* keys and values stay parallel */
            free(b->node->keys[--b->kcount]);
        return -1;
    }
    return 0;
}

static prof_json * parse_container(parser * p, int depth, int kind)
{
    builder b;
    memset(&b, 0, sizeof b);
    b.node = new_node(p, kind);
    if (b.node != NULL && walk(p, depth, kind, add_member, &b) != 0)
    {
        prof_impl_json_free(b.node);
        b.node = NULL;
    }
    return b.node;
}

static prof_json * parse_value(parser * p, int depth)
{
    prof_json * n;
    char c;

    skip_space(p);
    if (depth > PROF_JSON_MAX_DEPTH)
    {
        fail(p, "nested deeper than %d levels", PROF_JSON_MAX_DEPTH);
        return NULL;
    }
    if (p->pos >= p->len)
    {
        fail(p, "unexpected end of input");
        return NULL;
    }
    c = p->text[p->pos];
    if (c == '{' || c == '[')
        return parse_container(p, depth,
                               c == '{' ? PROF_JSON_OBJECT : PROF_JSON_ARRAY);
    if (c == '"')
    {
        n = new_node(p, PROF_JSON_STRING);
        if (n != NULL && (n->string = parse_string(p, &n->length)) == NULL)
        {
            free(n);
            n = NULL;
        }
        return n;
    }
    if (match(p, "true") || match(p, "false"))
    {
        n = new_node(p, PROF_JSON_BOOL);
        if (n != NULL)
            n->number = c == 't';       /* "true" (c: its first byte) */
        return n;
    }
    if (match(p, "null"))
        return new_node(p, PROF_JSON_NULL);
    n = new_node(p, PROF_JSON_NUMBER);
    if (n != NULL && parse_number(p, &n->number) != 0)
    {
        free(n);
        n = NULL;
    }
    return n;
}

/* Set p up to read len bytes of text: 0, or -1 after fail. */
static int begin(parser * p, const char * text, size_t len, char * err,
                 size_t errlen)
{
    p->text = text;
    p->len = len;
    p->pos = 0;
    p->err = err;
    p->errlen = errlen;
    p->failed = 0;
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (text == NULL)
    {
        fail(p, "no input");
        return -1;
    }
    /* A UTF-8 byte order mark is tolerated, as many tools write one. */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p->pos = 3;
    return 0;
}

/* Only white space may follow the value: 0, or -1 after fail. */
static int at_end(parser * p)
{
    skip_space(p);
    if (p->pos < p->len)
    {
        fail(p, "unexpected text after the JSON value");
        return -1;
    }
    return 0;
}

prof_json * prof_impl_json_parse(const char * text, size_t len, char * err,
                                 size_t errlen)
{
    parser p;
    prof_json * root;

    if (begin(&p, text, len, err, errlen) != 0
        || (root = parse_value(&p, 0)) == NULL)
        return NULL;
    if (at_end(&p) != 0)
    {
        prof_impl_json_free(root);
        return NULL;
    }
    return root;
}

/* ---- one element at a time ------------------------------------------------ */

typedef struct
{
    const char * key;
    prof_json_each_fn each;
    void * ctx;
    size_t index;
    int found;
} streamer;

/* An element of the streamed array: handed to the callback, then freed. */
static int stream_item(parser * p, char * key, int depth, void * ctx)
{
    streamer * s = (streamer *) ctx;
    prof_json * item = parse_value(p, depth);
    int rc;
    (void) key;
    if (item == NULL)
        return -1;
    rc = s->each(item, s->index++, s->ctx);
    prof_impl_json_free(item);
    if (rc != 0)
        p->failed = 1;      /* stop; the callback's message stands */
    return rc != 0 ? -1 : 0;
}

/* A member of the top-level object: the wanted array is streamed, any
   other value parsed (it must be valid) and dropped. */
static int stream_member(parser * p, char * key, int depth, void * ctx)
{
    streamer * s = (streamer *) ctx;
    int wanted = strcmp(key, s->key) == 0;
    prof_json * v;
    free(key);
    skip_space(p);
    if (wanted && s->found)
    {
        fail(p, "a second \"%s\" member", s->key);
        return -1;
    }
    if (wanted && p->pos < p->len && p->text[p->pos] == '[')
    {
        s->found = 1;
        return walk(p, depth, PROF_JSON_ARRAY, stream_item, s);
    }
    v = parse_value(p, depth);
    prof_impl_json_free(v);
    return v != NULL ? 0 : -1;
}

int prof_impl_json_each(const char * text, size_t len, const char * key,
                        prof_json_each_fn each, void * ctx, char * err,
                        size_t errlen)
{
    parser p;
    streamer s;
    int rc;

    memset(&s, 0, sizeof s);
    s.key = key;
    s.each = each;
    s.ctx = ctx;
    if (begin(&p, text, len, err, errlen) != 0)
        return -1;
    skip_space(&p);
    if (p.pos < p.len && p.text[p.pos] == '{')
        rc = walk(&p, 0, PROF_JSON_OBJECT, stream_member, &s);
    else
    {
        prof_json * root = parse_value(&p, 0);
        rc = root != NULL ? 0 : -1;
        prof_impl_json_free(root);
    }
    if (rc != 0 || at_end(&p) != 0)
        return -1;
    return s.found ? 0 : 1;
}

void prof_impl_json_free(prof_json * n)
{
    size_t i;
    if (n == NULL)
        return;
    for (i = 0; i < n->count; i++)
    {
        prof_impl_json_free(n->items[i]);
        if (n->keys != NULL)
            free(n->keys[i]);
    }
    free(n->items);
    free(n->keys);
    free(n->string);
    free(n);
}

const prof_json * prof_impl_json_get(const prof_json * obj, const char * key)
{
    size_t i;
    if (obj == NULL || obj->kind != PROF_JSON_OBJECT)
        return NULL;
    /* The last of duplicate keys wins, as in most readers. */
    for (i = obj->count; i-- > 0; )
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    return NULL;
}
