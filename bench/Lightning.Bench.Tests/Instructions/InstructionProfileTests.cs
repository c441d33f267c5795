using Lightning.Bench.Instructions;

namespace Lightning.Bench.Tests.Instructions;

[Trait("Category", "Unit")]
public class InstructionProfileTests
{
    [Fact]
    public void A_node_profile_keys_functions_by_process_and_sums_processes_of_the_same_name()
    {
        var channeld = CallgrindDumpTests.Load("callgrind-channeld-version.txt");
        var lightningd = CallgrindDumpTests.Load("callgrind-lightningd-dump.txt");

        var profile = InstructionProfile.FromDumps([channeld, lightningd, channeld]);

        Assert.Equal(2 * 355_199, profile.Processes["lightning_channeld"]);
        Assert.Equal(12_091, profile.Processes["lightningd"]);
        Assert.Equal(2 * 355_199 + 12_091, profile.Total);
        var doLookup = new InstructionFunction("lightning_channeld", "do_lookup_x", "ld-linux-x86-64.so.2");
        Assert.Equal(new FunctionInstructions(2 * 102_560, 2 * 125_336), profile[doLookup]);
        Assert.Equal(8_540, profile[new InstructionFunction("lightningd", "logv", "lightningd")].Inclusive);
        // The executable's own (below main) and libc's stay apart, in each process.
        Assert.Contains(new InstructionFunction("lightningd", "(below main)", "lightningd"), profile.Functions.Keys);
        Assert.Contains(new InstructionFunction("lightningd", "(below main)", "libc.so.6"), profile.Functions.Keys);
        Assert.Contains(
            new InstructionFunction("lightning_channeld", "(below main)", "libc.so.6"),
            profile.Functions.Keys
        );
        Assert.Equal(profile.Total, profile.Functions.Values.Sum(f => f.Self));
        Assert.Equal("do_lookup_x (lightning_channeld)", doLookup.ToString());
    }

    [Fact]
    public void A_window_less_its_scaled_idle_background_per_payment_is_what_the_payments_added()
    {
        // 30 payments of 1,000 instructions in handler over a 10 s window; idle: 60 instructions per second in timer.
        var window = InstructionProfile.FromDumps([
            SyntheticDumps.Dump("/bin/lightningd", [("handler", 30_000), ("timer", 600)]),
        ]);
        var idle = InstructionProfile.FromDumps([SyntheticDumps.Dump("/bin/lightningd", [("timer", 1_200)])]);
        var handler = new InstructionFunction("lightningd", "handler", "x");
        var timer = new InstructionFunction("lightningd", "timer", "x");

        var perPayment = window.Subtract(idle, scale: 10.0 / 20.0).PerPayment(30);

        Assert.Equal(1_000, perPayment[handler].Self, 9);
        Assert.Equal(0, perPayment[timer].Self, 9);
        Assert.Equal(1_000, perPayment.Total, 9);
        Assert.Equal(1_000, perPayment.Processes["lightningd"], 9);
        Assert.Equal(2 * 30_000, window.Add(window)[handler].Self);
        Assert.Equal(3 * 30_600, InstructionProfile.Sum([window, window, window]).Total);
        Assert.Equal(-600, InstructionProfile.Empty.Subtract(window, 0.02)[handler].Self, 9);
        Assert.Throws<ArgumentOutOfRangeException>(() => window.PerPayment(0));
    }

    [Fact]
    public void Calls_between_functions_are_kept_and_scaled()
    {
        var dump = CallgrindDumpTests.Load("callgrind-known-calls.txt");
        var profile = InstructionProfile.FromDumps([dump]).PerPayment(2);
        var a = new InstructionFunction("known-calls", "a", "known-calls");
        var c = new InstructionFunction("known-calls", "c", "known-calls");

        Assert.Equal(new CallInstructions(1.5, 903), profile.Calls[(a, c)]);
        Assert.Equal(19_815 / 2.0, profile[a].Inclusive);
    }
}
