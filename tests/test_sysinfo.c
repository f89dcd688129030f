/* The machine check (sysinfo.c) on trees of its own standing for / (the
   prof_impl_sys_root seam): a busy, badly tuned virtual machine read
   exactly; files missing, unreadable (a directory where a file should
   be) or holding nonsense read "unknown", never a failure; the check's
   line, findings, --check text and the reporters' context. Rows measured
   under a load over the cores (the prof_impl_fake_load seam): flagged,
   said once, marked in every output and read back by prof-compare's
   reader. */
#include "check.h"
#include "bench_check.h"
#include "compare.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

/* mkdir -p of root + path's directory part (path: "/proc/loadavg"). */
static void make_dirs(const char * path)
{
    char full[512], * p;
    snprintf(full, sizeof full, "%s%s", root, path);
    for (p = full + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++)
    {
        *p = '\0';
        mkdir(full, 0755);
        *p = '/';
    }
}

/* root + path holds text (a directory when text is NULL). */
static void put(const char * path, const char * text)
{
    char full[512];
    make_dirs(path);
    snprintf(full, sizeof full, "%s%s", root, path);
    if (text == NULL)
        mkdir(full, 0755);
    else
        check_write_file(full, text);
}

static void fresh_root(const char * name)
{
    char cmd[200];
    snprintf(root, sizeof root, "sysinfo_root_%s", name);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", root, root);
    CHECK(system(cmd) == 0, "%s", cmd);
    prof_impl_sys_root = root;
}

/* A busy VM: load 9.5, powersave (and performance on cpu1), turbo on,
   ASLR off, a hypervisor, no CPU PMU among perf's sources. */
static void test_busy_machine(void)
{
    prof_impl_machine m;
    char line[300], text[PROF_IMPL_FINDINGS][PROF_IMPL_FINDING];
    int n, cores = prof_impl_online_cores();
    fresh_root("busy");
    put("/proc/loadavg", "9.50 4.25 1.00 3/120 4242\n");
    put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
    put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor",
        "performance\n");
    put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
    put("/proc/sys/kernel/randomize_va_space", "0\n");
    put("/proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU\n"
        "flags\t\t: fpu vme hypervisor lahf_lm\n");
    put("/sys/bus/event_source/devices/software", NULL);
    put("/sys/bus/event_source/devices/tracepoint", NULL);
    prof_impl_machine_read(&m);
    CHECK(m.cores == cores && m.load[0] == 9.5 && m.load[1] == 4.25
          && m.load[2] == 1.0, "cores %d load %g %g %g", m.cores, m.load[0],
          m.load[1], m.load[2]);
    CHECK(strcmp(m.governor, cores > 1 ? "mixed" : "powersave") == 0,
          "governor %s on %d cores", m.governor, cores);
    CHECK(m.turbo == 1 && m.aslr == 0 && m.vm == 1 && m.pmu == 0,
          "turbo %d aslr %d vm %d pmu %d", m.turbo, m.aslr, m.vm, m.pmu);
    CHECK(prof_impl_load_now() == 9.5, "load now %g", prof_impl_load_now());
    CHECK(prof_impl_machine_loaded(9.5, 2) && !prof_impl_machine_loaded(2.0, 2)
          && !prof_impl_machine_loaded(NAN, 2), "loaded: over the cores only");
    prof_impl_machine_line(&m, line, sizeof line);
    CHECK(strstr(line, "machine: load 9.50 on ") == line
          && strstr(line, cores < 9 ? "cores (over the cores), governor " : "")
          && strstr(line, ", turbo on, ASLR off, virtual machine yes, PMU no"),
          "line: %s", line);
    n = prof_impl_machine_findings(&m, text, PROF_IMPL_FINDINGS);
    CHECK(n == (cores < 9) + 4, "%d findings", n);
    CHECK(cores >= 9 || strstr(text[0], "the load average 9.50 exceeds the"),
          "load finding: %s", text[0]);
    CHECK(strstr(text[n - 1], "a virtual machine without a PMU: perf refuses "
                 "hardware events"), "PMU finding: %s", text[n - 1]);
    /* the counters' reasons read the same machine */
    CHECK(prof_impl_machine_vm() == 1 && prof_impl_machine_pmu() == 0,
          "vm %d pmu %d", prof_impl_machine_vm(), prof_impl_machine_pmu());
    /* the other way: boost off, ASLR full, a PMU, no hypervisor */
    put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
    put("/proc/sys/kernel/randomize_va_space", "2\n");
    put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme lahf_lm\n");
    put("/sys/bus/event_source/devices/cpu", NULL);
    put("/proc/loadavg", "0.25 0.50 0.75 1/99 7\n");
    prof_impl_machine_read(&m);
    CHECK(m.turbo == 0 && m.aslr == 2 && m.vm == 0 && m.pmu == 1,
          "turbo %d aslr %d vm %d pmu %d", m.turbo, m.aslr, m.vm, m.pmu);
    n = prof_impl_machine_findings(&m, text, PROF_IMPL_FINDINGS);
    CHECK(n == 1 && strstr(text[0], "frequency governor is "), "%d: %s", n,
          n > 0 ? text[0] : "");
}

/* Nothing readable: every part unknown, no finding, no failure. */
static void check_unknown(const char * what)
{
    prof_impl_machine m;
    char line[300], text[PROF_IMPL_FINDINGS][PROF_IMPL_FINDING];
    prof_impl_machine_read(&m);
    prof_impl_machine_line(&m, line, sizeof line);
    CHECK(isnan(m.load[0]) && isnan(prof_impl_load_now()) && m.governor[0] == 0
          && m.turbo == -1 && m.aslr == -1 && m.vm == -1 && m.pmu == -1,
          "%s: load %g governor '%s' turbo %d aslr %d vm %d pmu %d", what,
          m.load[0], m.governor, m.turbo, m.aslr, m.vm, m.pmu);
    CHECK(strstr(line, "machine: load unknown on ") == line
          && strstr(line, " cores, governor unknown, turbo unknown, ASLR "
                    "unknown, virtual machine unknown, PMU unknown"),
          "%s: %s", what, line);
    CHECK(prof_impl_machine_findings(&m, text, PROF_IMPL_FINDINGS) == 0,
          "%s: findings", what);
}

static void test_unreadable(void)
{
    fresh_root("empty");            /* every file missing */
    check_unknown("missing");
    prof_impl_sys_root = "sysinfo_root_no_such_directory";
    check_unknown("no root");
    fresh_root("odd");              /* directories where files should be */
    put("/proc/loadavg", NULL);
    put("/proc/cpuinfo", NULL);
    put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", NULL);
    put("/sys/devices/system/cpu/intel_pstate/no_turbo", NULL);
    put("/proc/sys/kernel/randomize_va_space", NULL);
    put("/sys/hypervisor/type", NULL);
    put("/sys/bus/event_source", "not a directory\n");
    check_unknown("unreadable");
    fresh_root("nonsense");         /* files that say nothing sensible */
    put("/proc/loadavg", "busy\n");
    put("/sys/devices/system/cpu/intel_pstate/no_turbo", "2\n");
    put("/sys/devices/system/cpu/cpufreq/boost", "yes\n");
    put("/proc/sys/kernel/randomize_va_space", "7\n");
    check_unknown("nonsense");
    put("/proc/loadavg", "-1 2 3 1/2 3\n");
    CHECK(isnan(prof_impl_load_now()), "a negative load is no load");
}

/* The check where people see it: --check's text, the markdown context,
   the JSON context. */
static void test_outputs(void)
{
    prof_impl_machine m;
    prof_bench * b;
    FILE * f = tmpfile(), * console;
    const char * s;
    fresh_root("outputs");
    put("/proc/loadavg", "99.00 1 1 1/2 3\n");
    put("/proc/sys/kernel/randomize_va_space", "2\n");
    prof_impl_machine_read(&m);
    prof_impl_machine_print(f, &m);
    s = check_slurp(f);
    CHECK(strstr(s, "machine check (/proc and /sys):\n  cores ") == s
          && strstr(s, "\n  load average     99.00 1.00 1.00 (1, 5, 15 min): "
                    "over the cores\n  governor         unknown\n"
                    "  turbo/boost      unknown\n  ASLR             full\n"
                    "  virtual machine  unknown\n  CPU PMU          unknown\n"
                    "findings:\n - the load average 99.00 exceeds the ")
          && strstr(s, "\nhow to get quiet figures: doc/runner.md"),
          "--check:\n%s", s);
    fclose(f);
    f = tmpfile();
    b = check_suite(f, PROF_FORMAT_MD);
    prof_bench_run(b, "five", cost5, NULL);
    prof_bench_finish(b);
    s = check_slurp(f);
    /* wrapped within 100 columns */
    CHECK(check_matches(s, " cores, counter .*\nmachine: load 99.00 on [0-9]+ "
                        "cores \\(over the cores\\), governor unknown, turbo "
                        "unknown, ASLR full,\nvirtual machine unknown, PMU "
                        "unknown\n\n"), "markdown context:\n%s", s);
    console = f;
    f = tmpfile();
    prof_bench_write(f, b, PROF_FORMAT_JSON);
    s = check_slurp(f);
    CHECK(strstr(s, "\"profiler_machine\": {\"loaded\": true, \"governor\": "
                 "\"unknown\", \"turbo\": \"unknown\", \"aslr\": \"full\", "
                 "\"virtual_machine\": \"unknown\", \"pmu\": \"unknown\", "
                 "\"findings\": [\"the load average 99.00 exceeds the "),
          "JSON context: %.2000s", s);
    fclose(f);
    prof_bench_free(b);
    fclose(console);
    fresh_root("outputs_unknown");
    f = tmpfile();
    b = check_suite(NULL, PROF_FORMAT_NONE);
    prof_bench_run(b, "five", cost5, NULL);
    prof_bench_write(f, b, PROF_FORMAT_JSON);
    s = check_slurp(f);
    CHECK(strstr(s, "\"profiler_machine\": {\"loaded\": null, \"governor\": "
                 "\"unknown\", \"turbo\": \"unknown\", \"aslr\": \"unknown\", "
                 "\"virtual_machine\": \"unknown\", \"pmu\": \"unknown\", "
                 "\"findings\": []}"), "JSON, all unknown: %.2000s", s);
    fclose(f);
    prof_bench_free(b);
}

static double fake_load_value;
static double fake_load(void) { return fake_load_value; }

static void test_loaded_rows(void)
{
    FILE * f = tmpfile(), * g = tmpfile();
    prof_result_file rf;
    prof_bench * b;
    const prof_result * r[4];
    capture_t cap;
    char err_text[2000], want[200], msg[200];
    const char * s;
    double busy = prof_impl_online_cores() + 0.5;
    prof_impl_fake_load = fake_load;
    b = check_suite(f, PROF_FORMAT_MD);
    capture_begin(&cap, 2);
    fake_load_value = busy;
    r[0] = prof_bench_run(b, "busy", cost5, NULL);
    r[1] = prof_bench_run(b, "busy too", cost5, NULL);
    fake_load_value = busy - 1.0;       /* the cores, not over them */
    r[2] = prof_bench_run(b, "quiet", cost5, NULL);
    prof_impl_fake_load = NULL;         /* a fake clock alone: unknown */
    r[3] = prof_bench_run(b, "unknown", cost5, NULL);
    prof_impl_copy(err_text, sizeof err_text, capture_end(&cap));
    CHECK(r[0]->flags == PROF_RESULT_LOADED && r[1]->flags == PROF_RESULT_LOADED
          && r[0]->load_avg == busy, "loaded: flags %d %d, load %g",
          r[0]->flags, r[1]->flags, r[0]->load_avg);
    CHECK(r[2]->flags == 0 && r[2]->load_avg == busy - 1.0 && r[3]->flags == 0
          && isnan(r[3]->load_avg), "not loaded: flags %d %d, load %g %g",
          r[2]->flags, r[3]->flags, r[2]->load_avg, r[3]->load_avg);
    snprintf(want, sizeof want, "profiler: busy: measured while the load "
             "average (%.2f) exceeded the %d cores: ", busy,
             prof_impl_online_cores());
    CHECK(check_count(err_text, "exceeded the") == 1 && strstr(err_text, want)
          && strstr(err_text, "their rows are marked loaded"),
          "said once: [%s]", err_text);
    s = check_slurp(f);
    CHECK(strstr(s, "`busy` :warning: loaded\n")
          && strstr(s, "`busy too` :warning: loaded\n")
          && strstr(s, "`quiet`\n") && strstr(s, "`unknown`\n"),
          "table:\n%s", s);
    prof_bench_write(g, b, PROF_FORMAT_CSV);
    s = check_slurp(g);
    snprintf(want, sizeof want, ",64,%.2f,\"\",\"5;5;5;5;5;5;5;5;5;5;5\"\n",
             busy);
    CHECK(strstr(s, ",flags,load_avg_1m,warning,samples\n") && strstr(s, want)
          && strstr(s, ",0,,\"\",\"5;5;5;5;5;5;5;5;5;5;5\"\n"), "CSV:\n%s", s);
    fclose(g);
    g = tmpfile();
    prof_bench_write(g, b, PROF_FORMAT_JSON);
    s = check_slurp(g);
    CHECK(check_count(s, "\"flags\": 64,") == 2
          && check_count(s, "\"load_avg_1m\": null,") == 1, "JSON: %.3000s", s);
    CHECK(prof_impl_results_parse(s, strlen(s), &rf, msg, sizeof msg) == 0
          && rf.count == 4 && rf.series[0].loaded && rf.series[1].loaded
          && rf.series[0].load_avg == busy && !rf.series[2].loaded
          && rf.series[2].load_avg == busy - 1.0 && !rf.series[3].loaded
          && isnan(rf.series[3].load_avg), "read back: %s", msg);
    prof_impl_results_free(&rf);
    fclose(g);
    prof_bench_free(b);
    fclose(f);
}

int main(void)
{
    prof_impl_set_fake_clock(fake_read, 1e9);
    test_busy_machine();
    test_unreadable();
    test_outputs();
    test_loaded_rows();
    prof_impl_sys_root = "";
    CHECK(system("rm -rf sysinfo_root_*") == 0, "clean up");
    return check_report("test_sysinfo");
}
