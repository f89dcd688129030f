/* prof-run's parts that do not run anything, on made-up runs so that every
   figure is exact: the words of a command line, the parameters' values
   and their substitution, the stop rule, a command's result (median,
   interval, partial), the ratio of means, the gate by round (sign test)
   and unpaired (U test) with exit 0, 1 and 3, and the exports read back
   (hyperfine's JSON by the JSON reader, the runner's JSON by
   prof-compare's loader), and the event counts of the runs. */
#include "check.h"
#include "../src/tools/run/run.h"
#include "../src/tools/common/json.h"
#include "fail_alloc.h"

#include <math.h>

static void test_split(void)
{
    char ** w = prof_impl_cmd_split("  a 'b c' \"d \\\"e\\\" $f\" g\\ h 'i'j  ",
                                    "test");
    CHECK(w != NULL && w[0] && strcmp(w[0], "a") == 0
          && strcmp(w[1], "b c") == 0 && strcmp(w[2], "d \"e\" $f") == 0
          && strcmp(w[3], "g h") == 0 && strcmp(w[4], "ij") == 0
          && w[5] == NULL, "the words");
    free(w);
    w = prof_impl_cmd_split("''", "test");
    CHECK(w != NULL && strcmp(w[0], "") == 0 && w[1] == NULL, "an empty word");
    free(w);
    CHECK(prof_impl_cmd_split("a 'b", NULL) == NULL, "unclosed quote");
    CHECK(prof_impl_cmd_split(" \t", NULL) == NULL, "nothing");
}

/* Build a plan from texts and parameters (shell "none"): 0 or -1. */
static int build(prof_cmd_plan * plan, char ** texts, int n,
                 const prof_cmd_param * params, int np)
{
    prof_cmd_spec spec;
    memset(plan, 0, sizeof *plan);
    memset(&spec, 0, sizeof spec);
    spec.texts = texts;
    spec.ntexts = n;
    spec.params = params;
    spec.nparams = np;
    spec.shell = "none";
    return prof_impl_cmd_build(plan, &spec);
}

static void test_parameters(void)
{
    char a[] = "echo {x} {d}", b[] = "true {x}", * texts[2];
    prof_cmd_param p[2];
    prof_cmd_plan plan;
    texts[0] = a;
    texts[1] = b;
    memset(p, 0, sizeof p);
    p[0].name = "x";
    p[0].list = "1,two";
    p[1].name = "d";
    p[1].is_scan = 1;
    p[1].lo = 0.1;
    p[1].hi = 0.3;
    p[1].step = 0.1;
    CHECK(build(&plan, texts, 2, p, 2) == 0 && plan.ncmds == 12,
          "2 x 3 values x 2 commands: %d", plan.ncmds);
    if (plan.ncmds == 12)
    {
        /* hyperfine's order: the commands vary fastest, then the first
           parameter, then the second */
        CHECK(strcmp(plan.cmds[0].text, "echo 1 0.1") == 0, "%s", plan.cmds[0].text);
        CHECK(strcmp(plan.cmds[1].text, "true 1") == 0, "%s", plan.cmds[1].text);
        CHECK(strcmp(plan.cmds[2].text, "echo two 0.1") == 0, "%s", plan.cmds[2].text);
        CHECK(strcmp(plan.cmds[4].text, "echo 1 0.2") == 0, "%s", plan.cmds[4].text);
        CHECK(strcmp(plan.cmds[5].text, "true 1") == 0, "%s", plan.cmds[5].text);
        CHECK(strcmp(plan.cmds[10].text, "echo two 0.3") == 0, "%s",
              plan.cmds[10].text);
        CHECK(strcmp(plan.cmds[10].argv[2], "0.3") == 0
              && strcmp(plan.cmds[10].name, "echo two 0.3") == 0, "argv, name");
        CHECK(plan.cmds[10].nparams == 2
              && strcmp(plan.cmds[10].param_values[1], "0.3") == 0, "values");
    }
    prof_impl_cmd_free(&plan);
    p[1].lo = 5;                    /* LO above HI */
    CHECK(build(&plan, texts, 2, p, 2) != 0, "LO > HI");
    prof_impl_cmd_free(&plan);
    p[0].name = "unused";
    CHECK(build(&plan, texts, 1, p, 1) != 0, "a parameter used nowhere");
    prof_impl_cmd_free(&plan);
    /* one name twice (--parameter-list x a,b --parameter-list x c,d):
       refused, as hyperfine does, not run with the first list twice */
    p[0].name = p[1].name = "x";
    p[0].list = "a,b";
    p[1].is_scan = 0;
    p[1].list = "c,d";
    CHECK(build(&plan, texts, 1, p, 2) != 0 && plan.ncmds == 0,
          "a parameter given twice: %d commands", plan.ncmds);
    prof_impl_cmd_free(&plan);
}

/* A --parameter-list value is taken whole, however long (a path, a list
   of flags): nothing is cut. */
static void test_long_list_value(void)
{
    char a[] = "echo {v}", * texts[1], list[400], want[400];
    prof_cmd_param p;
    prof_cmd_plan plan;
    int i;
    for (i = 0; i < 150; i++)
        want[i] = (char) ('a' + i % 26);
    want[150] = '\0';
    snprintf(list, sizeof list, "short,%s,x", want);
    texts[0] = a;
    memset(&p, 0, sizeof p);
    p.name = "v";
    p.list = list;
    CHECK(build(&plan, texts, 1, &p, 1) == 0 && plan.ncmds == 3, "3 values");
    if (plan.ncmds == 3)
    {
        CHECK(strcmp(plan.cmds[0].param_values[0], "short") == 0, "first");
        CHECK(strcmp(plan.cmds[1].param_values[0], want) == 0,
              "150 characters: %zu kept", strlen(plan.cmds[1].param_values[0]));
        CHECK(strcmp(plan.cmds[1].argv[1], want) == 0, "in the command");
        CHECK(strcmp(plan.cmds[2].param_values[0], "x") == 0, "last");
    }
    prof_impl_cmd_free(&plan);
}

/* A plan of n commands with made-up runs: times[i][k] ms, in rounds k. */
static void fake(prof_cmd_plan * plan, prof_cmd * cmds, int n, int runs,
                 double (*ms)(int cmd, int run))
{
    static char * names[] = { "A", "B", "C" };
    int i, k;
    memset(plan, 0, sizeof *plan);
    memset(cmds, 0, (size_t) n * sizeof *cmds);
    plan->cmds = cmds;
    plan->ncmds = n;
    plan->interleave = 1;
    plan->min_runs = 10;
    plan->min_time_s = 3.0;
    plan->summary = tmpfile();
    for (i = 0; i < n; i++)
    {
        cmds[i].name = names[i];
        cmds[i].text = names[i];
        cmds[i].runs = (prof_cmd_run *) calloc((size_t) runs, sizeof *cmds[i].runs);
        for (k = 0; k < runs; k++)
        {
            cmds[i].runs[k].ev[0] = 1000.0 * (i + 1) + k;  /* page-faults */
            cmds[i].runs[k].ev[1] = NAN;                    /* n/a */
            cmds[i].runs[k].wall_s = ms(i, k) * 1e-3;
            cmds[i].runs[k].round = k;
            cmds[i].runs[k].max_rss_kb = 1000 + k;
            cmds[i].measured_s += ms(i, k) * 1e-3;
        }
        cmds[i].nruns = runs;
        cmds[i].done = 1;
    }
}

static void unfake(prof_cmd_plan * plan)
{
    int i;
    for (i = 0; i < plan->ncmds; i++)
    {
        free(plan->cmds[i].runs);
        prof_impl_result_free(plan->cmds[i].result);
    }
    fclose(plan->summary);
}

/* A at 10, 11, ..., B 20% slower in every round; C the same as A. */
static double times(int cmd, int run)
{
    double a = 10.0 + run % 5;
    return cmd == 1 ? 1.2 * a : a;
}

static double equal(int cmd, int run)
{
    (void) cmd;
    return 10.0 + run % 3;
}

static void test_stop_rule(void)
{
    prof_cmd_plan plan;
    prof_cmd c[1];
    fake(&plan, c, 1, 12, equal);      /* 12 runs of ~11 ms: 0.13 s */
    CHECK(!prof_impl_cmd_enough(&plan, &c[0]), "3 s not reached");
    plan.min_time_s = 0.1;
    CHECK(prof_impl_cmd_enough(&plan, &c[0]), "10 runs and 0.1 s");
    plan.min_runs = 13;
    CHECK(!prof_impl_cmd_enough(&plan, &c[0]), "13 runs not reached");
    plan.max_runs = 12;
    CHECK(prof_impl_cmd_enough(&plan, &c[0]), "--max-runs caps");
    unfake(&plan);
}

static void test_result_and_gate(void)
{
    prof_cmd_plan plan;
    prof_cmd c[3];
    prof_gate g;
    double ratio, sd;
    const prof_result * r;

    fake(&plan, c, 3, 10, times);
    CHECK(prof_impl_cmd_result(&plan, &c[0]) == 0, "result");
    r = &c[0].result->pub;
    /* 10 11 12 13 14 10 11 12 13 14 ms: median 12, mean 12 */
    CHECK(fabs(r->median_ns - 12e6) < 1.0 && fabs(r->mean_ns - 12e6) < 1.0
          && r->epochs == 10 && strcmp(r->unit, "run") == 0,
          "median %g mean %g", r->median_ns, r->mean_ns);
    CHECK(!isnan(r->ci_low_ns) && r->ci_low_ns <= r->median_ns
          && r->ci_high_ns >= r->median_ns && !(r->flags & PROF_RESULT_PARTIAL),
          "interval");
    prof_impl_cmd_result(&plan, &c[1]);
    prof_impl_cmd_ratio(&c[0], &c[1], &ratio, &sd);
    CHECK(fabs(ratio - 1.2) < 1e-12 && sd > 0.0, "ratio %g sd %g", ratio, sd);

    prof_impl_gate_default(&g);
    CHECK(prof_impl_cmd_summary(&plan, &g) == PROF_EXIT_PASS, "no threshold");
    g.threshold = 0.05;             /* B is 20% slower in all 10 rounds */
    CHECK(prof_impl_cmd_summary(&plan, &g) == PROF_EXIT_REGRESSION, "B");
    g.threshold = 0.25;
    CHECK(prof_impl_cmd_summary(&plan, &g) == PROF_EXIT_PASS, "under 25%%");
    plan.interleave = 0;            /* the U test on all runs */
    g.threshold = 0.05;
    CHECK(prof_impl_cmd_summary(&plan, &g) == PROF_EXIT_REGRESSION, "U test");
    unfake(&plan);

    fake(&plan, c, 2, 5, times);    /* 5 rounds: the sign test cannot tell */
    c[1].done = 0;                  /* and B was stopped: partial */
    CHECK(prof_impl_cmd_summary(&plan, &g) == PROF_EXIT_UNDECIDED, "5 rounds");
    CHECK(c[1].result != NULL && (c[1].result->pub.flags & PROF_RESULT_PARTIAL)
          && strstr(c[1].result->pub.warning, "partial") != NULL, "partial");
    unfake(&plan);
}

/* A command whose runs ended under a load over the cores: the result is
   flagged (its highest load), the summary says why; the others are not. */
static void test_loaded(void)
{
    prof_cmd_plan plan;
    prof_cmd c[2];
    prof_gate g;
    const char * s;
    int k;
    fake(&plan, c, 2, 10, equal);
    for (k = 0; k < 10; k++)
    {
        c[0].runs[k].load = 0.25;
        c[1].runs[k].load = k == 4 ? 1000.0 : 0.5;
    }
    prof_impl_gate_default(&g);
    prof_impl_cmd_summary(&plan, &g);
    s = check_slurp(plan.summary);
    CHECK(c[0].result && !(c[0].result->pub.flags & PROF_RESULT_LOADED)
          && c[0].result->pub.load_avg == 0.25, "A: flags %d load %g",
          c[0].result ? c[0].result->pub.flags : -1,
          c[0].result ? c[0].result->pub.load_avg : -1);
    CHECK(c[1].result && (c[1].result->pub.flags & PROF_RESULT_LOADED)
          && c[1].result->pub.load_avg == 1000.0, "B: flags %d load %g",
          c[1].result ? c[1].result->pub.flags : -1,
          c[1].result ? c[1].result->pub.load_avg : -1);
    CHECK(check_count(s, "Warning: loaded: measured while the load average "
                      "(1000.00, the command's own processes in it) exceeded "
                      "the ") == 1, "summary:\n%s", s);
    unfake(&plan);
}

/* What an export wrote, read back from the file. */
static char * written(FILE * f, size_t * len)
{
    char * text;
    long n;
    fflush(f);
    n = ftell(f);
    text = (char *) calloc((size_t) n + 1, 1);
    rewind(f);
    *len = fread(text, 1, (size_t) n, f);
    return text;
}

/* f emptied, then plan's export of kind written to it: its text. */
static char * export_to(FILE * f, prof_export_kind kind,
                        const prof_cmd_plan * plan, size_t * len)
{
    rewind(f);
    CHECK(ftruncate(fileno(f), 0) == 0, "truncate");
    prof_impl_cmd_export(f, kind, plan);
    return written(f, len);
}

static void test_exports(void)
{
    prof_cmd_plan plan;
    prof_cmd c[2];
    prof_result_file rf;
    const prof_json * results, * b, * t;
    prof_json * doc;
    char err[256], * text;
    size_t len;
    FILE * f = tmpfile();

    fake(&plan, c, 2, 10, times);
    c[1].runs[3].exit_code = 128 + 9;     /* killed: hyperfine's 128 + N */
    c[1].runs[3].signal = 9;
    prof_impl_cmd_export(f, PROF_EXPORT_JSON, &plan);
    text = written(f, &len);
    doc = prof_impl_json_parse(text, len, err, sizeof err);
    CHECK(doc != NULL, "hyperfine JSON: %s", err);
    results = doc ? prof_impl_json_get(doc, "results") : NULL;
    CHECK(results != NULL && results->count == 2, "results");
    if (results != NULL && results->count == 2)
    {
        b = results->items[1];
        CHECK(strcmp(prof_impl_json_get(b, "command")->string, "B") == 0, "command");
        CHECK(fabs(prof_impl_json_get(b, "median")->number - 0.0144) < 1e-12,
              "median %g", prof_impl_json_get(b, "median")->number);
        t = prof_impl_json_get(b, "times");
        CHECK(t != NULL && t->count == 10
              && fabs(t->items[4]->number - 0.0168) < 1e-12, "times");
        t = prof_impl_json_get(b, "exit_codes");
        CHECK(t != NULL && t->count == 10 && t->items[3]->number == 137.0
              && t->items[2]->number == 0.0, "exit_codes");
        t = prof_impl_json_get(b, "memory_usage_byte");
        CHECK(t != NULL && t->count == 10
              && t->items[2]->number == 1024.0 * 1002,
              "memory_usage_byte: bytes of peak_rss_kb");
        CHECK(prof_impl_json_get(b, "stddev")->number > 0.0, "stddev");
    }
    prof_impl_json_free(doc);
    free(text);

    text = export_to(f, PROF_EXPORT_RUNNER_JSON, &plan, &len);
    CHECK(prof_impl_results_parse(text, len, &rf, err, sizeof err) == 0,
          "runner JSON: %s", err);
    CHECK(rf.count == 2 && rf.series[1].count == 10
          && fabs(rf.series[1].samples_ns[4] - 16.8e6) < 1.0,
          "one iteration entry per run: %d, %g", rf.series[1].count,
          rf.series[1].samples_ns[4]);
    prof_impl_results_free(&rf);
    free(text);
    fclose(f);
    unfake(&plan);
}

/* A command line is bytes, not always UTF-8 (echo \xff): the JSON
   exports stay valid UTF-8, a bad byte written as U+FFFD (the reader
   refuses invalid UTF-8, as Python's json does). */
static void test_json_bytes(void)
{
    prof_cmd_plan plan;
    prof_cmd c[2];
    prof_result_file rf;
    prof_json * doc;
    const prof_json * results;
    char err[256], * text, bad[] = "echo \xff\xc3 \xe2\x82 \xc3\xa9";
    size_t len;
    FILE * f = tmpfile();
    fake(&plan, c, 2, 10, times);
    c[0].name = bad;
    prof_impl_cmd_export(f, PROF_EXPORT_JSON, &plan);
    text = written(f, &len);
    doc = prof_impl_json_parse(text, len, err, sizeof err);
    CHECK(doc != NULL, "hyperfine JSON with a byte that is not UTF-8: %s", err);
    results = doc ? prof_impl_json_get(doc, "results") : NULL;
    CHECK(results != NULL && results->count == 2
          && strcmp(prof_impl_json_get(results->items[0], "command")->string,
                    "echo \xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd "
                    "\xc3\xa9") == 0, "each bad byte is U+FFFD, the rest kept");
    prof_impl_json_free(doc);
    free(text);
    text = export_to(f, PROF_EXPORT_RUNNER_JSON, &plan, &len);
    CHECK(prof_impl_results_parse(text, len, &rf, err, sizeof err) == 0,
          "runner JSON with a byte that is not UTF-8: %s", err);
    prof_impl_results_free(&rf);
    free(text);
    fclose(f);
    unfake(&plan);
}

/* The words through the shell: every word of a long --shell (the copies
   this replaced kept 12 or 13), "-c", the text, then the extra words. */
static void test_shell_argv(void)
{
    char w[16][16], text[] = "echo x", n0[] = "n", p1[] = "p";
    char * shell[17], * args[3], ** v;
    prof_cmd_plan plan;
    int i;
    for (i = 0; i < 16; i++)
    {
        snprintf(w[i], sizeof w[i], "w%d", i);
        shell[i] = w[i];
    }
    shell[16] = NULL;
    args[0] = n0;
    args[1] = p1;
    args[2] = NULL;
    memset(&plan, 0, sizeof plan);
    plan.shell = shell;
    v = prof_impl_cmd_shell_argv(&plan, text, args);
    CHECK(v != NULL && strcmp(v[15], "w15") == 0 && strcmp(v[16], "-c") == 0
          && v[17] == text && v[18] == n0 && v[19] == p1 && v[20] == NULL,
          "the shell's 16 words, -c, the text, the arguments");
    free(v);
    v = prof_impl_cmd_shell_argv(&plan, text, NULL);
    CHECK(v != NULL && v[17] == text && v[18] == NULL, "no arguments");
    free(v);
}

/* A plan of made-up runs with counters (more to allocate). */
static void fake_counted(prof_cmd_plan * plan, prof_cmd * c)
{
    fake(plan, c, 2, 10, times);
    plan->nev = 2;
    plan->ev_names[0] = "page-faults";
    plan->ev_names[1] = "cycles";
}

/* Out of memory at each allocation of each export in turn (the
   reporters' scratch, the runner formats' list): the export says so (-1,
   after a message), so that prof-run throws the file away instead of
   committing it incomplete. And a command whose result cannot be made
   (the runner's part, out of memory at once) is not left out quietly. */
static void test_export_out_of_memory(void)
{
    static const prof_export_kind kinds[] = {
        PROF_EXPORT_JSON, PROF_EXPORT_MARKDOWN, PROF_EXPORT_CSV,
        PROF_EXPORT_ASCIIDOC, PROF_EXPORT_ORGMODE, PROF_EXPORT_RUNNER_JSON, PROF_EXPORT_RUNNER_CSV, PROF_EXPORT_RUNNER_MD
    };
    prof_cmd_plan plan;
    prof_cmd c[2];
    FILE * f;
    size_t k;
    int rc;
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    {
        long n, missed = 0, first_missed = -1;
        for (n = 0; n < 1000; n++)
        {
            long failed;
            f = tmpfile();
            fake_counted(&plan, c);
            CHECK(prof_impl_cmd_result(&plan, &c[0]) == 0
                  && prof_impl_cmd_result(&plan, &c[1]) == 0, "results");
            fail_alloc_after(n);
            rc = prof_impl_cmd_export(f, kinds[k], &plan);
            failed = fail_alloc_failed();
            fail_alloc_after(-1);
            fclose(f);
            unfake(&plan);
            if (failed == 0)
            {
                CHECK(rc == 0, "export %d with memory enough: %d",
                      (int) kinds[k], rc);
                break;
            }
            if (rc == 0 && missed++ == 0)
                first_missed = n;
        }
        CHECK(missed == 0, "export %d: %ld runs out of memory said 0 (the "
              "first after %ld allocations)", (int) kinds[k], missed,
              first_missed);
        CHECK(n < 1000, "export %d: memory enough within 1000 allocations",
              (int) kinds[k]);

        f = tmpfile();
        fake_counted(&plan, c);
        fail_alloc_after(0);
        rc = prof_impl_cmd_export(f, kinds[k], &plan);
        fail_alloc_after(-1);
        CHECK(rc != 0 && c[0].result == NULL,
              "export %d: no result for a command that ran: %d", (int) kinds[k],
              rc);
        fclose(f);
        unfake(&plan);
    }
}

/* Counts of the runs: their median per run in the result, each run's in
   hyperfine's JSON (null where n/a). */
static void test_counters(void)
{
    prof_cmd_plan plan;
    prof_cmd c[2];
    const prof_result * r;
    const prof_json * ev;
    prof_json * doc;
    char err[256], * text;
    size_t len;
    FILE * f = tmpfile();
    fake(&plan, c, 2, 10, times);
    plan.nev = 2;
    plan.ev_names[0] = "page-faults";
    plan.ev_names[1] = "cycles";
    CHECK(prof_impl_cmd_result(&plan, &c[1]) == 0, "result");
    r = &c[1].result->pub;
    CHECK(r->ncounters == 2 && strcmp(r->counter_names[0], "page-faults") == 0
          && r->counters[0] == 2004.5 && isnan(r->counters[1]),
          "median per run %g", r->counters[0]);
    prof_impl_cmd_export(f, PROF_EXPORT_JSON, &plan);
    text = written(f, &len);
    doc = prof_impl_json_parse(text, len, err, sizeof err);
    ev = doc ? prof_impl_json_get(prof_impl_json_get(doc, "results")->items[0],
                                  "counters") : NULL;
    CHECK(ev != NULL && prof_impl_json_get(ev, "page-faults")->count == 10
          && prof_impl_json_get(ev, "page-faults")->items[9]->number == 1009.0
          && prof_impl_json_get(ev, "cycles")->items[0]->kind == PROF_JSON_NULL,
          "counters in the JSON");
    prof_impl_json_free(doc);
    free(text);
    fclose(f);
    unfake(&plan);
}

/* hyperfine's markup tables: their form, the first command's unit, no ±
   for one run, --sort=mean-time, --time-unit. */
static void test_markup(void)
{
    prof_cmd_plan plan;
    prof_cmd c[2];
    size_t len;
    FILE * f = tmpfile();
    char * text;
    fake(&plan, c, 2, 10, times);
    text = export_to(f, PROF_EXPORT_ASCIIDOC, &plan, &len);
    CHECK(strncmp(text, "[cols=\"<,>,>,>,>\"]\n|===\n| Command \n| Mean [ms] "
                  "\n| Min [ms] \n| Max [ms] \n| Relative \n\n| `A` \n| ", 84)
          == 0 && strstr(text, " \n|===\n") != NULL, "asciidoc:\n%s", text);
    free(text);
    text = export_to(f, PROF_EXPORT_ORGMODE, &plan, &len);
    CHECK(strncmp(text, "| Command  |  Mean [ms] |  Min [ms] |  Max [ms] |  "
                  "Relative |\n|--+--+--+--+--|\n| =A=  |  ", 86) == 0,
          "org-mode:\n%s", text);
    free(text);
    {
        prof_cmd t = c[0];              /* B (the slower) first */
        c[0] = c[1];
        c[1] = t;
    }
    plan.sort = PROF_CMD_SORT_MEAN;
    plan.unit_s = 1e-6;
    text = export_to(f, PROF_EXPORT_MARKDOWN, &plan, &len);
    CHECK(strstr(text, "Mean [\xC2\xB5s]") != NULL, "--time-unit:\n%s", text);
    CHECK(strstr(text, "| `A` |") != NULL && strstr(text, "| `B` |") != NULL
          && strstr(text, "| `A` |") < strstr(text, "| `B` |"),
          "--sort=mean-time: A first:\n%s", text);
    free(text);
    plan.sort = PROF_CMD_SORT_AUTO;     /* the order given */
    text = export_to(f, PROF_EXPORT_MARKDOWN, &plan, &len);
    CHECK(strstr(text, "| `B` |") < strstr(text, "| `A` |"),
          "--sort=auto: as given:\n%s", text);
    free(text);
    unfake(&plan);
    fake(&plan, c, 2, 1, times);        /* one run each: no deviation */
    text = export_to(f, PROF_EXPORT_MARKDOWN, &plan, &len);
    CHECK(strstr(text, "\xC2\xB1") == NULL, "one run, no \xC2\xB1:\n%s", text);
    free(text);
    unfake(&plan);
    fclose(f);
}

int main(void)
{
    test_split();
    test_parameters();
    test_long_list_value();
    test_stop_rule();
    test_result_and_gate();
    test_loaded();
    test_exports();
    test_markup();
    test_json_bytes();
    test_export_out_of_memory();
    test_shell_argv();
    test_counters();
    return check_report("test_run");
}
