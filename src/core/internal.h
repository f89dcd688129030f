/*
    Internal declarations shared by the files of src/: not installed.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_INTERNAL_H
#define PROF_INTERNAL_H

/* The feature-test macros (_GNU_SOURCE on Linux) come from the build: see
   profiler_c_target in CMakeLists.txt. */
#include "profiler.h"

#include <stddef.h>     /* offsetof, for the option tables' macros */

/* Print "profiler: " followed by the formatted message and a newline on
   stderr. */
void prof_impl_warn(const char * fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Full buffers handed to the trace writer thread so far (for the tests). */
unsigned long prof_impl_trace_writer_buffers(void);

/* ---- output files (outfile.c) ------------------------------------------- */

/* A file being written: data goes to a temporary file beside path and
   replaces path at commit, so that a failure never truncates or destroys an
   existing file. Non-regular targets (/dev/null, a pipe) are written in
   place; "-" is stdout. A symbolic link is written through (its target is
   replaced); a file the user cannot write is refused; a replaced file keeps
   its mode. */
typedef struct
{
    FILE * f;       /* write here */
    char * path;    /* the name given (messages quote it) */
    char * target;  /* path with its symbolic links followed */
    char * tmp;     /* the temporary file, or NULL when written in place */
} prof_impl_outfile;

/* Start writing path: 0, or -1 after a profiler: message naming it. */
int prof_impl_outfile_open(prof_impl_outfile * o, const char * path);
/* Flush and close; on success the file replaces path. 0, or -1 after a
   message (the target is then unchanged). o is closed either way. */
int prof_impl_outfile_commit(prof_impl_outfile * o);
/* Whether path could be written (prof_impl_outfile_open would succeed),
   checked without writing anything: a temporary file beside a regular
   file is made and removed; a FIFO or a device is not opened (a FIFO's
   reader would see its end). 0, or -1 after the same message. */
int prof_impl_outfile_check(const char * path);
/* Remove every temporary file being written (async-signal-safe: for a
   handler that ends the process). While one is, SIGINT, SIGTERM and
   SIGHUP get a handler that does so, where their action is the default. */
void prof_impl_outfile_remove_all(void);
/* POSIX: handler (with flags) for each of the n signals sigs whose action
   is the default (on), or the default again where it is still handler
   (off); ours[i] says which are set. Someone else's handler, or an
   ignored signal, is left as it is. */
void prof_impl_handlers_set(const int * sigs, int n, int * ours,
                            void (*handler)(int), int flags, int on);
/* Close and throw away what was written; the target is unchanged. */
void prof_impl_outfile_abort(prof_impl_outfile * o);
/* 1 if a and b name the same existing file (same device and inode). */
int prof_impl_same_file(const char * a, const char * b);
/* 1 if writing the output out would replace the input in: the same file
   as prof_impl_same_file, in "-" being the file behind stdin. */
int prof_impl_output_is_input(const char * out, const char * in);

/* Copy src into dst (size bytes), cut to fit and always terminated. */
void prof_impl_copy(char * dst, size_t size, const char * src);
/* s as a CSV field, always quoted ("" for a quote inside; a byte that is
   not UTF-8 as U+FFFD, as in JSON). */
void prof_impl_csv_string(FILE * out, const char * s);
/* s with each byte that is not UTF-8 as U+FFFD (prof_impl_csv_string
   does so too): a CSV field that needs no quotes. */
void prof_impl_put_unicode(FILE * out, const char * s);
/* s in a markdown table cell, the table kept whole: each '|' escaped, a
   line break shown as a space; prof_impl_md_code: the same as a code span. */
void prof_impl_md_text(FILE * out, const char * s);
void prof_impl_md_code(FILE * out, const char * s);
/* The columns s takes in a markdown table cell written by
   prof_impl_md_text (characters, not bytes; an escaped '|' takes 2). */
int prof_impl_md_width(const char * s);
/* v with places decimals ("%.2f"; sign: "%+.2f") into out, or "%.4g"
   where fixed point would run past PROF_IMPL_FIXED_MAX (1e300 takes 301
   digits, cut by any cell) and for inf and NaN. Returns out. */
#define PROF_IMPL_FIXED_MAX 1e15
const char * prof_impl_fixed(char * out, size_t size, double v, int places,
        int sign);
/* A malloc'd copy of s, or NULL. */
char * prof_impl_strdup(const char * s);
/* The length of the valid UTF-8 sequence at s (n bytes left: a NUL-ended
   string may give any n, the NUL stops the sequence), or 0 if it is not
   one (a stray or missing continuation byte, an overlong form, a
   surrogate, past U+10FFFF). */
size_t prof_impl_utf_len(const unsigned char * s, size_t n);
/* s as a JSON string: quoted, escaped, and valid UTF-8 whatever s holds
   (U+FFFD for each byte that is not UTF-8). */
void prof_impl_json_string(FILE * out, const char * s);

/* ---- command lines (options.c) ----------------------------------------- */

/* One option of a program: its name ("--alpha"), the word for its value
   (NULL: a flag without one), its help (ending with the default in
   parentheses), and what it sets: set(ctx, name, value), or else the
   const char * field at offset text of ctx (PROF_IMPL_NO_TEXT: neither,
   for --help and --version, which print and end the parse). An optional
   value is only given with "=" (--counters[=LIST]); env names the
   variable that sets it too (the runner's PROFILER_*), or NULL. A NULL
   help leaves it out of --help (an alias). An option whose value is
   several words (--parameter-scan NAME LO HI) has words > 1 and set_words,
   which gets them all (with "=", the first is in the flag:
   --parameter-scan=NAME LO HI). alias is a short name ("-o", its value
   the next word) where the program takes short options, or NULL. range
   is the number the option takes (its default and bounds: see
   prof_impl_range), which its help may show as {default}, {lo} and
   {hi}, or NULL. */
typedef struct prof_impl_range prof_impl_range;
typedef struct
{
    const char * name, * value, * help;
    int (*set)(void * ctx, const char * name, const char * value);
    size_t text;
    int optional;
    const char * env;
    int words;
    int (*set_words)(void * ctx, const char * name,
                     const char * const * words);
    const char * alias;
    const prof_impl_range * range;
} prof_impl_option;
#define PROF_IMPL_NO_TEXT ((size_t) -1)
/* The rest of a table row after the help: the option stores its value in
   the const char * field of type (TEXT), sets the int field of type to 1
   (FLAG: an option without a value), or calls f (SET); f with the number
   r (NUMBER). */
#define PROF_IMPL_OPTION_TEXT(type, field) \
    NULL, offsetof(type, field), 0, NULL, 0, NULL, NULL, NULL
#define PROF_IMPL_OPTION_FLAG(type, field) PROF_IMPL_OPTION_TEXT(type, field)
#define PROF_IMPL_OPTION_SET(f) PROF_IMPL_OPTION_SET_ALIAS(f, NULL)
/* SET, also under a short name ("-o") */
#define PROF_IMPL_OPTION_SET_ALIAS(f, alias) \
    f, PROF_IMPL_NO_TEXT, 0, NULL, 0, NULL, alias, NULL
#define PROF_IMPL_OPTION_NUMBER(f, r) \
    f, PROF_IMPL_NO_TEXT, 0, NULL, 0, NULL, NULL, r

/* What the parser does with a --flag it does not know. */
typedef enum
{
    PROF_IMPL_UNKNOWN_ERROR,    /* a message, and the parse fails */
    PROF_IMPL_UNKNOWN_KEEP      /* left to the program, with its words */
} prof_impl_unknown;

typedef struct
{
    const char * program;       /* the name messages and --version use */
    const prof_impl_option * table;
    int n;
    const char * usage_head, * usage_tail;  /* around the options in --help */
    prof_impl_unknown unknown;
    int dash_h;                 /* "-h" is --help too (tools; not the
                                   runner, whose programs may take -h) */
    int short_options;          /* a word of a dash and more before "--"
                                   is an option: -h or an alias, else
                                   unknown (a program whose words are
                                   files, not commands) */
} prof_impl_options;

/* The project's version, for --version. */
#if !defined(PROF_IMPL_VERSION)
# define PROF_IMPL_VERSION "unknown"
#endif

/* Apply the options of argv[1 .. argc) in order: --flag=VALUE and --flag
   VALUE alike; "--" ends them (and is dropped). The other words (and all
   after "--") move to the front, argv[1 .. kept), NULL after them. Returns
   kept, -1 after a message for each problem (an unknown option unless
   kept, a missing value, a value refused by its set: all of them are
   tried), or PROF_IMPL_OPTIONS_EXIT when --help or --version printed. */
#define PROF_IMPL_OPTIONS_EXIT (-2)
int prof_impl_options_parse(const prof_impl_options * o, int argc,
        char ** argv, void * ctx);
/* Apply the options set in the environment (their env): 0, or -1 after a
   message. */
int prof_impl_options_env(const prof_impl_options * o, void * ctx);
/* The help: head, every option with its value, help and variable, tail. */
void prof_impl_options_usage(const prof_impl_options * o, FILE * f);

/* A number a setting or an option takes, written once for the setter
   that checks it, the parser, --help and the messages: its default, its
   bounds lo .. hi (each excluded when open), whole: no fraction. unit
   says how the three print: plain ("%.15g"), or as a time with its unit
   ("1ms", "5s") from nanoseconds or seconds. what says it in words for
   the messages, {lo} and {hi} standing for the bounds ("a whole number of
   epochs, {lo}..{hi}"). */
typedef enum { PROF_IMPL_PLAIN, PROF_IMPL_NS, PROF_IMPL_SECONDS } prof_impl_unit;
struct prof_impl_range
{
    double def, lo, hi;
    int lo_open, hi_open, whole;
    prof_impl_unit unit;
    const char * what;
};
/* The text of a macro's value, for a constant written once and named in
   a help or a message: with #define MIN_TIME_S 3, PROF_IMPL_STR(MIN_TIME_S)
   is "3". */
#define PROF_IMPL_STR(x) PROF_IMPL_STR_(x)
#define PROF_IMPL_STR_(x) #x
/* Whether v is in r (a NaN never is). */
int prof_impl_range_has(const prof_impl_range * r, double v);
/* text into buf (size bytes, cut if need be), each {default}, {lo} and
   {hi} replaced by r's number; other braces are kept. Returns buf. */
const char * prof_impl_range_text(char * buf, size_t size, const char * text,
                                  const prof_impl_range * r);
/* r's bounds in words into buf (size bytes): "1..100000", "> 0",
   ">= 0 and < 10000s" (an infinite hi is no bound). Returns buf. */
const char * prof_impl_range_bounds(char * buf, size_t size,
                                    const prof_impl_range * r);
/* Whether v (arg as given) is in r: 1, or 0 after the message
   prof_impl_option_number says (program NULL: none). */
int prof_impl_option_in(const char * program, const char * name,
        const char * arg, const prof_impl_range * r, double v);
/* arg as a number in r into *out: 0, or -1 after a message naming the
   program and the option ("prof-compare: --alpha=2: a number in (0, 1) is
   expected"); with program NULL, -1 and no message (the caller says it in
   its own words: the recorder's environment variables). */
int prof_impl_option_number(const char * program, const char * name,
        const char * arg, const prof_impl_range * r, double * out);
/* Nanoseconds in one unit named "ns", "us", "ms" or "s"; 0 for any other
   name or NULL. */
double prof_impl_time_unit_ns(const char * unit);
/* arg as a time into *ns: digits with an optional point, with a unit (ns, us, ms,
   s; bare_ns nanoseconds a unit when there is none), at most max_ns: 0, or
   -1 after a message naming the program and the option. max_ns HUGE_VAL:
   no bound here (the caller checks a range: prof_impl_option_in). */
int prof_impl_option_time(const char * program, const char * name,
        const char * arg, double bare_ns, double max_ns, double * ns);

/* ---- growable arrays (grow.c) ------------------------------------------- */

/* Make *array (a pointer to a malloc'd array of *capacity elements of size
   bytes, or NULL) hold at least need elements, doubling its capacity: 0, or
   -1 (out of memory or overflow) with *array and *capacity unchanged. The
   capacity starts at one element, not more (many arrays hold one). */
int prof_impl_grow(void * array, size_t * capacity, size_t need,
                   size_t size);
#include "chains.h"    /* prof_impl_chains: call stacks interned */

/* All that is left of stream f (grow.c): a malloc'd buffer with a 0 byte
   after its *len bytes, read into one buffer of the file's size when f is
   a regular file. NULL with errno set when it cannot: ENOMEM, EFBIG (over
   max bytes), or the read's error. */
char * prof_impl_read_all(FILE * f, size_t * len, size_t max);

/* A status line on stderr ("\rprofiler: text", for a terminal: the
   runner's progress), replaced by the next, erased by prof_impl_status_clear
   and before any prof_impl_warn message. */
void prof_impl_status(const char * text);
void prof_impl_status_clear(void);

/* Processor time of the process in nanoseconds (all threads). */
double prof_impl_cpu_ns(void);
/* Processor time of the calling thread in nanoseconds (the process's where
   the system has no thread clock). */
double prof_impl_thread_cpu_ns(void);

/* fprint_memory_usage reading the given status file (normally
   /proc/self/status), so that tests can give it a missing or corrupt one. */
void prof_impl_fprint_memory_usage(FILE * fs, const char * status_path);
/* The same for get_memory_usage and SHOW_MEMORY_USAGE (to fs). */
void prof_impl_get_memory_usage(meminfo_t meminfo, const char * status_path);
void prof_impl_show_memory_usage_to(FILE * fs, const char * status_path);

/* Event counters (counters.c). The perf_event_open system call as the
   counters make it (attr is a struct perf_event_attr; pid 0: the calling
   thread; any CPU): prof_impl_perf_open points to
   prof_impl_perf_open_syscall unless a test replaces it to simulate
   refusals; prof_impl_perf_open_calls counts every call made through it
   (atomically: threads may open sets at once). */
extern int (*prof_impl_perf_open)(void * attr, long pid, int group_fd);
extern unsigned long prof_impl_perf_open_calls;
int prof_impl_perf_open_syscall(void * attr, long pid, int group_fd);
/* The system call itself (close-on-exec; ENOSYS where there is none),
   under both seams: the counters' (any CPU) and the sampler's (a CPU). */
int prof_impl_perf_event_open(void * attr, long pid, int cpu, int group_fd);
/* Every ioctl the counters make on an event goes through
   prof_impl_perf_ioctl (ioctl(fd, request, arg) unless a test replaces it
   to simulate failures). */
extern int (*prof_impl_perf_ioctl)(int fd, unsigned long request, void * arg);
int prof_impl_perf_ioctl_syscall(int fd, unsigned long request, void * arg);
/* Open the events of the list (NULL: PROF_COUNTERS_DEFAULT) in c to count
   process pid, a child of the caller, from its next exec on, with its
   threads and the processes it starts (perf_event_open with pid, inherit
   and enable_on_exec). The caller forks, the child waits (e.g. on a pipe)
   while this opens the set, then execs; after the child has exited and
   been waited for, prof_counters_read gives its totals. The set is
   running from the open on (it counts nothing before the exec), may be
   stopped, and is closed with prof_counters_close. Returns what
   prof_counters_open returns: how many events can count, the others being
   unavailable with their reason, or PROF_COUNTERS_EINVAL (also for pid <=
   0). For prof-run. */
int prof_impl_counters_open_child(prof_counters * c, const char * events,
        long pid);
/* The file descriptor of a set's group leader (0: hardware, 1: software),
   or -1 (none, or c not open): for tests and profile programs. */
int prof_impl_counters_leader(const prof_counters * c, int group);

/* raw * enabled / running: a count corrected for multiplexing; NaN if the
   event was enabled but never ran, raw if it was never enabled. */
double prof_impl_counters_scale(double raw, double enabled, double running);

/* Convert one PERF_FORMAT_GROUP | ID | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING
   read (buf, nwords words: nr, time_enabled, time_running, then nr pairs of
   value and id) into out[j] for the events whose ids are ids[j], minus the
   baseline. 0, or -1 for a malformed buffer or an id not in it. */
int prof_impl_counters_convert(const unsigned long long * buf, size_t nwords,
        int nevents, const unsigned long long * ids, const double * base_raw,
        double base_enabled, double base_running, prof_counter_value * out);

/* What is known of an event and of the machine, for
   prof_impl_counters_reason: bits. */
enum
{
    PROF_IMPL_WHY_HW = 1,           /* a hardware event */
    PROF_IMPL_WHY_KERNEL_ONLY = 2,  /* an event that only happens in the kernel */
    PROF_IMPL_WHY_LINUX = 4,        /* the system is Linux */
    PROF_IMPL_WHY_PMU = 8,          /* a CPU PMU is among the event sources */
    PROF_IMPL_WHY_VM = 16,          /* a hypervisor is visible */
    PROF_IMPL_WHY_SECCOMP = 32      /* a seccomp filter is on this process */
};
/* The bits of this process: PROF_IMPL_WHY_LINUX on Linux, and
   PROF_IMPL_WHY_SECCOMP where /proc/self/status says a filter is on it. */
unsigned prof_impl_why_process(void);
/* The one-line reason (and likely fix) for an event that failed to open with
   errno err; why: PROF_IMPL_WHY_* bits; paranoid:
   /proc/sys/kernel/perf_event_paranoid (-1000 if unreadable). */
void prof_impl_counters_reason(char * buf, size_t size, int err, unsigned why,
        int paranoid);
/* /proc/sys/kernel/perf_event_paranoid, or -1000 if unreadable. */
int prof_impl_perf_paranoid(void);

/* The event list parsed as prof_counters_open would (func starts the
   messages): the number of events, or -1 after a message. */
int prof_impl_counters_check(const char * list, const char * func);
/* The perf stat name of an event name or alias, or NULL if unknown. */
const char * prof_impl_counters_canonical(const char * name);

/* ---- the time source of the benchmark runner and prof_repeat ----------- */

/* Tests replace the counter with a fake: prof_impl_set_fake_clock(read,
   ticks_per_second) makes prof_impl_read() return read() and the runner use
   that tick rate (and count processor time as equal to wall time);
   prof_impl_set_fake_clock(NULL, 0) restores the counter. */
extern double (*prof_impl_fake_read)(void);
extern double prof_impl_fake_rate;
void prof_impl_set_fake_clock(double (*read)(void), double ticks_per_second);

extern const void * volatile prof_impl_escape_sink;

static inline double prof_impl_read(void)
{
    return prof_impl_fake_read ? prof_impl_fake_read() : get_cycle_counter();
}

/* Involuntary context switches of the calling thread so far (getrusage;
   0 where unknown): an epoch during which it grows was preempted. With a
   fake clock, prof_impl_fake_switches() if set, else 0. */
long prof_impl_switches(void);
extern long (*prof_impl_fake_switches)(void);
/* The same, and the voluntary switches into *waits (the thread waited: a
   sleep, a lock, a blocking read), from one getrusage. With a fake clock,
   prof_impl_fake_waits() if set, else 0. */
long prof_impl_switch_counts(long * waits);
extern long (*prof_impl_fake_waits)(void);

/* What the scheduler has given the calling thread so far: its involuntary
   context switches (prof_impl_switches) and its processor time in ns. A
   call's wall time minus its processor time is the time the thread waited
   (for a core, when switches grew). With a fake clock, the processor time
   is prof_impl_fake_cpu_ns() if set, else the fake clock's time (a thread
   that never waits). */
typedef struct { long switches; double cpu_ns; } prof_impl_sched;
void prof_impl_sched_read(prof_impl_sched * s);
extern double (*prof_impl_fake_cpu_ns)(void);

/* The tick rate's fit against the kernel's clock (x86-64), pure functions
   of readings: prof_impl_tick_sync takes n brackets (a counter read a[i],
   the clock ns[i] in ns, a counter read b[i]) and gives the tightest one's
   point: *ticks the middle of its two reads, *at_ns its clock (NaN for
   n <= 0). prof_impl_tick_rate_fit: ticks per second between two such
   points, or 1e9 after a message when that is not in (1e6, 1e11). */
void prof_impl_tick_sync(const double * a, const double * ns,
        const double * b, int n, double * ticks, double * at_ns);
double prof_impl_tick_rate_fit(double ticks0, double ns0, double ticks1,
        double ns1);

/* Median ticks of two back-to-back prof_impl_read() calls (fake or real):
   the fixed cost inside every interval the runner times. */
double prof_impl_read_overhead(void);

/* The wall time that one prof_repeat may take beyond the wall time
   FLINT's would take at the same load, as a share of FLINT's: it holds
   the timings thrown away because a preemption fell in their timed
   section and their re-runs (in processor time, less as the load grows).
   Default 0.5 (at most 1.5x FLINT's); 0 turns re-runs off, and the bound
   with them (FLINT's behaviour: profile/p-repeat-load compares
   settings). */
extern double prof_impl_repeat_retry_share;
/* Set once prof_repeat has said that the machine is busy (a call stopped
   at FLINT's pace, or preempted calls kept), and once it has said that the
   5 s budget stopped a call: each once per process; tests reset them. */
extern int prof_impl_repeat_said_busy, prof_impl_repeat_said_stopped;
/* The calling thread's processor time per preemption of a timed section in
   its last prof_repeat, in us (0: none): the next one starts from it. */
extern PROF_IMPL_TLS double prof_impl_repeat_run_us;

/* Ticks per second of prof_impl_read. */
double prof_impl_read_rate(void);
/* Nanoseconds per tick of prof_impl_read (the runner's clock). */
double prof_impl_ns_per_tick(void);

/* One call of a prof_repeat-style target between two reads of
   prof_impl_read(), *t0 before and *t1 after (the only reads around it:
   the runner's epochs and prof_repeat's calls are t1 - t0). Returns the
   ticks clock 0 accumulated if the target called prof_start()/prof_stop(),
   or NaN if it did not (clock_last[0] is left at the NaN sentinel). */
double prof_impl_call_target(profile_target_t target, void * arg,
        ulong count, double * t0, double * t1);

/* ---- statistics (stats.c) ----------------------------------------------- */

void prof_impl_sort(double * x, int n);
/* Median of v[0..n-1] (sorts v in place); NaN for n <= 0. */
double prof_impl_median(double * v, int n);
double prof_impl_quantile(const double * sorted, int n, double p);
double prof_impl_binom_cdf_half(int n, int k);
int prof_impl_median_interval(const double * sorted, int n, double level,
        double * lo, double * hi, double * achieved);
double prof_impl_mdape(const double * sorted, int n);
int prof_impl_bimodal(const double * sorted, int n);
/* The next number of a small deterministic generator (xorshift64*),
   uniform in [0, 1). */
double prof_impl_uniform(unsigned long long * state);
/* Weighted least squares through the origin, t = c g(N), point i of
   weight w[i] (NULL: all 1): c = sum(w t g) / sum(w g^2), rms_pct = 100
   sqrt(sum(w r^2) / sum(w t^2)) with r = t - c g: the share of the
   weighted times the fit leaves unexplained, 0 to 100 (the fit is never
   worse than c = 0). 0, or -1 for fewer than 2 points, a g or times that
   give no positive fit. */
int prof_impl_fit(const double * n, const double * t, const double * w,
        int count, double (*g)(double), double * coefficient, double * rms_pct);

/* ---- the machine (sysinfo.c) -------------------------------------------- */

typedef struct
{
    char cpu[128], host[128], date[40], exe[256], scaling[32];
    int cores;
    double mhz;
    double load[3];
    int ncaches;
    struct { char type[16]; int level; long size; int sharing; } caches[8];
} prof_impl_sysinfo;

void prof_impl_sysinfo_read(prof_impl_sysinfo * si);

/* Every file sysinfo.c reads (/proc/..., /sys/...) is read under this
   directory: "" (the default) is the machine; tests point it at a tree
   of their own, with files missing, unreadable or odd. */
extern const char * prof_impl_sys_root;
/* Online CPUs (at least 1). */
int prof_impl_online_cores(void);

/* The machine check (pyperf's "system show"): what can bend figures. A
   file that cannot be read leaves its finding unknown, never fails. */
typedef struct
{
    int cores;              /* online CPUs */
    double load[3];         /* load averages, 1, 5, 15 min; NaN: unknown */
    char governor[32];      /* the CPUs' frequency governor, "mixed" when
                               they differ; "": unknown */
    int turbo;              /* turbo/boost: 1 on, 0 off, -1 unknown */
    int aslr;               /* randomize_va_space: 0 off, 1 partial, 2
                               full, -1 unknown */
    int vm;                 /* a hypervisor is visible: 1, 0, -1 unknown */
    int pmu;                /* a CPU PMU among perf's event sources (else
                               perf refuses hardware events): 1, 0, -1 */
} prof_impl_machine;

void prof_impl_machine_read(prof_impl_machine * m);
/* The 1-minute load average now (NaN: unknown). */
double prof_impl_load_now(void);
/* Whether a load average exceeds the cores (NaN: no). */
int prof_impl_machine_loaded(double load, int cores);
/* The load a run measured on the real clock ends under:
   prof_impl_load_now(); with a fake clock (its figures are no machine's),
   prof_impl_fake_load() if set, else NaN. */
double prof_impl_run_load(void);
extern double (*prof_impl_fake_load)(void);
/* The parts of the check on their own: 1, 0, or -1 unknown. */
int prof_impl_machine_vm(void);
int prof_impl_machine_pmu(void);
/* A check's value in words: turbo "on"/"off", ASLR "off"/"partial"/"full",
   VM and PMU "yes"/"no"; "unknown" for -1. */
enum { PROF_IMPL_WORD_TURBO, PROF_IMPL_WORD_ASLR, PROF_IMPL_WORD_YES };
const char * prof_impl_machine_word(int what, int v);
/* The check in one line: "machine: load 0.52 on 2 cores, governor
   unknown, turbo unknown, ASLR full, virtual machine yes, PMU no". */
void prof_impl_machine_line(const prof_impl_machine * m, char * buf,
        size_t size);
/* What bends the figures, one sentence each with its remedy, into
   text[0 .. max): their number. */
#define PROF_IMPL_FINDINGS 5
#define PROF_IMPL_FINDING 200
int prof_impl_machine_findings(const prof_impl_machine * m,
        char text[][PROF_IMPL_FINDING], int max);
/* The check as --check prints it: each finding, then the findings. */
void prof_impl_machine_print(FILE * out, const prof_impl_machine * m);

#endif
