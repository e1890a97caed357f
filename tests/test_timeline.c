/*
 * The simulated timeline (sim/timeline.c): where work lands on streams and
 * engines, the host clock, events' times and queries, and the trace JSON.
 * Every expectation is computed by hand (in the comments) from the round
 * parameters of test_arch() below.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/timeline.h"

/* Round numbers: 10 GB/s pinned (10 bytes per ns), 5 pageable, 1000 ns copy latency, 100 ns per host call,
 * 100 SMs, DRAM 200 GB/s. A 10,000-byte pinned copy takes 1000 + 1000 = 2000 ns, a pageable one 1000 + 2000. */
static ws_arch test_arch(unsigned copy_engines)
{
    ws_arch a = *ws_arch_default();
    a.pcie_gbps = 10;
    a.pcie_pageable_gbps = 5;
    a.pcie_pageable_d2h_gbps = 5;
    a.copy_latency_ns = 1000;
    a.host_api_ns = 100;
    a.launch_api_ns = 100;
    a.copy_engines = copy_engines;
    a.sm_count = 100;
    a.dram_gbps = 200;
    a.pageable_d2h_latency_ns = 0;   /* the tests of these set them */
    a.wake_ns = 0;
    return a;
}

static ws_tl_work copy(ws_tl_kind kind, uint64_t bytes, int pageable)
{
    return (ws_tl_work){.kind = kind, .bytes = bytes, .pageable = pageable};
}

static ws_tl_work kernel(double ns, uint32_t sms)
{
    return (ws_tl_work){.kind = WS_TL_KERNEL, .duration_ns = ns, .sms = sms, .name = "k"};
}

#define EQ(a, b) ck_assert_double_eq_tol((a), (b), 1e-6)

START_TEST(durations)
{
    ws_arch a = test_arch(2);
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 0, &h);
    EQ(ws_timeline_duration(&t, WS_TL_COPY_H2D, 10000, 0), 2000);
    EQ(ws_timeline_duration(&t, WS_TL_COPY_D2H, 10000, 1), 3000);
    EQ(ws_timeline_duration(&t, WS_TL_COPY_D2D, 10000, 0), 100);   /* read and write: 10000 / (200 / 2) */
    EQ(ws_timeline_duration(&t, WS_TL_MEMSET, 10000, 0), 50);
    ws_timeline_free(&t);
    a.pageable_d2h_latency_ns = 700;   /* into pageable memory only */
    ws_timeline_init(&t, &a, 0, 0, &h);
    EQ(ws_timeline_duration(&t, WS_TL_COPY_D2H, 10000, 1), 3700);
    EQ(ws_timeline_duration(&t, WS_TL_COPY_D2H, 10000, 0), 2000);
    EQ(ws_timeline_duration(&t, WS_TL_COPY_H2D, 10000, 1), 3000);
    ws_timeline_free(&t);
}
END_TEST

/* Two streams, each copy in (2000), kernel (500, all SMs), copy out (2000), issued one after another:
 *   s1 H2D  [100, 2100]      host 100
 *   s1 K    [2100, 2600]     host 200
 *   s1 D2H  [2600, 4600]     host 300
 *   s2 H2D  [2100, 4100]     host 400: the HtoD engine is free at 2100
 *   s2 K    [4100, 4600]     host 500: the SMs are free after 2600
 *   s2 D2H  [4600, 6600]     host 600: the DtoH engine is free at 4600
 * all done at 6600, where one stream would take 9000. */
START_TEST(two_streams_overlap)
{
    ws_arch a = test_arch(2);
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 1, &h);
    int s[2] = {ws_timeline_stream_new(&t, 0), ws_timeline_stream_new(&t, 0)};
    ws_tl_span got[2][3];
    for (int i = 0; i < 2; i++) {
        ws_tl_work w[3] = {copy(WS_TL_COPY_H2D, 10000, 0), kernel(500, 0), copy(WS_TL_COPY_D2H, 10000, 0)};
        for (int k = 0; k < 3; k++)
            got[i][k] = ws_timeline_issue(&t, s[i], &w[k]);
    }
    EQ(got[0][0].start_ns, 100);
    EQ(got[0][1].start_ns, 2100);
    EQ(got[0][2].start_ns, 2600);
    EQ(got[1][0].start_ns, 2100);
    EQ(got[1][1].start_ns, 4100);
    EQ(got[1][2].start_ns, 4600);
    EQ(got[1][2].end_ns, 6600);
    EQ(h.ns, 600);   /* nothing made the host wait */
    EQ(ws_timeline_device_end(&t), 6600);
    /* the legacy stream's event waits for both blocking streams: at 6600; the host then waits there */
    EQ(ws_timeline_record(&t, WS_TL_LEGACY_STREAM), 6600);
    ws_timeline_host_wait(&t, 6600);
    EQ(h.ns, 6600);
    ck_assert_int_eq(t.op_count, 6);
    ws_timeline_free(&t);
}
END_TEST

/* One copy engine: the DtoH copy waits for the HtoD one although they are in different streams. No copy engine
 * (G80): the copy waits for the kernel too. */
START_TEST(copy_engines)
{
    ws_arch a = test_arch(1);
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 0, &h);
    int s1 = ws_timeline_stream_new(&t, 0), s2 = ws_timeline_stream_new(&t, 0);
    ws_tl_work in = copy(WS_TL_COPY_H2D, 10000, 0), out = copy(WS_TL_COPY_D2H, 10000, 0), k = kernel(500, 0);
    EQ(ws_timeline_issue(&t, s1, &in).start_ns, 100);
    EQ(ws_timeline_issue(&t, s2, &out).start_ns, 2100);
    ws_timeline_free(&t);

    a = test_arch(0);
    h.ns = 0;
    ws_timeline_init(&t, &a, 0, 0, &h);
    s1 = ws_timeline_stream_new(&t, 0);
    s2 = ws_timeline_stream_new(&t, 0);
    EQ(ws_timeline_issue(&t, s1, &k).end_ns, 600);
    EQ(ws_timeline_issue(&t, s2, &in).start_ns, 600);   /* issued at 200, on the compute engine */
    ws_timeline_free(&t);
}
END_TEST

/* Kernels of two streams run side by side when their grids fit on the 100 SMs together (40 + 40), one after the
 * other when they do not (60 + 60); the trace draws the concurrent one on a second compute row. */
START_TEST(concurrent_kernels)
{
    ws_arch a = test_arch(2);
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 1, &h);
    int s1 = ws_timeline_stream_new(&t, 0), s2 = ws_timeline_stream_new(&t, 0);
    ws_tl_work k40 = kernel(1000, 40), k60 = kernel(1000, 60);
    EQ(ws_timeline_issue(&t, s1, &k40).start_ns, 100);
    EQ(ws_timeline_issue(&t, s2, &k40).start_ns, 200);   /* at once: 80 SMs in use */
    ck_assert_int_eq(t.lanes, 2);
    EQ(ws_timeline_issue(&t, s1, &k60).start_ns, 1100);  /* after its own stream's kernel; s2's 40 still run: 100 */
    EQ(ws_timeline_issue(&t, s2, &k60).start_ns, 2100);  /* 60 + 60 > 100: waits for the first 60 */
    /* a kernel that takes every SM (0) waits for everything on the compute engine */
    int s3 = ws_timeline_stream_new(&t, 0);
    ws_tl_work all = kernel(10, 0);
    EQ(ws_timeline_issue(&t, s3, &all).start_ns, 3100);
    ws_timeline_free(&t);
}
END_TEST

/* The legacy stream waits for blocking streams and they for it; a non-blocking stream does neither. */
START_TEST(legacy_stream)
{
    ws_arch a = test_arch(2);
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 0, &h);
    int blocking = ws_timeline_stream_new(&t, 0), nonblocking = ws_timeline_stream_new(&t, WS_TL_NONBLOCKING);
    ws_tl_work in = copy(WS_TL_COPY_H2D, 10000, 0), k = kernel(500, 10);
    EQ(ws_timeline_issue(&t, blocking, &in).end_ns, 2100);
    EQ(ws_timeline_issue(&t, WS_TL_LEGACY_STREAM, &k).start_ns, 2100);   /* issued at 200: waits for the copy */
    EQ(ws_timeline_issue(&t, blocking, &k).start_ns, 2600);              /* and the blocking stream for it */
    EQ(ws_timeline_issue(&t, nonblocking, &k).start_ns, 400);            /* the non-blocking one does not */
    EQ(ws_timeline_record(&t, nonblocking), 900);
    /* the legacy stream does not wait for the non-blocking stream's work either */
    ws_timeline_free(&t);
    h.ns = 0;
    ws_timeline_init(&t, &a, 0, 0, &h);
    nonblocking = ws_timeline_stream_new(&t, WS_TL_NONBLOCKING);
    EQ(ws_timeline_issue(&t, nonblocking, &in).end_ns, 2100);
    EQ(ws_timeline_record(&t, WS_TL_LEGACY_STREAM), 200);
    ws_timeline_free(&t);
}
END_TEST

/* A pageable copy holds the host to its end, cudaMemcpyAsync or not; a pinned async one does not; a synchronous
 * call (host_waits) waits for a pinned copy too. */
START_TEST(pageable_holds_the_host)
{
    ws_arch a = test_arch(2);
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 0, &h);
    int s1 = ws_timeline_stream_new(&t, 0), s2 = ws_timeline_stream_new(&t, 0);
    ws_tl_work pageable = copy(WS_TL_COPY_H2D, 10000, 1), pinned = copy(WS_TL_COPY_H2D, 10000, 0);
    ws_tl_work k = kernel(500, 10);
    EQ(ws_timeline_issue(&t, s1, &pageable).end_ns, 3100);
    EQ(h.ns, 3100);
    EQ(ws_timeline_issue(&t, s2, &k).start_ns, 3200);   /* the next stream's kernel: after the host's wait */
    EQ(ws_timeline_issue(&t, s1, &pinned).end_ns, 5300);
    EQ(h.ns, 3300);
    pinned.host_waits = 1;   /* cudaMemcpy: the copy engine is free at 5300 */
    EQ(ws_timeline_issue(&t, s1, &pinned).end_ns, 7300);
    EQ(h.ns, 7300);
    ws_timeline_free(&t);
}
END_TEST

/* Events and queries: an event is the stream's end; a query pays for its call and says whether the host's clock
 * got there; cudaStreamWaitEvent holds a stream's later work. */
START_TEST(events_and_queries)
{
    ws_arch a = test_arch(2);
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 0, &h);
    int s1 = ws_timeline_stream_new(&t, 0), s2 = ws_timeline_stream_new(&t, WS_TL_NONBLOCKING);
    ws_tl_work in = copy(WS_TL_COPY_H2D, 10000, 0), k = kernel(500, 10);
    ws_timeline_issue(&t, s1, &in);                  /* [100, 2100] */
    double e = ws_timeline_record(&t, s1);           /* host 200 */
    EQ(e, 2100);
    ck_assert_int_eq(ws_timeline_query(&t, e), 0);   /* host 300 */
    ws_timeline_wait(&t, s2, e);                     /* host 400 */
    EQ(ws_timeline_issue(&t, s2, &k).start_ns, 2100);
    int polls = 0;
    while (!ws_timeline_query(&t, e))
        polls++;
    ck_assert_int_eq(polls, 15);                     /* host 600, 700, ..., 2000 not yet; the query at 2100 sees it */
    EQ(h.ns, 2100);
    ws_timeline_host_wait(&t, ws_timeline_stream_end(&t, s2));
    EQ(h.ns, 2600);
    ws_timeline_free(&t);
}
END_TEST

/* The host is one process: two GPUs' timelines share its clock. A launch on GPU 0 then one on GPU 1 (1000 ns
 * each, launch calls of 100): [100, 1100] and [200, 1200], side by side; synchronising GPU 0 moves the host to
 * 1100, then GPU 1 to 1200 (not back to GPU 1's own calls); the next call on GPU 1 comes after both. */
START_TEST(one_host_clock)
{
    ws_arch a = test_arch(2);
    ws_tl_host h = {0};
    ws_timeline gpu0, gpu1;
    ws_timeline_init(&gpu0, &a, 0, 0, &h);
    ws_timeline_init(&gpu1, &a, 1, 0, &h);
    ws_tl_work k = kernel(1000, 0);
    ws_tl_span s0 = ws_timeline_issue(&gpu0, WS_TL_LEGACY_STREAM, &k);
    ws_tl_span s1 = ws_timeline_issue(&gpu1, WS_TL_LEGACY_STREAM, &k);
    EQ(s0.start_ns, 100);
    EQ(s1.start_ns, 200);
    EQ(s1.end_ns, 1200);
    ws_timeline_host_wait(&gpu0, ws_timeline_device_end(&gpu0));
    EQ(h.ns, 1100);
    ws_timeline_host_wait(&gpu1, ws_timeline_device_end(&gpu1));
    EQ(h.ns, 1200);
    EQ(ws_timeline_record(&gpu1, WS_TL_LEGACY_STREAM), 1300);
    /* a pageable copy on GPU 0 holds the host: GPU 1's next kernel waits for it (1000 + 10000 / 5 = 3000) */
    ws_tl_work pageable = copy(WS_TL_COPY_H2D, 10000, 1);
    EQ(ws_timeline_issue(&gpu0, WS_TL_LEGACY_STREAM, &pageable).end_ns, 4400);
    EQ(ws_timeline_issue(&gpu1, WS_TL_LEGACY_STREAM, &k).start_ns, 4500);
    ws_timeline_free(&gpu0);
    ws_timeline_free(&gpu1);
}
END_TEST

/* Concurrent kernels share DRAM (200 bytes per ns). A: 1000 ns moving 150,000 bytes (150 per ns) on 40 SMs,
 * issued at 100; B the same in another stream at 200: until A ends at 1100 it gets the 50 A leaves (45,000
 * bytes), then its own 150 per ns for the 105,000 left: 700 ns, so [200, 1800]. Two DRAM-bound ones (200,000
 * bytes each, 200 per ns) end as back to back: [200, 2100]. A kernel moving nothing keeps its duration. */
START_TEST(dram_sharing)
{
    ws_arch a = test_arch(2);
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 0, &h);
    int s1 = ws_timeline_stream_new(&t, 0), s2 = ws_timeline_stream_new(&t, 0), s3 = ws_timeline_stream_new(&t, 0);
    ws_tl_work k = kernel(1000, 40);
    k.dram_bytes = 150000;
    ws_tl_span x = ws_timeline_issue(&t, s1, &k);
    EQ(x.start_ns, 100);
    EQ(x.end_ns, 1100);
    x = ws_timeline_issue(&t, s2, &k);
    EQ(x.start_ns, 200);
    EQ(x.end_ns, 1800);
    ws_tl_work none = kernel(1000, 10);
    EQ(ws_timeline_issue(&t, s3, &none).end_ns, 1300);
    ws_timeline_free(&t);

    h.ns = 0;
    ws_timeline_init(&t, &a, 0, 0, &h);
    s1 = ws_timeline_stream_new(&t, 0), s2 = ws_timeline_stream_new(&t, 0), s3 = ws_timeline_stream_new(&t, 0);
    ws_tl_work big = kernel(1000, 60), small = kernel(1000, 40);
    big.dram_bytes = small.dram_bytes = 200000;
    EQ(ws_timeline_issue(&t, s1, &big).end_ns, 1100);
    x = ws_timeline_issue(&t, s2, &small);
    EQ(x.start_ns, 200);
    EQ(x.end_ns, 2100);
    /* the stretched kernel holds its 40 SMs to 2100: one of 70 SMs waits for it, not for 1200 */
    ws_tl_work wide = kernel(500, 70);
    EQ(ws_timeline_issue(&t, s3, &wide).start_ns, 2100);
    ws_timeline_free(&t);
}
END_TEST

/* A kernel reaching an idle GPU (no work for idle_after_ns = 500) starts wake_ns = 1000 later, and so does
 * every kernel until it is awake; a GPU kept busy does not wake again; copies do not wait for it. */
START_TEST(idle_gpu_wakes)
{
    ws_arch a = test_arch(2);
    a.wake_ns = 1000;
    a.idle_after_ns = 500;
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 0, &h);
    int s1 = ws_timeline_stream_new(&t, WS_TL_NONBLOCKING);   /* beside the legacy stream's kernels */
    ws_tl_work k = kernel(200, 10);
    EQ(ws_timeline_issue(&t, WS_TL_LEGACY_STREAM, &k).start_ns, 1100);   /* idle from the start */
    EQ(ws_timeline_issue(&t, WS_TL_LEGACY_STREAM, &k).start_ns, 1300);   /* after the first: awake */
    ws_timeline_host_wait(&t, ws_timeline_device_end(&t));
    EQ(h.ns, 1500);
    EQ(ws_timeline_issue(&t, WS_TL_LEGACY_STREAM, &k).start_ns, 1600);   /* 100 ns idle < 500 */
    ws_timeline_host_wait(&t, ws_timeline_device_end(&t));                 /* 1800 */
    for (int i = 0; i < 4; i++)
        ws_timeline_record(&t, WS_TL_LEGACY_STREAM);                       /* 2200 */
    EQ(ws_timeline_issue(&t, WS_TL_LEGACY_STREAM, &k).start_ns, 3300);   /* at 2300, idle since 1800 */
    EQ(ws_timeline_issue(&t, s1, &k).start_ns, 3300);                    /* at 2400, waits for the same wake */
    ws_tl_work in = copy(WS_TL_COPY_H2D, 10000, 0);
    EQ(ws_timeline_issue(&t, s1, &in).start_ns, 3500);                   /* its stream's kernel ends at 3500 */
    ws_timeline_host_wait(&t, ws_timeline_device_end(&t));                 /* 5500 */
    for (int i = 0; i < 5; i++)
        ws_timeline_record(&t, WS_TL_LEGACY_STREAM);                       /* 6000 */
    EQ(ws_timeline_issue(&t, WS_TL_LEGACY_STREAM, &in).start_ns, 6100);  /* a copy on an idle GPU: at once */
    ws_timeline_free(&t);
}
END_TEST

/* The trace: metadata rows, X events in microseconds, names escaped, valid enough for python's json (the
 * tests/cuda_programs.sh run parses a whole program's), written atomically, and an unwritable path named. */
START_TEST(trace_json)
{
    ws_arch a = test_arch(2);
    ws_tl_host h = {0};
    ws_timeline t;
    ws_timeline_init(&t, &a, 0, 1, &h);
    ws_tl_work k = kernel(1500, 0);
    k.name = "odd\"name\\<int>";
    k.grid[0] = 4, k.grid[1] = k.grid[2] = 1, k.block[0] = 256, k.block[1] = k.block[2] = 1;
    ws_tl_work in = copy(WS_TL_COPY_H2D, 4u << 20, 0);
    ws_timeline_issue(&t, WS_TL_LEGACY_STREAM, &in);
    ws_timeline_issue(&t, WS_TL_LEGACY_STREAM, &k);
    char path[64];
    snprintf(path, sizeof path, "/tmp/warpsim-timeline-%ld.json", (long)getpid());
    char err[256];
    ws_timeline *ts[1] = {&t};
    ck_assert_int_eq(ws_timeline_write_json(ts, 1, path, err, sizeof err), 0);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    remove(path);
    const char *head = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
    ck_assert_msg(strncmp(text, head, strlen(head)) == 0, "%s", text);
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":1,\"args\":{\"name\":\"copy engine HtoD\"}"));
    ck_assert_ptr_nonnull(strstr(text, "\"args\":{\"name\":\"stream 0 (default)\"}"));
    /* 4 MiB at 10 GB/s: 1000 + 419430.4 ns, issued at 100 ns */
    ck_assert_ptr_nonnull(strstr(text, "{\"name\":\"memcpy HtoD 4.0 MB\",\"cat\":\"memcpy\",\"ph\":\"X\",\"ts\":0.100,\"dur\":420.430,"));
    ck_assert_ptr_nonnull(strstr(text, "\"bytes\":4194304,\"memory\":\"pinned\""));
    ck_assert_ptr_nonnull(strstr(text, "{\"name\":\"odd\\\"name\\\\<int>\",\"cat\":\"kernel\",\"ph\":\"X\",\"ts\":420.530,\"dur\":1.500,"));
    ck_assert_ptr_nonnull(strstr(text, "\"grid\":[4,1,1],\"block\":[256,1,1]"));
    ck_assert_ptr_nonnull(strstr(text, "\n]}\n"));
    /* an unwritable path: named, with the reason */
    ck_assert_int_eq(ws_timeline_write_json(ts, 1, "/nonexistent-dir/t.json", err, sizeof err), -1);
    ck_assert_str_eq(err, "cannot write '/nonexistent-dir/t.json': No such file or directory");
    ck_assert_int_eq(ws_timeline_check_path("/nonexistent-dir/t.json", err, sizeof err), -1);
    ck_assert_str_eq(err, "cannot write '/nonexistent-dir/t.json': No such file or directory");
    ws_timeline_free(&t);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("timeline");
    TCase *tc = tcase_create("timeline");
    tcase_add_test(tc, durations);
    tcase_add_test(tc, two_streams_overlap);
    tcase_add_test(tc, copy_engines);
    tcase_add_test(tc, concurrent_kernels);
    tcase_add_test(tc, legacy_stream);
    tcase_add_test(tc, pageable_holds_the_host);
    tcase_add_test(tc, events_and_queries);
    tcase_add_test(tc, trace_json);
    tcase_add_test(tc, one_host_clock);
    tcase_add_test(tc, dram_sharing);
    tcase_add_test(tc, idle_gpu_wakes);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
