using Lightning.Bench.Options;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Tests.Progress;

/// <summary>A live display only for a person at a terminal that redraws; plain lines for pipes, CI, dumb terminals and --plain.</summary>
[Trait("Category", "Unit")]
public class ProgressModeChoiceTests
{
    private static ProgressMode Choose(
        bool plain = false,
        bool redirected = false,
        bool ansi = true,
        params string[] variables
    )
    {
        var environment = variables.Select(v => v.Split('=', 2)).ToDictionary(v => v[0], v => v[1]);
        return ProgressModeChoice.Choose(plain, redirected, name => environment.GetValueOrDefault(name), () => ansi);
    }

    [Fact]
    public void A_terminal_that_redraws_gets_the_live_display() =>
        Assert.Equal(ProgressMode.Live, Choose(variables: ["TERM=xterm-256color"]));

    [Fact]
    public void Redirected_output_gets_plain_lines() =>
        Assert.Equal(ProgressMode.Plain, Choose(redirected: true, variables: ["TERM=xterm-256color"]));

    [Theory]
    [InlineData("CI=true")]
    [InlineData("CI=1")]
    [InlineData("LNBENCH_PLAIN=1")]
    [InlineData("LNBENCH_PLAIN=true")]
    [InlineData("TERM=dumb")]
    public void CI_a_dumb_terminal_or_LNBENCH_PLAIN_get_plain_lines_in_a_terminal_too(string variable) =>
        Assert.Equal(
            ProgressMode.Plain,
            Choose(
                variables:
                [
                    variable,
                    .. variable.StartsWith("TERM=", StringComparison.Ordinal) ? Array.Empty<string>() : ["TERM=xterm"],
                ]
            )
        );

    [Theory]
    [InlineData("CI=false")]
    [InlineData("CI=0")]
    [InlineData("CI=")]
    [InlineData("LNBENCH_PLAIN=0")]
    public void Variables_that_say_no_leave_the_live_display(string variable) =>
        Assert.Equal(ProgressMode.Live, Choose(variables: [variable, "TERM=xterm"]));

    [Fact]
    public void The_plain_option_and_a_terminal_without_ANSI_get_plain_lines()
    {
        Assert.Equal(ProgressMode.Plain, Choose(plain: true, variables: ["TERM=xterm"]));
        Assert.Equal(ProgressMode.Plain, Choose(ansi: false, variables: ["TERM=xterm"]));
    }

    [Fact]
    public void The_terminal_is_not_probed_when_the_output_goes_elsewhere() =>
        Assert.Equal(
            ProgressMode.Plain,
            ProgressModeChoice.Choose(false, true, _ => null, () => throw new InvalidOperationException("probed"))
        );

    [Fact]
    public void Plain_is_an_option_of_its_own_and_a_replay_takes_it_from_the_command_line_not_the_replayed_run()
    {
        Assert.True(OptionParser.Parse(["AlicePaysBob", "--plain"]).Plain);
        Assert.False(OptionParser.Parse(["AlicePaysBob"]).Plain);
        Assert.True(OptionCatalog.Find("--plain")!.KeptByReplay);
    }
}
