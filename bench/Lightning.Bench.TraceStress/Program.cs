using System.Diagnostics;
using System.Globalization;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.TraceStress;

/// <summary>
/// The harness's span collection on its own, for stress benchmarks (benchmarks/trace-stress.sh): binds one trace
/// socket exactly as a benchmark run does (receive thread, spool segments written to disk), prints "ready", and after
/// the socket has been idle for --idle-ms following the first datagram prints what it received, what reached the
/// disk and its peak memory. --out FILE also writes spans.jsonl from the spool, as a run does after each case.
/// </summary>
public static class Program
{
    public static async Task<int> Main(string[] args)
    {
        if (args.Length >= 1 && args[0] == "--fuzz")
        {
            var count = args.Length >= 2 ? long.Parse(args[1], CultureInfo.InvariantCulture) : 1_000_000;
            return SpanFuzzer.Run(count, seed: args.Length >= 3 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 1);
        }
        if (args.Length >= 2 && args[0] == "--store")
        {
            string? Value(string name) => args.Skip(2).SkipWhile(a => a != name).Skip(1).FirstOrDefault();
            return StoreBenchmark.Run(args[1], Value("--codec") ?? "brotli", Value("--zip"));
        }
        if (args.Length >= 2 && args[0] == "--fold")
        {
            return FoldBenchmark.Run(
                args[1],
                args.Length >= 3 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 1000
            );
        }
        string? socket = null;
        string? output = null;
        var idle = TimeSpan.FromSeconds(2);
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--socket":
                    socket = args[++i];
                    break;
                case "--out":
                    output = args[++i];
                    break;
                case "--idle-ms":
                    idle = TimeSpan.FromMilliseconds(int.Parse(args[++i], CultureInfo.InvariantCulture));
                    break;
                default:
                    Console.Error.WriteLine(
                        $"trace-stress: unknown argument '{args[i]}'; usage: --socket PATH [--out FILE] [--idle-ms N] | --fuzz [COUNT] [SEED] | --fold PERF-SCRIPT-FILE [REPEAT] | --store RUN_FOLDER [--codec brotli|deflate|stored] [--zip FILE]"
                    );
                    return 2;
            }
        }
        if (socket is null)
        {
            Console.Error.WriteLine("trace-stress: --socket PATH is required");
            return 2;
        }

        var spans = output ?? Path.Combine(Path.GetTempPath(), $"lnbench-stress-{Environment.ProcessId}.jsonl");
        var recorder = TraceRecorder.Start([("stress", socket)], spans);
        Console.WriteLine("ready");
        while (recorder.Received == 0)
        {
            await Task.Delay(20);
        }
        var clock = Stopwatch.StartNew();
        var last = 0L;
        var lastChange = clock.Elapsed;
        while (clock.Elapsed - lastChange < idle)
        {
            await Task.Delay(50);
            var now = recorder.Received;
            if (now != last)
            {
                last = now;
                lastChange = clock.Elapsed;
            }
        }
        var stats = (await recorder.StopAsync(TimeSpan.Zero, writeJsonLines: output is not null)).Single();
        var written = recorder.Written;
        await recorder.DisposeAsync();
        var seconds = lastChange.TotalSeconds;
        Console.WriteLine(
            FormattableString.Invariant(
                $"received {stats.Received} dropped_by_harness {stats.DroppedByHarness} written {written} bytes {stats.Bytes} seconds {seconds:0.000} rate_per_s {stats.Received / Math.Max(seconds, 1e-9):0} peak_rss_mb {PeakRss.Megabytes():0.0} kernel_rcvbuf {stats.KernelBufferBytes}"
            )
        );
        return 0;
    }
}
