/* A module for test_trace_exec_fork: its constructor, run by dlopen with
   the dynamic loader's lock held, says so on one pipe and waits on
   another (descriptors in TRACE_BLOCKER_FDS: "in,out"), so that the test
   can fork while another thread holds that lock. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((constructor)) static void block_in_loader(void)
{
    const char * fds = getenv("TRACE_BLOCKER_FDS");
    const char * comma = fds != NULL ? strchr(fds, ',') : NULL;
    char c = 0;
    if (comma == NULL)
        return;
    if (write(atoi(comma + 1), "x", 1) == 1)
        (void) !read(atoi(fds), &c, 1);
}
