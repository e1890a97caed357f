/* The system-dependent pieces (sim/platform.h): POSIX (Linux, macOS) and Windows (MinGW-w64). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE   /* madvise's MADV_HUGEPAGE, beside POSIX */
#endif
#include "sim/platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define PSAPI_VERSION 2   /* GetProcessMemoryInfo from kernel32 (K32GetProcessMemoryInfo): no psapi.dll */
#include <windows.h>
#include <io.h>
#include <psapi.h>
#else
#include <regex.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

uint64_t ws_peak_rss_kib(void)
{
#if defined(_WIN32)
    PROCESS_MEMORY_COUNTERS pmc;
    if (!GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof pmc))
        return 0;
    return (uint64_t)pmc.PeakWorkingSetSize / 1024;
#else
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0 || u.ru_maxrss < 0)
        return 0;
#if defined(__APPLE__)
    return (uint64_t)u.ru_maxrss / 1024;   /* bytes there, KiB on Linux */
#else
    return (uint64_t)u.ru_maxrss;
#endif
#endif
}

void ws_advise_huge_pages(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + size) & ~(huge - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);   /* advice: refused, the pages stay small */
#else
    (void)p, (void)size;
#endif
}

unsigned ws_cpu_count(void)
{
#if defined(_WIN32)
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors ? (unsigned)si.dwNumberOfProcessors : 1;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
#endif
}

int ws_sync_file(FILE *f)
{
#if defined(_WIN32)
    return _commit(_fileno(f)) ? -1 : 0;
#else
    return fsync(fileno(f)) ? -1 : 0;
#endif
}

int ws_rename_replace(const char *from, const char *to)
{
#if defined(_WIN32)
    /* rename() there fails when `to` exists */
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return 0;
    DWORD e = GetLastError();
    errno = e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? ENOENT : e == ERROR_ACCESS_DENIED ? EACCES : EIO;
    return -1;
#else
    return rename(from, to) ? -1 : 0;
#endif
}

FILE *ws_memstream_open(ws_memstream *m, char **text, size_t *len)
{
    m->text = text;
    m->len = len;
    *text = NULL;
    *len = 0;
#if defined(_WIN32)
    /* no open_memstream: a temporary file ("T": kept in memory where it can be; "D": deleted when closed) */
    char dir[MAX_PATH], name[MAX_PATH];
    DWORD n = GetTempPathA(sizeof dir, dir);
    m->f = NULL;
    if (n == 0 || n >= sizeof dir || !GetTempFileNameA(dir, "ws", 0, name))
        return NULL;
    if (!(m->f = fopen(name, "w+bTD")))
        remove(name);
    return m->f;
#else
    return m->f = open_memstream(text, len);
#endif
}

int ws_memstream_close(ws_memstream *m)
{
#if defined(_WIN32)
    long n = -1;
    char *buf = NULL;
    if (!fflush(m->f) && !fseek(m->f, 0, SEEK_END) && (n = ftell(m->f)) >= 0 && !fseek(m->f, 0, SEEK_SET) &&
        (buf = malloc((size_t)n + 1)) != NULL && fread(buf, 1, (size_t)n, m->f) == (size_t)n) {
        buf[n] = 0;
        *m->text = buf;
        *m->len = (size_t)n;
        fclose(m->f);
        return 0;
    }
    free(buf);
    fclose(m->f);
    return -1;
#else
    return fclose(m->f) ? -1 : 0;
#endif
}

/* ---- Regular expressions -------------------------------------------------------- */

#if !defined(_WIN32)

int ws_regex_compile(ws_regex *re, const char *expr)
{
    regex_t *r = malloc(sizeof *r);
    re->compiled = r;
    if (!r)
        return -1;
    if (regcomp(r, expr, REG_EXTENDED | REG_NOSUB) != 0) {
        free(r);
        re->compiled = NULL;
        return -1;
    }
    return 0;
}

int ws_regex_match(const ws_regex *re, const char *s)
{
    return re->compiled && regexec((const regex_t *)re->compiled, s, 0, NULL, 0) == 0;
}

void ws_regex_free(ws_regex *re)
{
    if (re->compiled)
        regfree((regex_t *)re->compiled);
    free(re->compiled);
    re->compiled = NULL;
}

#else

/* A backtracking matcher of the ERE subset platform.h names: the expression's '|'s split it into branches,
 * each matched from every position of the string (from the first alone after '^'). */

/* The end of the atom at p (after '.', a literal, "\x" or a bracket expression); NULL when malformed. */
static const char *atom_end(const char *p)
{
    if (*p == '\\')
        return p[1] ? p + 2 : NULL;
    if (*p != '[')
        return p + 1;
    p++;
    if (*p == '^')
        p++;
    if (*p == ']')
        p++;
    for (; *p && *p != ']'; p++)
        if (p[0] == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.'))
            return NULL;   /* character classes: not in this subset */
    return *p ? p + 1 : NULL;
}

static int atom_matches(const char *p, char c)
{
    if (*p == '.')
        return 1;
    if (*p == '\\')
        return p[1] == c;
    if (*p != '[')
        return *p == c;
    int negate = *++p == '^', in = 0;
    if (negate)
        p++;
    const char *first = p;
    for (; *p && (*p != ']' || p == first); p++) {
        if (p[1] == '-' && p[2] && p[2] != ']') {
            in |= (unsigned char)c >= (unsigned char)p[0] && (unsigned char)c <= (unsigned char)p[2];
            p += 2;
        } else {
            in |= *p == c;
        }
    }
    return in != negate;
}

static int match_here(const char *p, const char *t)
{
    if (*p == 0)
        return 1;
    if (p[0] == '$' && p[1] == 0)
        return *t == 0;
    const char *e = atom_end(p);
    if (*e == '*' || *e == '+' || *e == '?') {
        size_t n = 0;
        while (t[n] && atom_matches(p, t[n]) && (*e != '?' || n < 1))
            n++;
        for (size_t k = n + 1; k-- > (size_t)(*e == '+');)   /* greedy: the longest run first */
            if (match_here(e + 1, t + k))
                return 1;
        return 0;
    }
    return *t && atom_matches(p, *t) && match_here(e, t + 1);
}

typedef struct {
    int branches;
    char text[];   /* the branches, each ended by a NUL */
} compiled_re;

int ws_regex_compile(ws_regex *re, const char *expr)
{
    size_t n = strlen(expr);
    compiled_re *c = malloc(sizeof *c + n + 1);
    re->compiled = c;
    if (!c)
        return -1;
    memcpy(c->text, expr, n + 1);
    c->branches = 1;
    int atom = 0;   /* the item before was an atom, which a quantifier may follow */
    const char *branch = c->text;
    for (char *p = c->text; *p;) {
        if (*p == '|') {
            *p++ = 0;
            c->branches++;
            branch = p;
            atom = 0;
        } else if (*p == '*' || *p == '+' || *p == '?') {
            if (!atom)
                goto bad;
            p++;
            atom = 0;
        } else if (*p == '(' || *p == ')' || *p == '{' || *p == '}') {
            goto bad;   /* groups and bounds: not in this subset */
        } else if (*p == '^' || *p == '$') {
            if ((*p == '^' && p != branch) || (*p == '$' && p[1] && p[1] != '|'))
                goto bad;   /* anchors only where a branch starts or ends */
            p++;
            atom = 0;
        } else {
            const char *e = atom_end(p);
            if (!e)
                goto bad;
            p += e - p;
            atom = 1;
        }
    }
    return 0;
bad:
    free(c);
    re->compiled = NULL;
    return -1;
}

int ws_regex_match(const ws_regex *re, const char *s)
{
    const compiled_re *c = re->compiled;
    const char *p = c ? c->text : NULL;
    for (int b = 0; c && b < c->branches; b++, p += strlen(p) + 1) {
        if (*p == '^') {
            if (match_here(p + 1, s))
                return 1;
            continue;
        }
        const char *t = s;
        do {
            if (match_here(p, t))
                return 1;
        } while (*t++);
    }
    return 0;
}

void ws_regex_free(ws_regex *re)
{
    free(re->compiled);
    re->compiled = NULL;
}

#endif
