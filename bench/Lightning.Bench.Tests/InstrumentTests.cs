using Lightning.Bench.Instruments;
using Lightning.Bench.Profiling;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests;

/// <summary>The instruments around an invocation: what each reads, when, and what it records for the invocation.</summary>
[Trait("Category", "Unit")]
public class InstrumentTests
{
    private readonly RunResults run = new();
    private readonly CaseResults results;
    private readonly List<string> events = [];

    public InstrumentTests()
    {
        results = run.StartCase("case", new Dictionary<string, string>(), 2);
    }

    [Fact]
    public async Task The_cpu_readings_bracket_the_invocation_and_are_recorded_for_it_per_operation_that_ended_as_expected()
    {
        var meter = new LoggingMeter(events);
        var cpu = new NodeCpuWindow(meter, results, idleAfterOperations: false, new RunProgress(TextWriter.Null));
        var invocation = new Invocation(1, measured: true);

        await cpu.BeforeInvocationAsync(invocation, default);
        events.Add("operations");
        results.Add(Record(1, 1, OperationOutcome.Failed, expected: true));
        results.Add(Record(1, 2, OperationOutcome.Succeeded, expected: false));
        await cpu.AfterInvocationAsync(invocation, default);
        results.CompleteInvocation(1, TimeSpan.FromMilliseconds(5));

        Assert.Equal(["cpu", "operations", "cpu"], events);
        results.Complete(0, 1);
        // 10 ns between the readings over the invocation's one operation that ended as its workload asks, in ms.
        Assert.Equal(1e-5, results.CpuPerPayment()!.ByNode["alice"], 12);

        // A reading after an invocation without one before records nothing.
        events.Clear();
        await cpu.AfterInvocationAsync(new Invocation(2, measured: true), default);
        Assert.Empty(events);
    }

    [Fact]
    public async Task Windows_nest_before_in_order_after_in_reverse_and_the_gc_window_counts_measured_invocations_only()
    {
        var order = new List<string>();
        var instruments = new CaseInstrument[]
        {
            new Named("outer", order),
            new Named("middle", order),
            new HarnessGcWindow(results),
            new Named("inner", order),
        };
        foreach (var number in new[] { 1, 2 })
        {
            var invocation = new Invocation(number, measured: number > 1);
            foreach (var i in instruments)
            {
                await i.BeforeInvocationAsync(invocation, default);
            }
            for (var i = instruments.Length - 1; i >= 0; i--)
            {
                await instruments[i].AfterInvocationAsync(invocation, default);
            }
        }
        Assert.Equal(["outer+", "middle+", "inner+", "inner-", "middle-", "outer-"], order.Take(6));
        Assert.Single(results.GcInInvocations);
    }

    [Fact]
    public async Task The_timing_records_an_invocation_only_once_its_operations_all_ended()
    {
        var timing = new InvocationTiming(results);
        await timing.AfterInvocationAsync(
            new Invocation(1, measured: true) { Elapsed = TimeSpan.FromMilliseconds(20) },
            default
        );
        await timing.AfterInvocationAsync(new Invocation(2, measured: true), default);
        results.Complete(0, 2);
        Assert.Equal(1, results.CompletedMeasuredInvocations);
    }

    private static OperationRecord Record(int invocation, long id, OperationOutcome outcome, bool expected)
    {
        var start = DateTimeOffset.UtcNow;
        return new OperationRecord(
            "case",
            invocation,
            id,
            "alice",
            "bob",
            start,
            start,
            start.AddMilliseconds(10),
            "h",
            outcome,
            null
        )
        {
            AsExpected = expected,
        };
    }

    private sealed class Named(string name, List<string> order) : CaseInstrument
    {
        public override Task BeforeInvocationAsync(Invocation invocation, CancellationToken ct)
        {
            order.Add($"{name}+");
            return Task.CompletedTask;
        }

        public override Task AfterInvocationAsync(Invocation invocation, CancellationToken ct)
        {
            order.Add($"{name}-");
            return Task.CompletedTask;
        }
    }

    private sealed class LoggingMeter(List<string> events) : INodeMeter
    {
        private long alice;

        public string? Problem => null;

        public Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken ct = default)
        {
            events.Add("cpu");
            alice += 10;
            return Task.FromResult<IReadOnlyDictionary<string, long>>(
                new Dictionary<string, long> { ["alice"] = alice }
            );
        }

        public Task<IReadOnlyDictionary<string, NodeResourceSample>> ReadResourcesAsync(
            CancellationToken ct = default
        ) =>
            Task.FromResult<IReadOnlyDictionary<string, NodeResourceSample>>(
                new Dictionary<string, NodeResourceSample>()
            );

        public Task<(TimeSpan Waited, bool Quiet)> WaitQuietAsync(
            IReadOnlyDictionary<string, double>? idleNsPerSecond,
            TimeSpan quiet,
            double busyShare,
            TimeSpan limit,
            CancellationToken ct = default,
            TimeSpan? poll = null
        ) => Task.FromResult((TimeSpan.Zero, true));
    }
}
