using System.Globalization;
using System.Text.Json;
using Lightning.Bench.Csv;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Soak;
using Lightning.Bench.Statistics;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>The soak's statistics and options on data with known answers: trends of known slope, percentiles, budgets.</summary>
[Trait("Category", "Unit")]
public class SoakTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-soak-").FullName;

    [Fact]
    public void Theil_Sen_finds_a_line_exactly_and_ignores_wild_points_that_would_tilt_least_squares()
    {
        var line = Enumerable.Range(0, 50).Select(i => ((double)i, 2.0 * i + 1)).ToList();
        Assert.Equal(2, TrendEstimate.TheilSen(line), 9);

        // A flat series whose last fifth is wild (a slow patch at the end): least squares sees a steep rise, Theil–Sen almost none.
        var random = new Random(3);
        var flat = Enumerable
            .Range(0, 100)
            .Select(i => ((double)i, 100 + random.NextDouble() - 0.5 + (i >= 80 ? 400 : 0)))
            .ToList();
        var meanX = flat.Average(p => p.Item1);
        var meanY = flat.Average(p => p.Item2);
        var leastSquares =
            flat.Sum(p => (p.Item1 - meanX) * (p.Item2 - meanY)) / flat.Sum(p => (p.Item1 - meanX) * (p.Item1 - meanX));
        Assert.True(leastSquares > 3, $"least squares {leastSquares}");
        Assert.True(Math.Abs(TrendEstimate.TheilSen(flat)) < 0.3, $"Theil–Sen {TrendEstimate.TheilSen(flat)}");
    }

    [Fact]
    public void A_flat_noisy_series_is_flat_a_growing_one_growing_a_shrinking_one_shrinking_and_a_short_one_unknown()
    {
        var random = new Random(7);
        var hours = Enumerable.Range(0, 240).Select(i => i / 120.0).ToList(); // two hours, a window every 30 s
        double Noise() => (random.NextDouble() - 0.5) * 10; // ±5 % of 100

        var flat = TrendEstimate.Of(hours, hours.Select(_ => 100 + Noise()).ToList(), per: 1, thresholdPercent: 2);
        Assert.Equal(TrendEstimate.Flat, flat.Verdict);
        Assert.InRange(flat.RelativeLow, -0.02, 0);
        Assert.InRange(flat.RelativeHigh, 0, 0.02);

        // 10 % per hour of a series around 100 (its median is about 110 over two hours: about 9 % of the median).
        var growing = TrendEstimate.Of(
            hours,
            hours.Select(h => 100 + 10 * h + Noise()).ToList(),
            per: 1,
            thresholdPercent: 2
        );
        Assert.Equal(TrendEstimate.Growing, growing.Verdict);
        Assert.Equal(10, growing.Slope, 0);
        Assert.InRange(10 / growing.Median, growing.RelativeLow, growing.RelativeHigh);

        var shrinking = TrendEstimate.Of(
            hours,
            hours.Select(h => 100 - 10 * h + Noise()).ToList(),
            per: 1,
            thresholdPercent: 2
        );
        Assert.Equal(TrendEstimate.Shrinking, shrinking.Verdict);

        var shortRun = TrendEstimate.Of([0, 0.01, 0.02, 0.03], [100, 140, 90, 120], per: 1, thresholdPercent: 2);
        Assert.Equal(TrendEstimate.Unknown, shortRun.Verdict);
    }

    [Fact]
    public void The_2018_trend_each_payment_slower_than_the_last_is_found_per_10000_payments()
    {
        // Core Lightning issue 1506's shape: latency rising with the number of payments made, 5 % per 10,000, noisy.
        var random = new Random(11);
        var payments = Enumerable.Range(1, 500).Select(i => i * 200.0).ToList(); // 100,000 payments in 500 windows
        var latency = payments
            .Select(n => 100 * (1 + 0.05 * n / 10_000) * (1 + (random.NextDouble() - 0.5) * 0.2))
            .ToList();
        var trend = TrendEstimate.Of(payments, latency, SoakReport.PaymentsPerTrendUnit, thresholdPercent: 2);
        Assert.Equal(TrendEstimate.Growing, trend.Verdict);
        Assert.InRange(5.0 / trend.Median * 100 / 100, trend.RelativeLow, trend.RelativeHigh);
        Assert.True(trend.Points <= TrendEstimate.MaxPoints);
    }

    [Fact]
    public void A_replayed_soak_whose_alice_leaks_memory_reports_alice_growing_bob_flat_and_the_budgets()
    {
        // One hour, a window every 10 s, 100 payments per window: alice keeps 16 KB of every payment (a leak), bob's
        // memory is level, both databases grow by 20 KB per payment (what they record).
        var random = new Random(5);
        WriteSoak(
            361,
            10,
            100,
            random,
            (total, _) => 50 + total * 16.0 / 1024 + (random.NextDouble() - 0.5),
            (_, _) => 50 + (random.NextDouble() - 0.5),
            total => 1 + total * 20.0 / 1024
        );
        var histogram = new LatencyHistogram();
        for (var i = 0; i < 7200; i++)
        {
            histogram.Add(90 + i % 20);
        }
        var facts = new SoakFacts(
            "AlicePaysBob",
            "1 h",
            TimeSpan.FromHours(1),
            36_000,
            3,
            histogram,
            new Dictionary<string, double> { ["alice"] = 1e7, ["bob"] = 1e7 },
            SoakBudget.ParseList("--budget", "p95<250ms,rss<60MB,failures<1"),
            2,
            null,
            TimeSpan.FromSeconds(10)
        );

        var result = SoakReport.Write(directory, facts);

        var alice = result.Trends.Single(t => t.Series == "alice RSS");
        Assert.Equal(TrendEstimate.Growing, alice.Verdict);
        // In its own unit: 16 KB per payment, inside its interval.
        Assert.Equal("KB", alice.Unit);
        Assert.InRange(16, alice.Estimate.AbsoluteInterval.Low, alice.Estimate.AbsoluteInterval.High);
        Assert.Equal(TrendEstimate.Flat, result.Trends.Single(t => t.Series == "bob RSS").Verdict);
        Assert.Equal(TrendEstimate.Flat, result.Trends.Single(t => t.Series == "mean latency").Verdict);
        Assert.Equal(TrendEstimate.Flat, result.Trends.Single(t => t.Series == "harness RSS").Verdict);
        // A database that records every payment grows with its history: said in KB per payment, not called a leak.
        var database = result.Trends.Single(t => t.Series == "bob database");
        Assert.Equal(GrowthJudgement.WithHistory, database.Verdict);
        Assert.Equal(20, database.Estimate.Slope, 1);
        Assert.False(result.BudgetsHeld);
        Assert.Equal([true, false, false], result.Budgets.Select(b => b.Holds));
        Assert.InRange(result.Budgets[1].Value, 50 + 36_000 * 16.0 / 1024 - 0.6, 50 + 36_000 * 16.0 / 1024 + 0.6); // alice's largest RSS, plus its noise

        var markdown = File.ReadAllText(Path.Combine(directory, SoakReportMarkdown.FileName));
        Assert.Contains("| alice RSS | payment |", markdown);
        Assert.Contains("| bob database | payment |", markdown);
        Assert.Contains("grows with its history", markdown);
        Assert.Contains("**FAIL**", markdown);
        Assert.Contains(
            SoakReport.Lines(result),
            l =>
                l.StartsWith("alice RSS: +16.", StringComparison.Ordinal)
                && l.EndsWith("KB): growing", StringComparison.Ordinal)
        );
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(directory, SoakJson.FileName)));
        Assert.Equal(36_000, json.RootElement.GetProperty("payments").GetInt64());
        Assert.Contains(
            json.RootElement.GetProperty("trends").EnumerateArray(),
            t =>
                t.GetProperty("series").GetString() == "alice RSS"
                && t.GetProperty("verdict").GetString() == "growing"
                && t.GetProperty("unit").GetString() == "KB"
                && Math.Abs(t.GetProperty("change").GetDouble() - 16) < 1
        );
    }

    [Theory]
    [InlineData(3)]
    [InlineData(10)]
    [InlineData(30)]
    public void Memory_that_fills_and_levels_off_is_not_called_growing_in_a_short_soak_and_a_leak_of_16_KB_per_payment_is(
        int minutes
    )
    {
        // As a healthy node's memory was seen here: +1.8 MB over the first minute, at 28 payments/s, then level (a
        // saturating curve, time constant 40 s), with 0.3 MB of noise; the leaking node the same plus 16 KB per payment.
        var random = new Random(minutes);
        WriteSoak(
            minutes * 12 + 1,
            5,
            140,
            random,
            (total, s) =>
                50.5 + 1.8 * (1 - Math.Exp(-s / 40)) + total * 16.0 / 1024 + (random.NextDouble() - 0.5) * 0.3,
            (_, s) => 50.5 + 1.8 * (1 - Math.Exp(-s / 40)) + (random.NextDouble() - 0.5) * 0.3,
            total => 1 + total * 2.0 / 1024
        );
        var facts = new SoakFacts(
            "AlicePaysBob",
            $"{minutes}m",
            TimeSpan.FromMinutes(minutes),
            minutes * 60 * 28,
            0,
            new LatencyHistogram(),
            null,
            [],
            2,
            null,
            TimeSpan.FromSeconds(5)
        );

        var result = SoakReport.Analyse(directory, facts);

        var healthy = result.Trends.Single(t => t.Series == "bob RSS");
        Assert.True(
            healthy.Verdict is TrendEstimate.Flat or GrowthJudgement.WarmingUp,
            $"{minutes} min: bob RSS {SoakReport.Change(healthy)}: {healthy.Verdict}"
        );
        Assert.Equal(TrendEstimate.Growing, result.Trends.Single(t => t.Series == "alice RSS").Verdict);
    }

    [Fact]
    public void A_database_whose_cost_per_payment_rises_with_its_history_is_accelerating()
    {
        // Each payment writes in proportion to the payments kept (a table rewritten whole, say): 20 KB per payment by the end.
        var random = new Random(7);
        WriteSoak(241, 5, 100, random, (_, _) => 50, (_, _) => 50, total => 1 + 10.0 * total * total / 24_000 / 1024);
        var facts = new SoakFacts(
            "AlicePaysBob",
            "20m",
            TimeSpan.FromMinutes(20),
            24_000,
            0,
            new LatencyHistogram(),
            null,
            [],
            2,
            null,
            TimeSpan.FromSeconds(5)
        );

        var result = SoakReport.Analyse(directory, facts);

        Assert.Equal(GrowthJudgement.Accelerating, result.Trends.Single(t => t.Series == "bob database").Verdict);
    }

    /// <summary>soak.csv and soak-nodes.csv of a soak with alice's and bob's memory (MB) and both databases (MB) as given, by payments so far and seconds.</summary>
    private void WriteSoak(
        int windows,
        double secondsPerWindow,
        int paymentsPerWindow,
        Random random,
        Func<double, double, double> aliceRss,
        Func<double, double, double> bobRss,
        Func<double, double> database
    )
    {
        using var windowsFile = new StreamWriter(Path.Combine(directory, SoakWindowsCsv.FileName));
        using var nodes = new StreamWriter(Path.Combine(directory, SoakNodesCsv.FileName));
        windowsFile.WriteLine(
            "elapsed_s,payments_total,payments,failed,rebalances,payments_per_s,mean_ms,p50_ms,p95_ms,p99_ms,harness_rss_mb"
        );
        nodes.WriteLine(
            "elapsed_s,payments_total,node,cpu_percent,cpu_ms_per_payment,rss_mb,memory_mb,peak_mb,written_mb,data_mb,open_files,processes"
        );
        for (var i = 0; i < windows; i++)
        {
            var s = i * secondsPerWindow;
            var total = i * paymentsPerWindow;
            var mean = 100 + (random.NextDouble() - 0.5) * 10;
            windowsFile.WriteLine(
                Row(
                    s,
                    total,
                    i == 0 ? 0 : paymentsPerWindow,
                    0,
                    0,
                    paymentsPerWindow / secondsPerWindow,
                    mean,
                    mean,
                    mean * 1.5,
                    mean * 2,
                    80 + (random.NextDouble() - 0.5)
                )
            );
            nodes.WriteLine(
                Row(s, total, "alice", 40, 20, aliceRss(total, s), 60, 70, total * 0.01, database(total), 200, 27)
            );
            nodes.WriteLine(
                Row(s, total, "bob", 30, 15, bobRss(total, s), 55, 60, total * 0.01, database(total), 200, 27)
            );
        }
    }

    [Fact]
    public async Task The_soaks_writers_keep_their_columns_write_unknown_figures_empty_and_read_back_without_a_line_cut_short()
    {
        var sample = new NodeResourceSample(
            CpuNanoseconds: 0,
            MemoryBytes: 64 << 20,
            RssBytes: 3 << 19,
            PeakBytes: 100 << 20,
            WrittenBytes: 5 << 19,
            OpenFiles: 12,
            Processes: 3,
            DataBytes: 1 << 19
        );
        await using (var windows = new SoakWindowsCsv(directory))
        await using (var nodes = new SoakNodesCsv(directory))
        {
            windows.Write(0, new SoakWindow([], 0, 0, 0), 0, 80.1234);
            windows.Write(10, new SoakWindow([10, 20, 30, 40], 1, 2, 4), 0.4, 81);
            nodes.Write(0, 0, "alice", double.NaN, double.NaN, sample);
            nodes.Write(10, 4, "alice", 12.5, 1.0 / 3, sample);
        }

        Assert.Equal(
            [
                "elapsed_s,payments_total,payments,failed,rebalances,payments_per_s,mean_ms,p50_ms,p95_ms,p99_ms,harness_rss_mb",
                "0,0,0,0,0,0,,,,,80.123",
                "10,4,4,1,2,0.4,25,25,38.5,39.7,81",
            ],
            File.ReadAllLines(Path.Combine(directory, SoakWindowsCsv.FileName))
        );
        Assert.Equal(
            [
                "elapsed_s,payments_total,node,cpu_percent,cpu_ms_per_payment,rss_mb,memory_mb,peak_mb,written_mb,data_mb,open_files,processes",
                "0,0,alice,,,1.5,64,100,2.5,0.5,12,3",
                "10,4,alice,12.5,0.333,1.5,64,100,2.5,0.5,12,3",
            ],
            File.ReadAllLines(Path.Combine(directory, SoakNodesCsv.FileName))
        );

        // A soak stopped mid-write leaves a line cut short: the reader leaves it out.
        File.AppendAllText(Path.Combine(directory, SoakNodesCsv.FileName), "20,8,alice,12");
        var rows = CsvReader.Read(Path.Combine(directory, SoakNodesCsv.FileName));
        Assert.Equal(2, rows.Count);
        Assert.Equal("alice", rows[1]["node"]);
        Assert.True(double.IsNaN(rows[0].Number("cpu_percent")));
        Assert.Equal(1.0 / 3, rows[1].Number("cpu_ms_per_payment"), 3);
        Assert.Equal(38.5, CsvReader.Read(Path.Combine(directory, SoakWindowsCsv.FileName))[1].Number("p95_ms"));
        Assert.Empty(CsvReader.Read(Path.Combine(directory, "missing.csv")));
    }

    [Fact]
    public void The_latency_histogram_gives_percentiles_within_one_percent_in_bounded_memory()
    {
        var histogram = new LatencyHistogram();
        for (var i = 1; i <= 100_000; i++)
        {
            histogram.Add(i / 100.0); // 0.01 .. 1000 ms, uniform
        }
        Assert.Equal(500, histogram.Percentile(0.5), 500 * 0.01);
        Assert.Equal(990, histogram.Percentile(0.99), 990 * 0.01);
        Assert.InRange(histogram.Buckets, 1, 1200);
        Assert.True(double.IsNaN(new LatencyHistogram().Percentile(0.5)));
    }

    [Fact]
    public void Budgets_and_soak_lengths_parse_with_units_and_refuse_what_they_cannot_read_in_one_line()
    {
        var budgets = SoakBudget.ParseList("--budget", "p95<250ms, rss<0.5GB,cpu-per-payment<=20ms,pps>5");
        Assert.Equal(["p95", "rss", "cpu-per-payment", "pps"], budgets.Select(b => b.Metric));
        Assert.Equal([250, 512, 20, 5], budgets.Select(b => b.Limit));
        Assert.True(budgets[2].Holds(20));
        Assert.False(budgets[0].Holds(250));
        Assert.False(budgets[0].Holds(double.NaN));
        Assert.Contains(
            "unknown figure 'latency'",
            Assert.Throws<UsageException>(() => SoakBudget.ParseList("--budget", "latency<3ms")).Message
        );
        Assert.Contains(
            "'MB' is not a unit of p95",
            Assert.Throws<UsageException>(() => SoakBudget.ParseList("--budget", "p95<3MB")).Message
        );
        Assert.Contains(
            "is not FIGURE<LIMIT",
            Assert.Throws<UsageException>(() => SoakBudget.ParseList("--budget", "p95=3ms")).Message
        );

        Assert.Equal(TimeSpan.FromHours(2), SoakLimit.Parse("--soak", "2h").Duration);
        Assert.Equal(TimeSpan.FromMinutes(90), SoakLimit.Parse("--soak", "1h30m").Duration);
        Assert.Equal(50_000, SoakLimit.Parse("--soak", "50000").Payments);
        Assert.Contains("from 10s", Assert.Throws<UsageException>(() => SoakLimit.Parse("--soak", "5s")).Message);
        Assert.Contains(
            "neither a number of payments",
            Assert.Throws<UsageException>(() => SoakLimit.Parse("--soak", "2d")).Message
        );
    }

    [Fact]
    public void A_soak_runs_one_case_without_traces_and_its_options_apply_only_to_it()
    {
        var options = OptionParser.Parse([
            "AlicePaysBob",
            "--soak",
            "30m",
            "--concurrency",
            "10",
            "--budget",
            "p95<250ms",
        ]);
        Assert.Equal(TimeSpan.FromMinutes(30), options.Soak!.Duration);
        Assert.Equal([TraceModes.Off], options.Traces);
        Assert.Single(options.Budgets);

        string Error(params string[] args) => Assert.Throws<UsageException>(() => OptionParser.Parse(args)).Message;
        Assert.Contains(
            "give one value of --concurrency",
            Error("AlicePaysBob", "--soak", "30m", "--concurrency", "1,10")
        );
        Assert.Contains(
            "at most one --build",
            Error("AlicePaysBob", "--soak", "30m", "--build", "a=x:1", "--build", "b=x:2")
        );
        Assert.Contains("traces off", Error("AlicePaysBob", "--soak", "30m", "--traces", "on"));
        Assert.Contains("do not apply", Error("AlicePaysBob", "--soak", "30m", "--topologies", "3"));
        Assert.Contains("add --soak", Error("AlicePaysBob", "--budget", "p95<250ms"));
    }

    private static string Row(params object[] values) =>
        string.Join(
            ",",
            values.Select(v =>
                v is double d
                    ? d.ToString("0.###", CultureInfo.InvariantCulture)
                    : Convert.ToString(v, CultureInfo.InvariantCulture)
            )
        );

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
