/* fprint_memory_usage: FLINT's line format, NULL stream, unreadable or
   corrupt /proc, an output that cannot be written. FLINT 2.x's
   get_memory_usage and SHOW_MEMORY_USAGE: the same cases. */
#include "check.h"
#include "internal.h"

/* Print to a temporary file and return the text. */
static const char * print_to_string(const char * status_path)
{
    static char buf[512];
    FILE * f = tmpfile();
    size_t n;
    if (status_path)
        prof_impl_fprint_memory_usage(f, status_path);
    else
        fprint_memory_usage(f);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* SHOW_MEMORY_USAGE's line to a temporary file, from status_path. */
static const char * show_to_string(const char * status_path)
{
    static char buf[512];
    FILE * f = tmpfile();
    size_t n;
    prof_impl_show_memory_usage_to(f, status_path);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Count the lines of s. */
static int lines(const char * s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* FLINT 2.x's get_memory_usage and SHOW_MEMORY_USAGE. */
static void test_flint2(const char * path)
{
    capture_t cap;
    const char * out;
    meminfo_t m;

    /* NULL: nothing happens. */
    capture_begin(&cap, 2);
    get_memory_usage(NULL);
    out = capture_end(&cap);
    CHECK(out[0] == '\0', "NULL: stderr [%s]", out);

    /* SHOW_MEMORY_USAGE prints FLINT's line to stdout, with or without a
       semicolon after it (FLINT's macro ends with one). */
    capture_begin(&cap, 1);
    SHOW_MEMORY_USAGE
    SHOW_MEMORY_USAGE;
    out = capture_end(&cap);
#if defined(__linux__)
    CHECK(check_matches(out, "^(virt/peak/res/peak\\(MB\\):( [0-9]+\\.[0-9][0-9]){4}\n){2}$"),
          "stdout [%s]", out);

    /* Known sizes: kB in the struct, MB with two decimals in the line,
       FLINT's order (size, peak, rss, hwm). */
    check_write_file(path, "VmPeak:\t   30000 kB\nVmSize:\t   25395 kB\n"
                     "VmHWM:\t   10235 kB\nVmRSS:\t     512 kB\n");
    m->size = m->peak = m->hwm = m->rss = 7;
    prof_impl_get_memory_usage(m, path);
    CHECK(m->size == 25395 && m->peak == 30000 && m->hwm == 10235 && m->rss == 512,
          "fields %lu %lu %lu %lu", (unsigned long) m->size, (unsigned long) m->peak,
          (unsigned long) m->hwm, (unsigned long) m->rss);
    out = show_to_string(path);
    CHECK(strcmp(out, "virt/peak/res/peak(MB): 24.80 29.30 0.50 10.00\n") == 0,
          "line [%s]", out);

    /* No /proc: the fields it gives are 0 (getrusage still gives the peak
       resident set), one message says why; the line says n/a. */
    m->size = m->peak = m->hwm = m->rss = 7;
    capture_begin(&cap, 2);
    prof_impl_get_memory_usage(m, "/nonexistent/status");
    out = capture_end(&cap);
    CHECK(m->size == 0 && m->peak == 0 && m->rss == 0 && m->hwm > 0,
          "no /proc: fields %lu %lu %lu %lu", (unsigned long) m->size,
          (unsigned long) m->peak, (unsigned long) m->hwm, (unsigned long) m->rss);
    CHECK(strstr(out, "profiler: get_memory_usage: cannot read /nonexistent/status")
          == out && lines(out) == 1, "no /proc: stderr [%s]", out);
    capture_begin(&cap, 2);
    out = show_to_string("/nonexistent/status");
    CHECK(check_matches(out, "^virt/peak/res/peak\\(MB\\): n/a n/a n/a [0-9]+\\.[0-9][0-9]\n$"),
          "no /proc: line [%s]", out);
    out = capture_end(&cap);
    CHECK(strstr(out, "profiler: SHOW_MEMORY_USAGE: cannot read") == out
          && lines(out) == 1, "no /proc: stderr [%s]", out);

    /* Corrupt: what is missing is 0, with one message. */
    check_write_file(path, "VmSize: lots\nVmRSS: 2048 kB\n");
    capture_begin(&cap, 2);
    prof_impl_get_memory_usage(m, path);
    out = capture_end(&cap);
    CHECK(m->size == 0 && m->peak == 0 && m->rss == 2048 && m->hwm > 0,
          "corrupt: fields %lu %lu %lu %lu", (unsigned long) m->size,
          (unsigned long) m->peak, (unsigned long) m->hwm, (unsigned long) m->rss);
    CHECK(strstr(out, "lacks some of VmSize") != NULL && lines(out) == 1,
          "corrupt: stderr [%s]", out);
#else
    (void) path;
    (void) m;
    (void) show_to_string;
    (void) lines;
    CHECK(check_matches(out, "^(virt/peak/res/peak\\(MB\\):( [0-9]+\\.[0-9][0-9]| n/a){4}\n){2}$"),
          "stdout [%s]", out);
#endif

    /* A full disk: a message, no crash. */
    {
        FILE * full = fopen("/dev/full", "w");
        if (full != NULL)
        {
            capture_begin(&cap, 2);
            prof_impl_show_memory_usage_to(full, "/proc/self/status");
            out = capture_end(&cap);
            fclose(full);
            CHECK(strstr(out, "profiler: SHOW_MEMORY_USAGE: cannot write") != NULL,
                  "full: stderr [%s]", out);
        }
    }
}

#define SIZE_RE "( {0,4}[0-9]+ B|[ 0-9][ 0-9.][0-9.][0-9] [kMGTPE]B)"

int main(void)
{
    capture_t cap, cap2;
    const char * out;
    char path[] = "/tmp/prof_status_XXXXXX";
    int fd = mkstemp(path);
    close(fd);

#if defined(__linux__)
    out = print_to_string(NULL);
    printf("%s", out);
    CHECK(check_matches(out, "^virt/peak/rss/peak: " SIZE_RE " / " SIZE_RE " / "
                       SIZE_RE " / " SIZE_RE "\n$"), "line [%s]", out);
    CHECK(strlen(out) == 20 + 4 * 7 + 3 * 3 + 1, "length %zu [%s]", strlen(out), out);

    /* Known sizes, byte for byte. */
    check_write_file(path, "Name:\ttest\nVmPeak:\t       9 kB\nVmSize:\t   25395 kB\n"
                     "VmHWM:\t   10235 kB\nVmRSS:\t     512 kB\n");
    out = print_to_string(path);
    CHECK(strcmp(out, "virt/peak/rss/peak: 24.8 MB / 9.00 kB /  512 kB / 10.0 MB\n") == 0,
          "line [%s]", out);
    check_write_file(path, "VmPeak: 0 kB\nVmSize: 1048575 kB\nVmHWM: 1073741824 kB\n"
                     "VmRSS: 102399 kB\n");
    out = print_to_string(path);
    CHECK(strcmp(out, "virt/peak/rss/peak: 1024 MB /     0 B /  100 MB / 1.00 TB\n") == 0,
          "line [%s]", out);

    /* Unreadable: getrusage's peak, n/a for the rest, and a message. */
    capture_begin(&cap, 2);
    out = print_to_string("/nonexistent/status");
    CHECK(check_matches(out, "^virt/peak/rss/peak:     n/a /     n/a /     n/a / " SIZE_RE "\n$"),
          "line [%s]", out);
    out = capture_end(&cap);
    CHECK(strstr(out, "profiler: fprint_memory_usage: cannot read /nonexistent/status") != NULL,
          "stderr [%s]", out);

    /* Corrupt: fields missing or not numbers. */
    check_write_file(path, "VmSize: lots\n\x01\x02garbage\nVmRSS:\n");
    capture_begin(&cap, 2);
    out = print_to_string(path);
    CHECK(check_matches(out, "^virt/peak/rss/peak:     n/a /     n/a /     n/a / " SIZE_RE "\n$"),
          "line [%s]", out);
    out = capture_end(&cap);
    CHECK(strstr(out, "lacks some of VmSize") != NULL, "stderr [%s]", out);
#endif

    /* NULL prints to stdout; print_memory_usage too. */
    capture_begin(&cap, 1);
    fprint_memory_usage(NULL);
    print_memory_usage();
    out = capture_end(&cap);
    CHECK(check_matches(out, "^(virt/(peak/)?rss/peak: [^\n]*\n){2}$"), "stdout [%s]", out);

    /* A full disk: a message, no crash. */
    {
        FILE * full = fopen("/dev/full", "w");
        if (full != NULL)
        {
            capture_begin(&cap2, 2);
            fprint_memory_usage(full);
            out = capture_end(&cap2);
            fclose(full);
            CHECK(strstr(out, "profiler: fprint_memory_usage: cannot write") != NULL,
                  "stderr [%s]", out);
        }
    }
    test_flint2(path);
    remove(path);
    return check_report("test_memory");
}
