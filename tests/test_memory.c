/* fprint_memory_usage: FLINT's line format, NULL stream, unreadable or
   corrupt /proc, an output that cannot be written. */
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
    remove(path);
    return check_report("test_memory");
}
