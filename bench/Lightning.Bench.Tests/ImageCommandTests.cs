using Lightning.Bench.Progress;
using Lightning.Bench.Sources;

namespace Lightning.Bench.Tests;

/// <summary>The user's image command as /bin/sh runs it: its placeholders, its environment, its log, where it comes from.</summary>
[Trait("Category", "Unit")]
public class ImageCommandTests : IDisposable
{
    private readonly string folder = Directory.CreateTempSubdirectory("lnbench-image-command-").FullName;

    [Fact]
    public async Task Placeholders_are_put_in_shell_quoted_so_a_path_with_spaces_and_quotes_stays_one_word()
    {
        var tree = Path.Combine(folder, "a tree's $HOME `x`");
        Directory.CreateDirectory(tree);
        var command = new ImageCommand(
            "set -- {source} {image} {commit}; echo \"$#\"; printf '[%s]\\n' \"$@\"",
            "test"
        );

        var (exit, lines) = await RunAsync(command, tree);

        Assert.Equal(0, exit);
        Assert.Equal(
            ["3", $"[{tree}]", "[lnbench-built/x:0123456789ab]", "[0123456789abcdef0123456789abcdef01234567]"],
            lines
        );
    }

    [Fact]
    public async Task The_command_runs_in_the_tree_with_its_inputs_in_its_environment_and_its_errors_in_the_log_in_order()
    {
        var command = new ImageCommand(
            "echo building; echo 'cc: error' >&2; echo \"$LNBENCH_COMMIT $LNBENCH_IMAGE $LNBENCH_REF\"; pwd; exit 7",
            "test"
        );

        var (exit, lines) = await RunAsync(command, folder);

        Assert.Equal(7, exit);
        Assert.Equal(
            [
                "building",
                "cc: error",
                "0123456789abcdef0123456789abcdef01234567 lnbench-built/x:0123456789ab v1.0",
                folder,
            ],
            lines
        );
    }

    [Fact]
    public void The_command_is_the_option_else_the_checkouts_file_else_one_line_saying_both()
    {
        Assert.Equal(("make image", "--image-command"), Of("make image"));
        var missing = Assert.Throws<UsageException>(() => ImageCommand.Of(null, folder));
        Assert.Contains("--image-command", missing.Message);
        Assert.Contains(Path.Combine(folder, ImageCommand.FileName), missing.Message);

        File.WriteAllText(Path.Combine(folder, ImageCommand.FileName), "\n   \n");
        Assert.Contains("is empty", Assert.Throws<UsageException>(() => ImageCommand.Of(null, folder)).Message);
        File.WriteAllText(Path.Combine(folder, ImageCommand.FileName), "docker build -t {image} {source}\n");
        Assert.Equal(("docker build -t {image} {source}", Path.Combine(folder, ImageCommand.FileName)), Of(null));
        // The option wins over the file.
        Assert.Equal("true", Of("true").Text);
    }

    private (string Text, string From) Of(string? option) =>
        ImageCommand.Of(option, folder) is var c ? (c.Text, c.From) : default;

    private static async Task<(int Exit, List<string> Lines)> RunAsync(ImageCommand command, string tree)
    {
        var log = new StringWriter();
        var heard = new List<string>();
        var exit = await command.RunAsync(
            "0123456789abcdef0123456789abcdef01234567",
            tree,
            "lnbench-built/x:0123456789ab",
            "v1.0",
            log,
            heard.Add
        );
        var logged = log.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries).ToList();
        Assert.Equal(logged, heard);
        return (exit, logged);
    }

    public void Dispose() => Directory.Delete(folder, recursive: true);
}
