using Lightning.Bench.Reports;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class PaymentReportingTests
{
    private static OperationRecord Payment(
        int invocation,
        long id,
        double latencyMs,
        OperationOutcome outcome = OperationOutcome.Succeeded,
        string? error = null
    )
    {
        var start = DateTimeOffset.UnixEpoch.AddSeconds(id);
        return new OperationRecord(
            "Concurrency=2",
            invocation,
            id,
            "alice",
            "bob",
            start,
            start.AddMilliseconds(2),
            start.AddMilliseconds(latencyMs),
            "hash",
            outcome,
            error
        );
    }

    [Fact]
    public void Warmup_invocations_are_left_out_of_the_figures()
    {
        var results = new CaseResults("Concurrency=2", 2);
        for (var i = 0; i < 3; i++)
        {
            results.StartInvocation();
        }
        results.Add(Payment(1, 1, 900));
        results.Add(Payment(1, 2, 900));
        results.Add(Payment(2, 3, 50));
        results.Add(Payment(2, 4, 60));
        results.Add(Payment(3, 5, 70));
        results.Add(Payment(3, 6, 10, OperationOutcome.Failed, "boom"));
        results.Complete(warmups: 1, iterations: 2);

        // Mean invocation time 100 ms, 2 payments each, 3 of 4 measured payments succeeded.
        var figures = CaseFigures.Compute(results, meanNanoseconds: 100e6);
        Assert.Equal(15, figures.PaymentsPerSecond, precision: 6);
        Assert.Equal(60, figures.P50Ms, precision: 6);
        Assert.Equal(69, figures.P95Ms, precision: 6);
        Assert.Equal(1, figures.Errors);
        Assert.Equal(3, figures.AsExpected);
    }

    [Fact]
    public void Percentiles_interpolate_like_r()
    {
        Assert.Equal(2.5, CaseFigures.Percentile([1, 2, 3, 4], 0.5));
        Assert.True(double.IsNaN(CaseFigures.Percentile([], 0.5)));
    }

    [Fact]
    public void Csv_rows_quote_errors_and_mark_phases()
    {
        var results = new CaseResults("Concurrency=1", 1);
        results.StartInvocation();
        results.StartInvocation();
        results.Add(Payment(1, 1, 40));
        results.Add(Payment(2, 2, 50, OperationOutcome.Failed, "bob: xpay failed with 203: \"no\", sorry"));
        results.Complete(warmups: 1, iterations: 1);
        var path = Path.Combine(Directory.CreateTempSubdirectory("lnbench-csv-").FullName, PaymentCsv.FileName);

        PaymentCsv.Append(path, results.Records);
        PaymentCsv.Append(path, results.Records);

        var lines = File.ReadAllLines(path);
        Assert.Equal(5, lines.Length);
        Assert.StartsWith("case,invocation,phase,payment_id", lines[0]);
        Assert.Contains(",warmup,1,alice,bob,", lines[1]);
        Assert.EndsWith(",failed,\"bob: xpay failed with 203: \"\"no\"\", sorry\",0,,false,,,,,", lines[2]);
    }
}
