using System.Diagnostics;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Tests;

/// <summary>The wait for quiet nodes over readings made up here: the window it judges is the one the readings span.</summary>
[Trait("Category", "Unit")]
public class QuietWaitTests
{
    [Fact]
    public async Task A_reader_held_up_between_reading_and_the_clock_does_not_make_a_working_node_look_quiet()
    {
        // A node that uses one core all along; every other reading, the reader is held up 25 ms just after reading
        // (descheduled on a busy machine), so the clock read after it is 25 ms late for that reading.
        var node = Stopwatch.StartNew();
        var reads = 0;
        long? Read()
        {
            var ns = node.Elapsed.Ticks * 100;
            if (++reads % 2 == 0)
            {
                Thread.Sleep(25);
            }
            return ns;
        }

        var (waited, quiet) = await QuietWait.UntilQuietAsync(
            Read,
            0,
            TimeSpan.FromMilliseconds(10),
            0.1,
            TimeSpan.FromMilliseconds(500),
            TimeSpan.FromMilliseconds(1)
        );

        // A window timed by the clock alone took the hold-up for idle time: 1–2 ms of CPU over 26 ms read as quiet.
        Assert.False(quiet, $"called quiet after {waited.TotalMilliseconds:0} ms, {reads} readings");
        Assert.True(waited >= TimeSpan.FromMilliseconds(500));
    }

    [Fact]
    public async Task A_node_that_stops_is_quiet_once_a_whole_window_has_passed_without_work()
    {
        var node = Stopwatch.StartNew();
        var stopAt = TimeSpan.FromMilliseconds(100);
        long? Read() => Math.Min(node.Elapsed.Ticks, stopAt.Ticks) * 100;

        var (waited, quiet) = await QuietWait.UntilQuietAsync(
            Read,
            0,
            TimeSpan.FromMilliseconds(10),
            0.1,
            TimeSpan.FromSeconds(30),
            TimeSpan.FromMilliseconds(1)
        );

        Assert.True(quiet);
        Assert.True(
            node.Elapsed >= stopAt + TimeSpan.FromMilliseconds(10),
            $"quiet at {node.Elapsed.TotalMilliseconds:0} ms"
        );
    }
}
