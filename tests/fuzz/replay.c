/* A libFuzzer target without libFuzzer: LLVMFuzzerTestOneInput once on
   each file named on the command line, so that what the fuzzers once found
   (tests/fuzz/found/) is replayed by every ctest run, in every build (the
   sanitizer builds too), and not only by CI's timed fuzzing section.
   Each file's name is printed before it runs: a crash names its input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t * data, size_t size);

/* libFuzzer reports an allocation over 2048 MB (-malloc_limit_mb, by
   default its -rss_limit_mb) as a crash: under AddressSanitizer, so does
   the replay (ASAN_OPTIONS still overrides it). Unused in other builds. */
const char * __asan_default_options(void);
const char * __asan_default_options(void)
{
    return "max_allocation_size_mb=2048";
}

/* The whole of file path (malloc'd, *size bytes), or NULL. */
static uint8_t * read_whole(const char * path, size_t * size)
{
    FILE * f = fopen(path, "rb");
    uint8_t * d = NULL;
    size_t cap = 0, n = 0, got;
    if (f == NULL)
        return NULL;
    do
    {
        if (n == cap)
        {
            uint8_t * bigger = (uint8_t *) realloc(d, cap = 2 * cap + 4096);
            if (bigger == NULL)
            {
                free(d);
                fclose(f);
                return NULL;
            }
            d = bigger;
        }
        got = fread(d + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    if (ferror(f))
    {
        free(d);
        d = NULL;
    }
    fclose(f);
    *size = n;
    return d;
}

int main(int argc, char ** argv)
{
    int i;
    if (argc < 2)
    {
        fprintf(stderr, "usage: %s INPUT...\n", argv[0]);
        return 2;
    }
    for (i = 1; i < argc; i++)
    {
        size_t n = 0;
        uint8_t * d = read_whole(argv[i], &n);
        if (d == NULL)
        {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 1;
        }
        printf("%s: %zu bytes\n", argv[i], n);
        fflush(stdout);
        LLVMFuzzerTestOneInput(d, n);
        free(d);
    }
    printf("%d inputs replayed\n", argc - 1);
    return 0;
}
