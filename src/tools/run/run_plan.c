/*
    prof-run's commands: the command lines split into words as the shell
    would (for --shell=none), the parameters' values substituted for
    {NAME} (hyperfine's order: the commands vary fastest, then the first
    parameter, then the next), and the
    checks made before any command starts (a program that is not found is
    refused then, not at its first run).
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "run.h"
#include "prof_spawn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROGRAM "prof-run"

/* More values than this in all (a typo such as 1 1e9) is refused. */
enum { MAX_COMBINATIONS = 10000 };

/* ---- words --------------------------------------------------------------- */

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

/* Copy one word from *p to *out (quotes and backslashes removed), NUL
   included: 0, or -1 at an unterminated quote. */
static int one_word(const char ** p, char ** out)
{
    const char * s = *p;
    char * o = *out;
    while (*s != '\0' && !blank(*s))
    {
        char q = *s;
        if (q == '\'' || q == '"')
        {
            for (s++; *s != '\0' && *s != q; )
            {
                if (q == '"' && *s == '\\' && s[1] != '\0'
                    && strchr("\"\\$`", s[1]) != NULL)
                    s++;
                *o++ = *s++;
            }
            if (*s == '\0')
                return -1;
            s++;
        }
        else
        {
            if (*s == '\\' && s[1] != '\0')
                s++;
            *o++ = *s++;
        }
    }
    *o++ = '\0';
    *p = s;
    *out = o;
    return 0;
}

/* what NULL: quiet (the shell may know syntax this does not). */
char ** prof_impl_cmd_split(const char * text, const char * what)
{
    size_t len = strlen(text), nmax = len / 2 + 2;
    char ** argv = (char **) malloc(nmax * sizeof *argv + 2 * len + 2);
    char * out = (char *) (argv + nmax);
    const char * p = text;
    int n = 0;
    if (argv == NULL)
    {
        prof_impl_warn(PROGRAM ": out of memory");
        return NULL;
    }
    for (;;)
    {
        while (blank(*p))
            p++;
        if (*p == '\0')
            break;
        argv[n++] = out;
        if (one_word(&p, &out) != 0)
        {
            if (what != NULL)
                prof_impl_warn(PROGRAM ": %s \"%s\": a quote is not closed",
                               what, text);
            free(argv);
            return NULL;
        }
    }
    argv[n] = NULL;
    if (n == 0)
    {
        if (what != NULL)
            prof_impl_warn(PROGRAM ": %s \"%s\" is empty", what, text);
        free(argv);
        return NULL;
    }
    return argv;
}

/* ---- parameters ---------------------------------------------------------- */

/* The values of a parameter, as strings: *values (malloc'd array of
   malloc'd strings) and their number, or -1 after a message. */
static int param_values(const prof_cmd_param * p, char *** values)
{
    double step = p->step > 0.0 ? p->step : PROF_CMD_STEP, count;
    int n, i, decimals = 0;
    const char * s;
    if (!p->is_scan)
    {
        for (n = 1, s = p->list; *s; s++)
            n += *s == ',';
    }
    else
    {
        if (p->step == 0.0 && (p->lo != floor(p->lo) || p->hi != floor(p->hi)))
        {
            prof_impl_warn(PROGRAM ": --parameter-scan %s %g %g: whole numbers "
                           "are expected (or give --parameter-step)", p->name,
                           p->lo, p->hi);
            return -1;
        }
        count = floor((p->hi - p->lo) / step * (1.0 + 1e-12) + 1e-9) + 1.0;
        if (!(p->hi >= p->lo) || !(count <= MAX_COMBINATIONS))
        {
            prof_impl_warn(PROGRAM ": --parameter-scan %s %g %g: %s", p->name,
                           p->lo, p->hi, p->hi >= p->lo ? "too many values"
                           : "LO is above HI");
            return -1;
        }
        n = (int) count;
        /* as many decimals as the step needs (0.1 0.3 0.5, not 0.30000000000000004) */
        while (decimals < 9 && fabs(step * pow(10, decimals)
                                    - floor(step * pow(10, decimals) + 0.5)) > 1e-9)
            decimals++;
    }
    *values = (char **) calloc((size_t) n, sizeof **values);
    for (i = 0, s = p->list; *values != NULL && i < n; i++)
    {
        char buf[64];
        const char * from = s;
        size_t len;
        if (p->is_scan)
        {
            len = (size_t) snprintf(buf, sizeof buf, "%.*f", decimals,
                                    p->lo + i * step);
            from = buf;
        }
        else
        {
            len = strcspn(s, ",");      /* the value as given, whole */
            s += len + 1;
        }
        if (((*values)[i] = (char *) malloc(len + 1)) == NULL)
        {
            while (i-- > 0)
                free((*values)[i]);
            free(*values);
            *values = NULL;
            break;
        }
        memcpy((*values)[i], from, len);
        (*values)[i][len] = '\0';
    }
    if (*values == NULL)
    {
        prof_impl_warn(PROGRAM ": out of memory");
        return -1;
    }
    return n;
}

/* text with each {NAME} of the n parameters replaced by its value: a
   malloc'd string, or NULL (out of memory). */
static char * substitute(const char * text, int n, const char * const * names,
                         char * const * values)
{
    size_t size = strlen(text) + 1, used = 0;
    char * out = (char *) malloc(size);
    const char * p = text;
    while (out != NULL && *p != '\0')
    {
        size_t nl = 0, vl = 1;
        const char * v = p;
        int k;
        for (k = 0; *p == '{' && k < n; k++)
            if (strncmp(p + 1, names[k], nl = strlen(names[k])) == 0
                && p[1 + nl] == '}')
                break;
        if (*p == '{' && k < n)
        {
            v = values[k];
            vl = strlen(v);
            p += nl + 2;
        }
        else
            p++;
        if (prof_impl_grow(&out, &size, used + vl + 1, 1) != 0)
        {
            free(out);
            return NULL;
        }
        memcpy(out + used, v, vl);
        used += vl;
    }
    if (out != NULL)
        out[used] = '\0';
    return out;
}

/* ---- building the commands ------------------------------------------------ */

char ** prof_impl_cmd_shell_argv(const prof_cmd_plan * plan, char * text,
                                 char * const * args)
{
    static char dash_c[] = "-c";
    size_t n = 0, m = 0, i;
    char ** argv;
    while (plan->shell[n] != NULL)
        n++;
    while (args != NULL && args[m] != NULL)
        m++;
    argv = (char **) malloc((n + m + 3) * sizeof *argv);
    if (argv == NULL)
        return NULL;
    for (i = 0; i < n; i++)
        argv[i] = plan->shell[i];
    argv[n] = dash_c;
    argv[n + 1] = text;
    for (i = 0; i < m; i++)
        argv[n + 2 + i] = args[i];
    argv[n + m + 2] = NULL;
    return argv;
}

/* The words to run text with: the shell's, "-c", text; or text's own. */
static char ** command_argv(const prof_cmd_plan * plan, char * text,
                            const char * what)
{
    if (plan->shell == NULL)
        return prof_impl_cmd_split(text, what);
    return prof_impl_cmd_shell_argv(plan, text, NULL);
}

/* A count of option values that fits: none, a or b. 0, or -1 after a
   message. */
static int count_fits(const char * option, int count, int a, int b,
                      const char * fit)
{
    if (count == 0 || count == a || count == b)
        return 0;
    prof_impl_warn(PROGRAM ": %d %s given for %d command(s): %s", count,
                   option, b, fit);
    return -1;
}

/* Whether pat appears in one of the n texts. */
static int any_has(const char * const * texts, int n, const char * pat)
{
    int i;
    for (i = 0; i < n; i++)
        if (strstr(texts[i], pat) != NULL)
            return 1;
    return 0;
}

/* Whether {NAME} appears in any command, name, prepare or cleanup. */
static int param_used(const prof_cmd_spec * spec, const char * name)
{
    char pat[300];
    snprintf(pat, sizeof pat, "{%s}", name);
    return any_has((const char * const *) spec->texts, spec->ntexts, pat)
        || any_has(spec->names, spec->nnames, pat)
        || any_has(spec->prepare, spec->nprepare, pat)
        || any_has(spec->cleanup, spec->ncleanup, pat)
        || any_has(spec->setup, spec->nsetup, pat)
        || any_has(spec->conclude, spec->nconclude, pat);
}

/* Every parameter's values (values[k], counts[k]) and how many commands
   they make in all: *total, or -1 after a message. */
static int all_values(const prof_cmd_spec * spec, char ** values[],
                      int counts[], int * total)
{
    int k, j;
    *total = spec->ntexts;
    for (k = 0; k < spec->nparams; k++)
    {
        const char * name = spec->params[k].name;
        for (j = 0; j < k && strcmp(spec->params[j].name, name) != 0; j++)
            ;
        if (*name == '\0' || strpbrk(name, "{}") != NULL || j < k
            || !param_used(spec, name))
        {
            /* a name twice: {NAME} could take one list only (hyperfine
               refuses it too) */
            prof_impl_warn(PROGRAM ": parameter \"%s\": %s", name,
                           *name == '\0' || strpbrk(name, "{}") != NULL
                           ? "not a name" : j < k ? "is given twice"
                           : "no command has it as {NAME}");
            return -1;
        }
        if ((counts[k] = param_values(&spec->params[k], &values[k])) < 0)
            return -1;
        if ((double) *total * counts[k] > MAX_COMBINATIONS)
        {
            prof_impl_warn(PROGRAM ": more than %d commands with the "
                           "parameters' values", MAX_COMBINATIONS);
            return -1;
        }
        *total *= counts[k];
    }
    return 0;
}

/* given[k] substituted for c, or NULL when count is 0 (nothing given);
   *bad when out of memory. */
static char * pick(const char * const * given, int count, int k,
                   const prof_cmd * c, int * bad)
{
    char * s;
    if (count == 0)
        return NULL;
    s = substitute(given[k], c->nparams, c->param_names, c->param_values);
    *bad |= s == NULL;
    return s;
}

/* Command i of the plan: command line t with combination combo. 0, or -1
   after a message. */
static int build_one(prof_cmd_plan * plan, const prof_cmd_spec * spec,
                     int combo, int t, int i)
{
    prof_cmd * c = &plan->cmds[i];
    int k, rest = combo, bad = 0, n = spec->nnames;
    for (k = 0; k < spec->nparams; k++)     /* the first varies fastest */
    {
        c->param_names[k] = spec->params[k].name;
        c->param_values[k] = plan->values[k][rest % plan->nvalues[k]];
        rest /= plan->nvalues[k];
    }
    c->nparams = spec->nparams;
    c->text = substitute(spec->texts[t], c->nparams, c->param_names,
                         c->param_values);
    c->name = pick(spec->names, n, n == spec->ntexts ? t : i, c, &bad);
    if (n == 0 && c->text != NULL)
        c->name = prof_impl_strdup(c->text);
    c->prepare_text = pick(spec->prepare, spec->nprepare,
                           spec->nprepare == 1 ? 0 : t, c, &bad);
    c->cleanup_text = pick(spec->cleanup, spec->ncleanup,
                           spec->ncleanup == 1 ? 0 : t, c, &bad);
    c->setup_text = pick(spec->setup, spec->nsetup,
                         spec->nsetup == 1 ? 0 : t, c, &bad);
    c->conclude_text = pick(spec->conclude, spec->nconclude,
                            spec->nconclude == 1 ? 0 : t, c, &bad);
    if (spec->noutputs > 0)
        c->output = spec->outputs[spec->noutputs == 1 ? 0 : t];
    if (bad || c->text == NULL || c->name == NULL)
    {
        prof_impl_warn(PROGRAM ": out of memory");
        return -1;
    }
    c->argv = command_argv(plan, c->text, "the command");
    if (c->prepare_text != NULL)
        c->prepare = command_argv(plan, c->prepare_text, "the prepare command");
    if (c->cleanup_text != NULL)
        c->cleanup = command_argv(plan, c->cleanup_text, "the cleanup command");
    if (c->setup_text != NULL)
        c->setup = command_argv(plan, c->setup_text, "the setup command");
    if (c->conclude_text != NULL)
        c->conclude = command_argv(plan, c->conclude_text,
                                   "the conclude command");
    return c->argv == NULL || (c->prepare_text && c->prepare == NULL)
        || (c->cleanup_text && c->cleanup == NULL)
        || (c->setup_text && c->setup == NULL)
        || (c->conclude_text && c->conclude == NULL) ? -1 : 0;
}

int prof_impl_cmd_build(prof_cmd_plan * plan, const prof_cmd_spec * spec)
{
    int total, i, rc = 0;
    if (spec->shell != NULL && strcmp(spec->shell, "none") != 0
        && (plan->shell = prof_impl_cmd_split(spec->shell, "--shell")) == NULL)
        return -1;
    plan->nparams = spec->nparams;
    if (all_values(spec, plan->values, plan->nvalues, &total) != 0
        || count_fits("--prepare commands", spec->nprepare, 1, spec->ntexts,
                      "give one for all or one per command")
        || count_fits("--cleanup commands", spec->ncleanup, 1, spec->ntexts,
                      "give one for all or one per command")
        || count_fits("--setup commands", spec->nsetup, 1, spec->ntexts,
                      "give one for all or one per command")
        || count_fits("--conclude commands", spec->nconclude, 1, spec->ntexts,
                      "give one for all or one per command")
        || count_fits("--output values", spec->noutputs, 1, spec->ntexts,
                      "give one for all or one per command")
        || count_fits("--command-name values", spec->nnames, total,
                      spec->ntexts, "give one per command, or one per "
                      "command and parameter value"))
        return -1;
    if ((plan->cmds = (prof_cmd *) calloc((size_t) total,
                                          sizeof *plan->cmds)) == NULL)
    {
        prof_impl_warn(PROGRAM ": out of memory");
        return -1;
    }
    for (i = 0; rc == 0 && i < total; i++)
    {
        plan->ncmds = i + 1;
        rc = build_one(plan, spec, i / spec->ntexts, i % spec->ntexts, i);
    }
    return rc;
}

void prof_impl_cmd_free(prof_cmd_plan * plan)
{
    int i, k;
    for (i = 0; plan->cmds != NULL && i < plan->ncmds; i++)
    {
        prof_cmd * c = &plan->cmds[i];
        free(c->name);
        free(c->text);
        free(c->argv);
        free(c->prepare);
        free(c->cleanup);
        free(c->prepare_text);
        free(c->cleanup_text);
        free(c->setup);
        free(c->conclude);
        free(c->setup_text);
        free(c->conclude_text);
        free(c->runs);
        prof_impl_result_free(c->result);
    }
    free(plan->cmds);
    free(plan->shell);
    for (k = 0; k < plan->nparams; k++)
    {
        for (i = 0; plan->values[k] != NULL && i < plan->nvalues[k]; i++)
            free(plan->values[k][i]);
        free(plan->values[k]);
    }
    plan->cmds = NULL;
    plan->shell = NULL;
    plan->ncmds = plan->nparams = 0;
}

/* ---- before anything starts ----------------------------------------------- */

static int executable(const char * path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode)
        && access(path, X_OK) == 0;
}

/* Whether execvp would find prog. */
static int in_path(const char * prog)
{
    const char * path = getenv("PATH"), * p;
    char buf[4096];
    if (strchr(prog, '/') != NULL)
        return executable(prog);
    if (path == NULL || *path == '\0')
        path = "/usr/local/bin:/usr/bin:/bin";
    for (p = path; ; p += strcspn(p, ":") + 1)
    {
        int len = (int) strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s%s%s", len, p, len ? "/" : "", prog);
        if (executable(buf))
            return 1;
        if (p[len] == '\0')
            return 0;
    }
}

/* The program a shell command line starts with, if it is a plain word
   (after any NAME=VALUE): a malloc'd block whose first string it is, or
   NULL (shell syntax this cannot judge: the shell will). */
static char ** first_program(const char * text)
{
    char ** w = prof_impl_cmd_split(text, NULL);
    int i = 0;
    while (w != NULL && w[i] != NULL && strchr(w[i], '=') != NULL
           && strspn(w[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789_") == strcspn(w[i], "="))
        i++;
    if (w == NULL || w[i] == NULL || w[i][0] == '-'
        || strpbrk(w[i], "$`(){}[]*?;&|<>~!#") != NULL)
    {
        free(w);
        return NULL;
    }
    memmove(w, w + i, sizeof *w);
    return w;
}

/* Whether the shell finds the program text starts with (or cannot say);
   its name in found. */
static int shell_finds(const prof_cmd_plan * plan, const char * text,
                       char * found, size_t size)
{
    char ** prog = first_program(text), ** argv, * args[3];
    char script[] = "command -v \"$1\" >/dev/null 2>&1", name[] = PROGRAM;
    prof_spawn_cmd cmd;
    prof_spawn_result r;
    int n;
    if (prog == NULL)
        return 1;
    prof_impl_copy(found, size, prog[0]);
    args[0] = name;                 /* $0 */
    args[1] = prog[0];              /* $1 */
    args[2] = NULL;
    if ((argv = prof_impl_cmd_shell_argv(plan, script, args)) == NULL)
    {
        free(prog);
        return 1;                   /* out of memory: cannot say */
    }
    memset(&cmd, 0, sizeof cmd);
    cmd.argv = argv;
    cmd.stdin_path = cmd.stdout_path = cmd.stderr_path = "/dev/null";
    n = prof_spawn_run(&cmd, &r) != 0 || r.end != PROF_SPAWN_EXITED
        || r.status == 0;
    free(argv);
    free(prog);
    return n;
}

/* One command line (what: "the command", "the prepare command", ...):
   0, or -1 after a message. */
static int check_one(const prof_cmd_plan * plan, char * const * argv,
                     const char * text, const char * what)
{
    char prog[256];
    if (prof_spawn_held())
        return -1;              /* interrupted: the caller ends by it */
    if (argv == NULL)
        return 0;
    prof_impl_copy(prog, sizeof prog, argv[0]);
    if ((plan->shell != NULL ? shell_finds(plan, text, prog, sizeof prog)
                             : in_path(argv[0])) || prof_spawn_held())
        return prof_spawn_held() ? -1 : 0;
    prof_impl_warn(PROGRAM ": %s \"%s\": %s not found%s", what, text, prog,
                   plan->shell != NULL ? " by the shell"
                   : " (--shell=none runs it directly, not through a shell)");
    return -1;
}

int prof_impl_cmd_check(const prof_cmd_plan * plan)
{
    int i;
    if (plan->shell != NULL && !in_path(plan->shell[0]))
    {
        prof_impl_warn(PROGRAM ": --shell: %s not found", plan->shell[0]);
        return -1;
    }
    for (i = 0; i < plan->ncmds; i++)
    {
        const prof_cmd * c = &plan->cmds[i];
        if (check_one(plan, c->argv, c->text, "the command") != 0
            || check_one(plan, c->prepare, c->prepare_text,
                         "the prepare command") != 0
            || check_one(plan, c->cleanup, c->cleanup_text,
                         "the cleanup command") != 0
            || check_one(plan, c->setup, c->setup_text,
                         "the setup command") != 0
            || check_one(plan, c->conclude, c->conclude_text,
                         "the conclude command") != 0)
            return -1;
    }
    return 0;
}
