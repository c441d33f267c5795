using System.Globalization;
using System.Text.Json;
using Lightning.Bench.Csv;
using Lightning.Bench.Network;
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
        var flat = Enumerable.Range(0, 100).Select(i => ((double)i, 100 + random.NextDouble() - 0.5 + (i >= 80 ? 400 : 0))).ToList();
        var meanX = flat.Average(p => p.Item1);
        var meanY = flat.Average(p => p.Item2);
        var leastSquares = flat.Sum(p => (p.Item1 - meanX) * (p.Item2 - meanY)) / flat.Sum(p => (p.Item1 - meanX) * (p.Item1 - meanX));
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
        var growing = TrendEstimate.Of(hours, hours.Select(h => 100 + 10 * h + Noise()).ToList(), per: 1, thresholdPercent: 2);
        Assert.Equal(TrendEstimate.Growing, growing.Verdict);
        Assert.Equal(10, growing.Slope, 0);
        Assert.InRange(10 / growing.Median, growing.RelativeLow, growing.RelativeHigh);

        var shrinking = TrendEstimate.Of(hours, hours.Select(h => 100 - 10 * h + Noise()).ToList(), per: 1, thresholdPercent: 2);
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
        var latency = payments.Select(n => 100 * (1 + 0.05 * n / 10_000) * (1 + (random.NextDouble() - 0.5) * 0.2)).ToList();
        var trend = TrendEstimate.Of(payments, latency, SoakReport.PaymentsPerTrendUnit, thresholdPercent: 2);
        Assert.Equal(TrendEstimate.Growing, trend.Verdict);
        Assert.InRange(5.0 / trend.Median * 100 / 100, trend.RelativeLow, trend.RelativeHigh);
        Assert.True(trend.Points <= TrendEstimate.MaxPoints);
    }

    [Fact]
    public void A_replayed_soak_whose_alice_leaks_memory_reports_alice_growing_bob_flat_and_the_budgets()
    {
        var random = new Random(5);
        using (var windows = new StreamWriter(Path.Combine(directory, SoakWindowsCsv.FileName)))
        using (var nodes = new StreamWriter(Path.Combine(directory, SoakNodesCsv.FileName)))
        {
            windows.WriteLine("elapsed_s,payments_total,payments,failed,rebalances,payments_per_s,mean_ms,p50_ms,p95_ms,p99_ms,harness_rss_mb");
            nodes.WriteLine("elapsed_s,payments_total,node,cpu_percent,cpu_ms_per_payment,rss_mb,memory_mb,peak_mb,written_mb,data_mb,open_files,processes");
            for (var i = 0; i <= 360; i++) // one hour, a window every 10 s, 100 payments per window
            {
                var s = i * 10.0;
                var total = i * 100;
                var mean = 100 + (random.NextDouble() - 0.5) * 10;
                windows.WriteLine(Row(s, total, i == 0 ? 0 : 100, 0, 0, 10, mean, mean, mean * 1.5, mean * 2, 80 + (random.NextDouble() - 0.5)));
                var hours = s / 3600;
                nodes.WriteLine(Row(s, total, "alice", 40, 20, 50 * (1 + 0.3 * hours) + (random.NextDouble() - 0.5), 60, 70, total * 0.01, 1 + total * 0.00002, 200, 27));
                nodes.WriteLine(Row(s, total, "bob", 30, 15, 50 + (random.NextDouble() - 0.5), 55, 60, total * 0.01, 1 + total * 0.00002, 200, 27));
            }
        }
        var histogram = new LatencyHistogram();
        for (var i = 0; i < 7200; i++)
        {
            histogram.Add(90 + i % 20);
        }
        var facts = new SoakFacts("AlicePaysBob", "1 h", TimeSpan.FromHours(1), 36_000, 3, histogram,
            new Dictionary<string, double> { ["alice"] = 1e7, ["bob"] = 1e7 },
            SoakBudget.ParseList("--budget", "p95<250ms,rss<60MB,failures<1"), 2, null, TimeSpan.FromSeconds(10));

        var result = SoakReport.Write(directory, facts);

        Assert.Equal(TrendEstimate.Growing, result.Trends.Single(t => t.Series == "alice RSS").Estimate.Verdict);
        Assert.Equal(TrendEstimate.Flat, result.Trends.Single(t => t.Series == "bob RSS").Estimate.Verdict);
        Assert.Equal(TrendEstimate.Flat, result.Trends.Single(t => t.Series == "mean latency").Estimate.Verdict);
        Assert.Equal(TrendEstimate.Flat, result.Trends.Single(t => t.Series == "harness RSS").Estimate.Verdict);
        Assert.False(result.BudgetsHeld);
        Assert.Equal([true, false, false], result.Budgets.Select(b => b.Holds));
        Assert.InRange(result.Budgets[1].Value, 64.5, 65.5); // alice's largest RSS: 50 × 1.3 at the hour, plus its noise

        var markdown = File.ReadAllText(Path.Combine(directory, SoakReportMarkdown.FileName));
        Assert.Contains("| alice RSS | hour |", markdown);
        Assert.Contains("**FAIL**", markdown);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(directory, SoakJson.FileName)));
        Assert.Equal(36_000, json.RootElement.GetProperty("payments").GetInt64());
        Assert.Contains(json.RootElement.GetProperty("trends").EnumerateArray(), t => t.GetProperty("series").GetString() == "alice RSS" && t.GetProperty("verdict").GetString() == "growing");
    }

    [Fact]
    public async Task The_soaks_writers_keep_their_columns_write_unknown_figures_empty_and_read_back_without_a_line_cut_short()
    {
        var sample = new NodeResourceSample(CpuNanoseconds: 0, MemoryBytes: 64 << 20, RssBytes: 3 << 19, PeakBytes: 100 << 20,
            WrittenBytes: 5 << 19, OpenFiles: 12, Processes: 3, DataBytes: 1 << 19);
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
        ], File.ReadAllLines(Path.Combine(directory, SoakWindowsCsv.FileName)));
        Assert.Equal(
        [
            "elapsed_s,payments_total,node,cpu_percent,cpu_ms_per_payment,rss_mb,memory_mb,peak_mb,written_mb,data_mb,open_files,processes",
            "0,0,alice,,,1.5,64,100,2.5,0.5,12,3",
            "10,4,alice,12.5,0.333,1.5,64,100,2.5,0.5,12,3",
        ], File.ReadAllLines(Path.Combine(directory, SoakNodesCsv.FileName)));

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
        Assert.Contains("unknown figure 'latency'", Assert.Throws<UsageException>(() => SoakBudget.ParseList("--budget", "latency<3ms")).Message);
        Assert.Contains("'MB' is not a unit of p95", Assert.Throws<UsageException>(() => SoakBudget.ParseList("--budget", "p95<3MB")).Message);
        Assert.Contains("is not FIGURE<LIMIT", Assert.Throws<UsageException>(() => SoakBudget.ParseList("--budget", "p95=3ms")).Message);

        Assert.Equal(TimeSpan.FromHours(2), SoakLimit.Parse("--soak", "2h").Duration);
        Assert.Equal(TimeSpan.FromMinutes(90), SoakLimit.Parse("--soak", "1h30m").Duration);
        Assert.Equal(50_000, SoakLimit.Parse("--soak", "50000").Payments);
        Assert.Contains("from 10s", Assert.Throws<UsageException>(() => SoakLimit.Parse("--soak", "5s")).Message);
        Assert.Contains("neither a number of payments", Assert.Throws<UsageException>(() => SoakLimit.Parse("--soak", "2d")).Message);
    }

    [Fact]
    public void A_soak_runs_one_case_without_traces_and_its_options_apply_only_to_it()
    {
        var options = OptionParser.Parse(["AlicePaysBob", "--soak", "30m", "--concurrency", "10", "--budget", "p95<250ms"]);
        Assert.Equal(TimeSpan.FromMinutes(30), options.Soak!.Duration);
        Assert.Equal([TraceModes.Off], options.Traces);
        Assert.Single(options.Budgets);

        string Error(params string[] args) => Assert.Throws<UsageException>(() => OptionParser.Parse(args)).Message;
        Assert.Contains("give one value of --concurrency", Error("AlicePaysBob", "--soak", "30m", "--concurrency", "1,10"));
        Assert.Contains("at most one --build", Error("AlicePaysBob", "--soak", "30m", "--build", "a=x:1", "--build", "b=x:2"));
        Assert.Contains("traces off", Error("AlicePaysBob", "--soak", "30m", "--traces", "on"));
        Assert.Contains("do not apply", Error("AlicePaysBob", "--soak", "30m", "--topologies", "3"));
        Assert.Contains("add --soak", Error("AlicePaysBob", "--budget", "p95<250ms"));
    }

    private static string Row(params object[] values) =>
        string.Join(",", values.Select(v => v is double d ? d.ToString("0.###", CultureInfo.InvariantCulture) : Convert.ToString(v, CultureInfo.InvariantCulture)));

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
