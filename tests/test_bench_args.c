/* The runner's command line (prof_bench_args, prof_bench_init): every flag
   in both spellings and from its environment variable, read back from the
   suite; unknown flags, missing and bad values; "--"; the program's own
   words left in argv by prof_bench_init; Google Benchmark's spellings. */
#include "check.h"
#include "bench.h"
#include "bench_settings.h"

#include <ctype.h>
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct
{
    const char * args[4];       /* the words after the program's name */
    int ok;                     /* 0 expected, or -1 */
    const char * message;       /* in stderr (NULL: nothing) */
} args_case;

/* The suite after prof_bench_args on words; *rc its return, *err stderr. */
static prof_bench * parsed(const char * const * words, int * rc,
        const char ** err)
{
    char * argv[8];
    char prog[] = "bench";
    capture_t cap;
    int argc = 1;
    prof_bench * b = prof_bench_new();
    argv[0] = prog;
    while (argc < 7 && words[argc - 1] != NULL)
    {
        argv[argc] = (char *) words[argc - 1];
        argc++;
    }
    argv[argc] = NULL;
    capture_begin(&cap, 2);
    *rc = prof_bench_args(b, argc, argv);
    *err = capture_end(&cap);
    return b;
}

static void test_flags(void)
{
    static const char * const equals[] = { "--epochs=21", "--warmup=7",
        "--min-epoch-time=2ms", "--max-epoch-time=0.5s", "--time-unit=us",
        "--budget=250ms", NULL };
    static const char * const spaced[] = { "--epochs", "21", "--warmup", "7",
        "--min-epoch-time", "2ms", NULL };
    static const char * const more[] = { "--processes", "4", "--format", "csv",
        "--out-format", "md", NULL };
    static const char * const last[] = { "--counters=page-faults", "--wide",
        "--list", "--filter", "^x", NULL };
    prof_bench * b;
    const char * err;
    int rc;

    b = parsed(equals, &rc, &err);
    CHECK(rc == 0 && b->s.epochs == 21 && b->s.warmup == 7
          && b->s.min_epoch_ns == 2e6 && b->s.max_epoch_ns == 5e8
          && strcmp(b->s.time_unit, "us") == 0 && b->s.budget_s == 0.25
          && b->s.time_unit_fixed,
          "--flag=value: rc %d [%s]", rc, err);
    /* auto (the default): the tables' unit a row, ns in the files */
    CHECK(prof_bench_set_time_unit(b, "auto") == 0 && !b->s.time_unit_fixed
          && strcmp(b->s.time_unit, "ns") == 0, "auto: %s", b->s.time_unit);
    prof_bench_free(b);

    b = parsed(spaced, &rc, &err);
    CHECK(rc == 0 && b->s.epochs == 21 && b->s.warmup == 7
          && b->s.min_epoch_ns == 2e6, "--flag value: rc %d [%s]", rc, err);
    prof_bench_free(b);

    b = parsed(more, &rc, &err);
    CHECK(rc == 0 && b->processes == 4 && b->console.format == PROF_FORMAT_CSV
          && b->file.format == PROF_FORMAT_MD && b->file.format_set,
          "--processes --format --out-format: rc %d [%s]", rc, err);
    prof_bench_free(b);

    b = parsed(last, &rc, &err);
    CHECK(rc == 0 && strcmp(b->s.counters, "page-faults") == 0 && b->wide
          && b->list_only && b->has_filter && prof_impl_filter_match(b, "xy")
          && !prof_impl_filter_match(b, "yx"), "--counters --wide --list "
          "--filter: rc %d [%s]", rc, err);
    prof_bench_free(b);
}

static void test_refusals(void)
{
    static const args_case cases[] = {
        { { "--fitler=x" }, -1, "unknown option --fitler=x (see --help)" },
        { { "--epochs" }, -1, "--epochs needs a value: --epochs=N" },
        { { "--epochs=0" }, -1, "--epochs=0: a whole number of epochs, "
          "1..100000 is expected" },
        { { "--epochs=2.5" }, -1, "a whole number of epochs" },
        { { "--budget=5 s" }, -1, "--budget=5 s: a time is expected" },
        { { "--budget=-1s" }, -1, "a time is expected" },
        { { "--min-epoch-time=1h" }, -1, "a time is expected" },
        { { "--budget=0x1p1ms" }, -1, "--budget=0x1p1ms: a time is expected" },
        { { "--max-epoch-time=1e2ms" }, -1, "a time is expected" },
        { { "--time-unit=min" }, -1, "unknown unit \"min\"" },
        { { "--list=maybe" }, -1, "--list takes no value" },
        { { "--wide=yes" }, -1, "--wide takes no value" },
        { { "--out-format=none" }, -1, "a file has a format" },
        { { "--warmup=-3" }, -1, "a whole number of iterations" },
        { { "--epochs=0x10" }, -1, "a whole number of epochs" },
        { { "--processes=inf" }, -1, "a whole number of processes" },
        { { "--counters=cycles,,x" }, -1, "empty event name in "
          "\"cycles,,x\"" },
        /* both problems said, not only the first */
        { { "--epochs=x", "--processes=0" }, -1, "a whole number of processes" },
        /* after "--", the program's: not read */
        { { "--", "--fitler=x", "--epochs=0" }, 0, NULL },
        /* words that are not flags are the program's too */
        { { "input.txt", "7" }, 0, NULL },
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        const char * err;
        int rc;
        prof_bench * b = parsed(cases[i].args, &rc, &err);
        CHECK(rc == cases[i].ok, "case %d (%s): rc %d [%s]", (int) i,
              cases[i].args[0], rc, err);
        if (cases[i].message != NULL)
            CHECK(strstr(err, cases[i].message) != NULL, "case %d (%s): [%s] "
                  "wanted [%s]", (int) i, cases[i].args[0], err,
                  cases[i].message);
        else
            CHECK(err[0] == '\0', "case %d: said [%s]", (int) i, err);
        prof_bench_free(b);
    }
}

/* The environment: each flag's PROFILER_ variable; the command line wins. */
static void test_environment(void)
{
    static const char * const none[] = { NULL };
    static const char * const over[] = { "--epochs=9", NULL };
    prof_bench * b;
    const char * err;
    int rc;
    setenv("PROFILER_EPOCHS", "15", 1);
    setenv("PROFILER_BUDGET", "2s", 1);
    setenv("PROFILER_TIME_UNIT", "ms", 1);
    setenv("PROFILER_PROCESSES", "3", 1);
    setenv("PROFILER_OUT_FORMAT", "csv", 1);
    b = parsed(none, &rc, &err);
    CHECK(rc == 0 && b->s.epochs == 15 && b->s.budget_s == 2.0
          && strcmp(b->s.time_unit, "ms") == 0 && b->processes == 3
          && b->file.format == PROF_FORMAT_CSV, "environment: rc %d [%s]", rc,
          err);
    prof_bench_free(b);
    b = parsed(over, &rc, &err);
    CHECK(rc == 0 && b->s.epochs == 9, "the command line wins: %d",
          b->s.epochs);
    prof_bench_free(b);
    setenv("PROFILER_EPOCHS", "lots", 1);
    b = parsed(none, &rc, &err);
    CHECK(rc == -1 && strstr(err, "--epochs=lots"), "bad variable: [%s]", err);
    prof_bench_free(b);
    unsetenv("PROFILER_EPOCHS");
    unsetenv("PROFILER_BUDGET");
    unsetenv("PROFILER_TIME_UNIT");
    unsetenv("PROFILER_PROCESSES");
    unsetenv("PROFILER_OUT_FORMAT");
}

/* prof_bench_init takes its flags out of argv and leaves the rest, flags
   it does not know included; prof_bench_args leaves argv whole. */
static void test_init(void)
{
    char a0[] = "bench", a1[] = "--n=1050", a2[] = "--epochs", a3[] = "7",
         a4[] = "data.txt", a5[] = "--", a6[] = "--epochs=3";
    char * argv[] = { a0, a1, a2, a3, a4, a5, a6, NULL };
    char * keep[8];
    int argc = 7;
    capture_t cap;
    prof_bench * b = prof_bench_new();
    memcpy(keep, argv, sizeof keep);
    capture_begin(&cap, 2);
    CHECK(prof_bench_args(b, argc, argv) == -1, "args: --n refused");
    CHECK(strstr(capture_end(&cap), "unknown option --n=1050"), "message");
    CHECK(memcmp(keep, argv, sizeof keep) == 0, "args changed argv");
    CHECK(prof_bench_init(b, &argc, argv) == 0 && b->s.epochs == 7, "init");
    CHECK(argc == 4 && strcmp(argv[1], "--n=1050") == 0
          && strcmp(argv[2], "data.txt") == 0
          && strcmp(argv[3], "--epochs=3") == 0 && argv[4] == NULL,
          "left: %d words", argc);
    prof_bench_free(b);
}

/* Google Benchmark's spellings of the common flags. */
static void test_gbench_spellings(void)
{
    static const char * const gb[] = { "--benchmark_filter=^a",
        "--benchmark_format=console", "--benchmark_time_unit=ms",
        "--benchmark_list_tests=true", NULL };
    static const char * const gb2[] = { "--benchmark_format=json",
        "--benchmark_list_tests=false", "--benchmark_out_format=csv", NULL };
    prof_bench * b;
    const char * err;
    int rc;
    b = parsed(gb, &rc, &err);
    CHECK(rc == 0 && b->has_filter && b->console.format == PROF_FORMAT_MD
          && strcmp(b->s.time_unit, "ms") == 0 && b->list_only,
          "Google Benchmark spellings: rc %d [%s]", rc, err);
    prof_bench_free(b);
    b = parsed(gb2, &rc, &err);
    CHECK(rc == 0 && b->console.format == PROF_FORMAT_JSON && !b->list_only
          && b->file.format == PROF_FORMAT_CSV, "rc %d [%s]", rc, err);
    prof_bench_free(b);
}

/* Google Benchmark's negative filter: "-REGEX" keeps the names that do not
   match; a lone "-" is a plain expression; a later filter replaces it. */
static void test_negative_filter(void)
{
    static const char * const neg[] = { "--benchmark_filter=-^chain", NULL };
    static const char * const dash[] = { "--filter=-", NULL };
    prof_bench * b;
    const char * err;
    int rc;
    b = parsed(neg, &rc, &err);
    CHECK(rc == 0 && b->has_filter && !prof_impl_filter_match(b, "chain 10")
          && prof_impl_filter_match(b, "sum chain")
          && prof_impl_filter_match(b, "empty"),
          "negative filter: rc %d [%s]", rc, err);
    CHECK(prof_bench_set_filter(b, "^chain") == 0
          && prof_impl_filter_match(b, "chain 10")
          && !prof_impl_filter_match(b, "empty"), "a positive filter after it");
    CHECK(prof_bench_set_filter(b, "-(") == -1
          && prof_impl_filter_match(b, "chain 10"),
          "a bad negative filter leaves the filter as it was");
    prof_bench_free(b);
    b = parsed(dash, &rc, &err);
    CHECK(rc == 0 && prof_impl_filter_match(b, "a-b")
          && !prof_impl_filter_match(b, "ab"), "\"-\" alone: rc %d [%s]", rc, err);
    prof_bench_free(b);
}

/* What --help prints (prof_bench_args exits in it: run in a child). */
static const char * help_text(void)
{
    static char buf[16384];
    char prog[] = "bench", flag[] = "--help";
    char * argv[] = { prog, flag, NULL };
    size_t n = 0;
    ssize_t got;
    int fd[2], status;
    pid_t pid;
    if (pipe(fd) != 0 || (pid = fork()) < 0)
        return "";
    if (pid == 0)
    {
        prof_bench * b = prof_bench_new();
        dup2(fd[1], 1);
        close(fd[0]);
        prof_bench_args(b, 2, argv);
        _exit(3);                   /* --help did not exit */
    }
    close(fd[1]);
    while (n + 1 < sizeof buf
           && (got = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t) got;
    buf[n] = '\0';
    close(fd[0]);
    for (got = 0, n = 0; buf[n] != '\0'; n++)     /* lines joined */
        if (!isspace((unsigned char) buf[n]) || (got > 0
            && !isspace((unsigned char) buf[got - 1])))
            buf[got++] = isspace((unsigned char) buf[n]) ? ' ' : buf[n];
    buf[got] = '\0';
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "--help: status %d",
          status);
    return buf;
}

/* Whether the header's comment of setter (from the comment just before
   its declaration) names text as a default: "Default 11", "(1ms)". */
static int header_says(const char * header, const char * setter,
        const char * text)
{
    char decl[96];
    const char * at, * c, * p;
    size_t len = strlen(text);
    snprintf(decl, sizeof decl, "int %s(", setter);
    if ((at = strstr(header, decl)) == NULL)
        return 0;
    for (c = at; c > header && strncmp(c, "/*", 2) != 0; c--)
        ;
    p = strstr(c, "efault");
    if (p == NULL || p > at)
        return 0;
    for (p = c; (p = strstr(p, text)) != NULL && p < at; p += len)
        if (!isalnum((unsigned char) p[-1]) && p[-1] != '.'
            && !isalnum((unsigned char) p[len]))
            return 1;
    return 0;
}

/* The one table: --help shows its defaults, the header's comments say
   them, an out-of-range value's message (the parser's and the setter's)
   shows its bounds. */
static void test_table(void)
{
    static const struct
    {
        const char * flag, * help, * setter;
        const prof_impl_range * r;
    } rows[] = {
        { "--epochs", "samples per benchmark", "prof_bench_set_epochs",
          &prof_impl_epochs_range },
        { "--min-epoch-time", "least time of an epoch",
          "prof_bench_set_min_epoch_time_ns", &prof_impl_min_epoch_range },
        { "--max-epoch-time", "most time of an epoch",
          "prof_bench_set_max_epoch_time_ns", &prof_impl_max_epoch_range },
        { "--warmup", "iterations run untimed before calibrating",
          "prof_bench_set_warmup", &prof_impl_warmup_range },
        { "--budget", "wall time one benchmark may take",
          "prof_bench_set_budget_s", &prof_impl_budget_range },
        { "--processes", "pool their epochs", "prof_bench_set_processes",
          &prof_impl_processes_range },
        { "--precision", "within PCT% of the median",
          "prof_bench_set_precision_pct", &prof_impl_precision_range },
        { NULL, NULL, "prof_bench_set_resolution_multiple",
          &prof_impl_resolution_range },
        { NULL, NULL, "prof_bench_set_min_epoch_iterations",
          &prof_impl_min_iters_range },
        { NULL, NULL, "prof_bench_set_epoch_iterations",
          &prof_impl_exact_iters_range },
        { NULL, NULL, "prof_bench_set_preempt_retries",
          &prof_impl_retries_range },
        { NULL, NULL, "prof_bench_set_epoch_jitter", &prof_impl_jitter_range },
        { NULL, NULL, "prof_bench_set_batch", &prof_impl_batch_range },
        { NULL, NULL, "prof_bench_set_threads", &prof_impl_threads_range },
    };
    const char * help = help_text();
    FILE * f = fopen(PROF_HEADER, "r");
    const char * header = f ? check_slurp(f) : "";
    size_t i;
    CHECK(f != NULL, "cannot read %s", PROF_HEADER);
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
    {
        const prof_impl_range * r = rows[i].r;
        char def[64], want[256], arg[96];
        const char * err, * words[2];
        int rc;
        prof_bench * b;
        prof_impl_range_text(def, sizeof def, "{default}", r);
        CHECK(header_says(header, rows[i].setter, def), "the header's "
              "comment of %s does not say its default %s", rows[i].setter,
              def);
        if (rows[i].flag == NULL)
            continue;
        snprintf(want, sizeof want, "%s (%s)", rows[i].help, def);
        CHECK(strstr(help, want) != NULL, "--help lacks [%s]:\n%s", want,
              help);
        /* just past hi: the parser's message with the table's words */
        snprintf(arg, sizeof arg, "%s=%.17g%s", rows[i].flag,
                 r->unit == PROF_IMPL_NS ? r->hi * 2 : r->hi + 1,
                 r->unit == PROF_IMPL_PLAIN ? "" : r->unit == PROF_IMPL_NS
                 ? "ns" : "s");
        words[0] = arg;
        words[1] = NULL;
        b = parsed(words, &rc, &err);
        prof_impl_range_text(want, sizeof want, r->what, r);
        CHECK(rc == -1 && strstr(err, want) != NULL, "%s: rc %d [%s] wanted "
              "[%s]", arg, rc, err, want);
        prof_bench_free(b);
    }
    /* the setters' messages: the bounds from the table */
    {
        prof_bench * b = prof_bench_new();
        capture_t cap;
        const char * err;
        char want[128], bounds[96];
        capture_begin(&cap, 2);
        prof_bench_set_epochs(b, 0);
        prof_bench_set_budget_s(b, 0);
        prof_bench_set_epoch_jitter(b, 2);
        err = capture_end(&cap);
        snprintf(want, sizeof want, "epochs must be %s", prof_impl_range_bounds(
                 bounds, sizeof bounds, &prof_impl_epochs_range));
        CHECK(strstr(err, want) != NULL, "[%s] wanted [%s]", err, want);
        snprintf(want, sizeof want, "budget must be %s", prof_impl_range_bounds(
                 bounds, sizeof bounds, &prof_impl_budget_range));
        CHECK(strstr(err, want) != NULL && strstr(want, "> 0 and < ")
              && strstr(err, "must be 0..1: bad value 2"), "[%s] wanted [%s]",
              err, want);
        CHECK(b->s.epochs == (int) prof_impl_epochs_range.def
              && b->s.budget_s == prof_impl_budget_range.def
              && b->s.jitter == prof_impl_jitter_range.def,
              "a refused value was set, or the defaults are not the table's");
        prof_bench_free(b);
    }
}

/* Google Benchmark's flags, replayed: each accepted with its meaning here
   (read back from the suite), or refused with the reason. */
static void test_gbench_flags(void)
{
    static const char * const meant[] = { "--benchmark_repetitions=5",
        "--benchmark_min_time=0.5s", "--benchmark_counters_tabular=true",
        "--benchmark_report_aggregates_only=true", "--benchmark_context=a=b=c",
        "--benchmark_enable_random_interleaving", NULL };
    static const char * const meant2[] = { "--benchmark_min_time=1000x",
        "--benchmark_display_aggregates_only", "--benchmark_perf_counters="
        "PAGE-FAULTS", "--v=0", "--benchmark_context", "b=", NULL };
    static const char * const bare[] = { "--benchmark_min_time=0.02",
        "--benchmark_out_format=console", NULL };
    static const args_case refused[] = {
        { { "--v=1" }, -1, "--v=1: the runner has no log levels" },
        { { "--benchmark_min_time=0x" }, -1, "--benchmark_min_time=0x: Nx, "
          "N a whole number of iterations, 1..1099511627776, is expected" },
        { { "--benchmark_min_time=2h" }, -1, "a time is expected" },
        { { "--benchmark_min_time=20000s" }, -1, "a time >= 0 and < 10000s "
          "is expected" },
        { { "--benchmark_repetitions=0" }, -1, "a whole number of epochs" },
        { { "--benchmark_perf_counters=INST_RETIRED:ANY" }, -1, "perf's "
          "events by name" },
        { { "--benchmark_context=novalue" }, -1, "KEY=VALUE is expected" },
        { { "--benchmark_context=date=x" }, -1, "the context has a \"date\" "
          "already" },
        { { "--benchmark_context=k=1", "--benchmark_context=k=2" }, -1,
          "has a \"k\" already" },
        { { "--benchmark_report_aggregates_only=maybe" }, -1, "true or false "
          "is expected" },
        { { "--benchmark_counters_tabular=2" }, -1, "true or false" },
        { { "--percentiles=5,5" }, -1, "p5 twice" },
        { { "--benchmark_min_warmup_time=1" }, -1, "--benchmark_min_warmup_"
          "time: not taken: the warmup here is in iterations (--warmup=N)" },
        { { "--benchmark_color=true" }, -1, "not taken: the tables have no "
          "colour" },
        { { "--benchmark_dry_run" }, -1, "not taken: there is no dry run" },
        { { "--percentiles=50,x" }, -1, "a list of percentiles 0..100, or "
          "none is expected" },
        { { "--percentiles=101" }, -1, "a list of percentiles" },
    };
    prof_bench * b;
    const char * err;
    size_t i;
    int rc;
    b = parsed(meant, &rc, &err);
    CHECK(rc == 0 && b->s.epochs == 5 && b->s.min_epoch_ns == 5e8
          && b->s.max_epoch_ns == 5e8 && b->aggregates_only
          == PROF_IMPL_AGGREGATES_REPORT && b->ncontext == 1
          && strcmp(b->context[0], "a=b=c") == 0 && b->interleave,
          "Google Benchmark's flags: rc %d [%s]", rc, err);
    prof_bench_free(b);
    b = parsed(meant2, &rc, &err);
    CHECK(rc == 0 && b->s.exact_iters == 1000
          && b->aggregates_only == PROF_IMPL_AGGREGATES_DISPLAY
          && strcmp(b->s.counters, "page-faults") == 0 && b->ncontext == 1,
          "Google Benchmark's flags (2): rc %d [%s]", rc, err);
    prof_bench_free(b);
    b = parsed(bare, &rc, &err);
    CHECK(rc == 0 && b->s.min_epoch_ns == 2e7
          && b->s.max_epoch_ns == prof_impl_max_epoch_range.def
          && b->file.format == PROF_FORMAT_MD,
          "--benchmark_min_time=0.02: rc %d [%s]", rc, err);
    prof_bench_free(b);
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++)
    {
        b = parsed(refused[i].args, &rc, &err);
        CHECK(rc == -1 && strstr(err, refused[i].message) != NULL, "%s: rc "
              "%d [%s] wanted [%s]", refused[i].args[0], rc, err,
              refused[i].message);
        prof_bench_free(b);
    }
}

/* --percentiles: the list sorted, none, and the default list (the
   table's) in --help and the header. */
static void test_percentiles(void)
{
    static const char * const some[] = { "--percentiles=95,5,25,75", NULL };
    static const char * const none[] = { "--percentiles=none", NULL };
    char def[64] = "";
    const char * help = help_text(), * err;
    FILE * f = fopen(PROF_HEADER, "r");
    const char * header = f ? check_slurp(f) : "";
    prof_bench * b;
    int k, rc;
    for (k = 0; k < prof_impl_npercentiles_default; k++)
        snprintf(def + strlen(def), sizeof def - strlen(def), "%s%g",
                 k ? "," : "", prof_impl_percentiles_default[k]);
    CHECK(strstr(help, def) && strstr(header, def), "the default %s not in "
          "--help or the header", def);
    if (f != NULL)
        fclose(f);
    b = parsed(some, &rc, &err);
    CHECK(rc == 0 && b->npercentiles == 4 && b->percentiles[0] == 5
          && b->percentiles[3] == 95, "--percentiles: rc %d [%s]", rc, err);
    prof_bench_free(b);
    b = parsed(none, &rc, &err);
    CHECK(rc == 0 && b->npercentiles == 0, "none: rc %d [%s]", rc, err);
    prof_bench_free(b);
    b = prof_bench_new();
    CHECK(b->npercentiles == prof_impl_npercentiles_default
          && prof_bench_set_percentiles(b, NULL, 2) == -1
          && prof_bench_set_percentiles(b, NULL, 0) == 0 && b->npercentiles == 0
          && prof_bench_set_percentiles(b, prof_impl_percentiles_default,
                                        PROF_PERCENTILES_MAX + 1) == -1,
          "prof_bench_set_percentiles");
    prof_bench_free(b);
}

int main(void)
{
    test_table();
    test_flags();
    test_refusals();
    test_environment();
    test_init();
    test_gbench_spellings();
    test_negative_filter();
    test_gbench_flags();
    test_percentiles();
    return check_report("test_bench_args");
}
