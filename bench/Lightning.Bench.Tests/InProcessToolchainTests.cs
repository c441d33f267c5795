using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Lightning.Bench.Cases;

namespace Lightning.Bench.Tests;

/// <summary>The scenarios' setup and cleanup are async: the harness's in-process job must wait for each before going on.</summary>
[Trait("Category", "Unit")]
public class InProcessToolchainTests
{
    [Fact]
    public void The_case_job_runs_in_process_with_the_case_timeout_not_the_five_minute_default()
    {
        var toolchain = Assert.IsType<InProcessEmitToolchain>(
            BenchConfig.CaseJob(warmups: 0, iterations: 1).Infrastructure.Toolchain
        );

        var executor = Assert.IsType<InProcessEmitExecutor>(toolchain.Executor);
        Assert.Equal(BenchConfig.CaseTimeout, executor.ExecutionTimeout);
        Assert.True(executor.ExecutionTimeout > InProcessEmitExecutor.DefaultTimeout);
    }

    [Fact]
    public void The_case_job_waits_for_async_setup_and_cleanup_before_each_next_step()
    {
        AsyncSetupBenchmark.Steps.Clear();

        BenchmarkDotNetRun.Run<AsyncSetupBenchmark>([BenchConfig.CaseJob(warmups: 1, iterations: 3)]);

        var steps = AsyncSetupBenchmark.Steps.ToList();
        Assert.Equal("global setup", steps[0]);
        Assert.Equal("global cleanup", steps[^1]);
        var invocations = steps.Skip(1).SkipLast(1).Chunk(3).ToList();
        Assert.All(invocations, i => Assert.Equal(["iteration setup", "invocation", "iteration cleanup"], i));
        // At least the warmup and the measured iterations; BenchmarkDotNet may add its own first (jitting) invocation.
        Assert.True(invocations.Count >= 4, string.Join(", ", steps));
    }

    // BenchmarkDotNet's default forces two full collections around every iteration (for micro-benchmarks); in a 2-core
    // machine that put milliseconds of the harness's own CPU next to the nodes' trailing work (benchmarks/harness-overhead.sh).
    [Fact]
    public void The_case_job_forces_no_garbage_collection_between_an_iteration_s_setup_and_its_invocation()
    {
        GcCountingBenchmark.Steps.Clear();

        BenchmarkDotNetRun.Run<GcCountingBenchmark>([BenchConfig.CaseJob(warmups: 1, iterations: 5)]);

        var iterations = GcCountingBenchmark.Steps.Chunk(3).ToList();
        Assert.True(iterations.Count >= 6, string.Join(", ", GcCountingBenchmark.Steps));
        Assert.All(
            iterations,
            i =>
            {
                Assert.Equal(["setup", "invocation", "cleanup"], i.Select(s => s.Step));
                Assert.Equal(i[0].FullCollections, i[1].FullCollections);
            }
        );
        // Nor between one iteration's cleanup and the next one's setup.
        Assert.All(
            iterations.Zip(iterations.Skip(1)),
            p => Assert.Equal(p.First[2].FullCollections, p.Second[0].FullCollections)
        );
    }
}
