using Lightning.Bench.Cli;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class OptionParserTests
{
    [Fact]
    public void No_arguments_mean_the_default_scenario_and_images()
    {
        var options = OptionParser.Parse([]);
        Assert.Equal("AlicePaysBob", options.Scenario);
        Assert.Equal("elementsproject/lightningd:v26.06.6", options.ClnImage);
        Assert.Equal(HarnessOptions.DefaultBitcoindImage, options.BitcoindImage);
        Assert.Equal([1, 4, 10], options.Concurrency);
    }

    [Fact]
    public void Parameters_images_and_benchmarkdotnet_arguments_are_taken_from_the_command_line()
    {
        var options = OptionParser.Parse(
        [
            "alicepaysbob", "--concurrency", "1,4,7,10", "--iterations=10", "--cln-image", "mycln:dev",
            "--bitcoind-image", "lnbench-local/bitcoind:31.99", "--no-pull", "--", "--memory", "--filter", "*",
        ]);
        Assert.Equal("AlicePaysBob", options.Scenario);
        Assert.Equal([1, 4, 7, 10], options.Concurrency);
        Assert.Equal(10, options.Iterations);
        Assert.Equal("mycln:dev", options.ClnImage);
        Assert.Equal("lnbench-local/bitcoind:31.99", options.BitcoindImage);
        Assert.False(options.Pull);
        Assert.Equal(["--memory", "--filter", "*"], options.BenchmarkDotNetArguments);
    }

    [Theory]
    [InlineData(new[] { "NoSuchScenario" }, "unknown scenario 'NoSuchScenario'")]
    [InlineData(new[] { "--concurrency", "0" }, "--concurrency 0 is out of range")]
    [InlineData(new[] { "--concurrency", "-3" }, "--concurrency -3 is out of range")]
    [InlineData(new[] { "--concurrency", "four" }, "--concurrency 'four' is not a whole number")]
    [InlineData(new[] { "--concurrency", "100000" }, "--concurrency 100000 is out of range")]
    [InlineData(new[] { "--concurrency", "1,,4" }, "has an empty item")]
    [InlineData(new[] { "--concurrency", "4,4" }, "lists 4 twice")]
    [InlineData(new[] { "--concurrency" }, "--concurrency needs a value")]
    [InlineData(new[] { "--iterations", "0" }, "--iterations 0 is out of range")]
    [InlineData(new[] { "--cln-image", "" }, "is not an image reference")]
    [InlineData(new[] { "--cln-image", "two words" }, "is not an image reference")]
    [InlineData(new[] { "--concurency", "4" }, "unknown option '--concurency'")]
    [InlineData(new[] { "AlicePaysBob", "Extra" }, "unexpected argument 'Extra'")]
    [InlineData(new[] { "--list=yes" }, "--list takes no value")]
    public void Bad_input_gets_one_line_that_says_what_was_wrong(string[] args, string expected)
    {
        var error = Assert.Throws<UsageException>(() => OptionParser.Parse(args));
        Assert.Contains(expected, error.Message);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public void The_list_names_every_scenario_and_its_parameters()
    {
        var list = Usage.ScenarioList();
        Assert.Contains("AlicePaysBob", list);
        Assert.Contains("Concurrency: --concurrency", list);
    }
}
