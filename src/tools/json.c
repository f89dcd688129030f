/*
    A strict JSON reader (RFC 8259) for result files: a tree of nodes, with
    errors that name the line and column. Hostile input is bounded: nesting
    depth, numbers that do not fit a double, invalid UTF-8 and control
    characters in strings are errors, never crashes.
    SPDX-License-Identifier: MIT
*/
#include "../internal.h"
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
    {
        n->kind = kind;
        n->offset = p->pos;
    }
    return n;
}

/* Append to a growable array of pointers. */
static int push(parser * p, void *** items, size_t * count, size_t * cap,
                void * item)
{
    if (*count == *cap)
    {
        size_t ncap = *cap ? 2 * *cap : 4;
        void ** n = (void **) realloc(*items, ncap * sizeof *n);
        if (n == NULL)
        {
            fail(p, "out of memory");
            return -1;
        }
        *items = n;
        *cap = ncap;
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

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_len(const unsigned char * s, size_t n)
{
    unsigned cp;
    size_t k, i;
    if (s[0] < 0x80) return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) k = 2, cp = s[0] & 0x1F;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF) k = 3, cp = s[0] & 0x0F;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4) k = 4, cp = s[0] & 0x07;
    else return 0;
    if (n < k) return 0;
    for (i = 1; i < k; i++)
    {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF))
        || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return k;
}

/* Parse a string at p->pos (the opening quote) into a new NUL-terminated
   buffer; *len gets its length (it may contain NUL from \u0000). */
static char * parse_string(parser * p, size_t * len)
{
    size_t start = ++p->pos, n = 0, end;
    char * out;

    /* First pass: find the end and validate, so the output is sized once. */
    for (end = start; ; )
    {
        unsigned char c;
        if (end >= p->len)
        {
            p->pos = end;
            fail(p, "unterminated string");
            return NULL;
        }
        c = (unsigned char) p->text[end];
        if (c == '"')
            break;
        if (c < 0x20)
        {
            p->pos = end;
            fail(p, "control character in string");
            return NULL;
        }
        if (c == '\\')
            end += 2;
        else
        {
            size_t k = utf8_len((const unsigned char *) p->text + end,
                                p->len - end);
            if (k == 0)
            {
                p->pos = end;
                fail(p, "invalid UTF-8 in string");
                return NULL;
            }
            end += k;
        }
    }
    out = (char *) malloc(end - start + 1);
    if (out == NULL)
    {
        fail(p, "out of memory");
        return NULL;
    }
    while (p->pos < end)
    {
        char c = p->text[p->pos++];
        if (c != '\\')
        {
            out[n++] = c;
            continue;
        }
        c = p->text[p->pos++];
        switch (c)
        {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u':
        {
            unsigned cp, lo;
            if (hex4(p, &cp) != 0)
                goto bad;
            if (cp >= 0xD800 && cp <= 0xDBFF)
            {
                if (p->pos + 2 > p->len || p->text[p->pos] != '\\'
                    || p->text[p->pos + 1] != 'u')
                {
                    fail(p, "unpaired surrogate in \\u escape");
                    goto bad;
                }
                p->pos += 2;
                if (hex4(p, &lo) != 0)
                    goto bad;
                if (lo < 0xDC00 || lo > 0xDFFF)
                {
                    fail(p, "unpaired surrogate in \\u escape");
                    goto bad;
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            else if (cp >= 0xDC00 && cp <= 0xDFFF)
            {
                fail(p, "unpaired surrogate in \\u escape");
                goto bad;
            }
            /* Escapes never expand beyond their own length (6 bytes for at
               most 3 UTF-8 bytes, 12 for 4), so out is big enough. */
            n += put_utf8(out + n, cp);
            break;
        }
        default:
            p->pos--;
            fail(p, "bad escape '\\%c'", c);
            goto bad;
        }
    }
    if (p->pos != end)
    {
        fail(p, "truncated escape at end of string");
        goto bad;
    }
    p->pos = end + 1;
    out[n] = '\0';
    *len = n;
    return out;
bad:
    free(out);
    return NULL;
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

static prof_json * parse_container(parser * p, int depth, int object)
{
    prof_json * n = new_node(p, object ? PROF_JSON_OBJECT : PROF_JSON_ARRAY);
    size_t cap = 0, kcap = 0, kcount = 0;
    char close = object ? '}' : ']';

    if (n == NULL)
        return NULL;
    p->pos++;
    skip_space(p);
    if (p->pos < p->len && p->text[p->pos] == close)
    {
        p->pos++;
        return n;
    }
    for (;;)
    {
        prof_json * item;
        skip_space(p);
        if (object)
        {
            char * key;
            size_t klen;
            if (p->pos >= p->len || p->text[p->pos] != '"')
            {
                fail(p, p->pos >= p->len ? "unexpected end of input"
                                         : "object key (a string) expected");
                break;
            }
            key = parse_string(p, &klen);
            if (key == NULL)
                break;
            if (push(p, (void ***) &n->keys, &kcount, &kcap, key) != 0)
            {
                free(key);
                break;
            }
            skip_space(p);
            if (p->pos >= p->len || p->text[p->pos] != ':')
            {
                fail(p, "':' expected after object key");
                break;
            }
            p->pos++;
        }
        item = parse_value(p, depth + 1);
        if (item == NULL)
            break;
        if (push(p, (void ***) &n->items, &n->count, &cap, item) != 0)
        {
            prof_impl_json_free(item);
            break;
        }
        skip_space(p);
        if (p->pos < p->len && p->text[p->pos] == ',')
        {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->text[p->pos] == close)
        {
            p->pos++;
            return n;
        }
        fail(p, p->pos >= p->len ? "unexpected end of input"
                                 : "',' or '%c' expected", close);
        break;
    }
    /* An object's keys and values may differ by one after an error. */
    if (object && kcount > n->count)
        free(n->keys[--kcount]);
    prof_impl_json_free(n);
    return NULL;
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
        return parse_container(p, depth, c == '{');
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
            n->number = p->text[p->pos - 1] == 'e' && c == 't';
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

prof_json * prof_impl_json_parse(const char * text, size_t len, char * err,
                                 size_t errlen)
{
    parser p;
    prof_json * root;

    p.text = text;
    p.len = len;
    p.pos = 0;
    p.err = err;
    p.errlen = errlen;
    p.failed = 0;
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (text == NULL)
    {
        fail(&p, "no input");
        return NULL;
    }
    /* A UTF-8 byte order mark is tolerated, as many tools write one. */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p.pos = 3;
    root = parse_value(&p, 0);
    if (root == NULL)
        return NULL;
    skip_space(&p);
    if (p.pos < p.len)
    {
        fail(&p, "unexpected text after the JSON value");
        prof_impl_json_free(root);
        return NULL;
    }
    return root;
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
