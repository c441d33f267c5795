using Lightning.Bench.Docker;
using Lightning.Bench.Instructions;

namespace Lightning.Bench.Tests.Instructions;

/// <summary>
/// Children forked without exec (Core Lightning's askrene routes in one per getroutes since v26.04): counted in a window
/// only when born and ended in it and zeroed where their own work starts; a child that still carries its parent's
/// counts, a process zeroed with the window, one still running and a mid-run dump are not taken as one.
/// </summary>
[Trait("Category", "Unit")]
public class ForkedChildrenTests : IDisposable
{
    private readonly string folder = Directory.CreateTempSubdirectory("lnbench-forked-").FullName;

    [Fact]
    public void Only_an_ended_child_zeroed_at_its_work_is_counted()
    {
        Write("cg.100", "fn=(1) main\nfn=(2) run_child\n"); // zeroed with the window: counted its own way
        Write("cg.200", "fn=(1) main\nfn=(7) run_child\n"); // forked since, zeroed at run_child: counted
        Write("cg.201", "fn=(1) main\nfn=(3) do_getroutes\n"); // forked since, its parent's counts: left
        Write("cg.202", "fn=run_child\n"); // forked, still running: next window's
        Write("vgdb-from-vgdb-to-202-by-lnbench-on-host", "");
        Write("cg.203", "fn=run_child\n"); // uncompressed names
        Write("cg.300.1", "fn=(7) run_child\n"); // a mid-run dump of a process
        Write("cg.204", "fn=(7) run_child_helper\n"); // another function of a similar name
        Write("cg.205", "fn=(1) do_getroutes\ncfn=(9) run_child\ncalls=1 0\n0 5\nfn=(9)\n0 3\n"); // named first as a callee
        var callgrind = new NodeCallgrind(new DockerEngine(), "alice", "container", folder, null, ["run_child"]);

        var counted = callgrind.ForkedAndEnded([100]).Select(c => c.Pid).Order();

        Assert.Equal([200, 203, 205], counted);
        Assert.Empty(new NodeCallgrind(new DockerEngine(), "alice", "container", folder, null).ForkedAndEnded([100]));
    }

    [Fact]
    public void A_restarted_nodes_old_fifos_and_dumps_are_forgotten_and_nothing_else()
    {
        var node = Directory.CreateDirectory(Path.Combine(folder, "alice")).FullName;
        var callgrind = Directory.CreateDirectory(Path.Combine(node, ValgrindWrapping.Folder)).FullName;
        foreach (
            var name in new[]
            {
                "vgdb-from-vgdb-to-23-by-x-on-y",
                "vgdb-to-vgdb-from-23-by-x-on-y",
                "vgdb-shared-mem-vgdb-23-by-x-on-y",
                "cg.23",
                "cg.23.1",
                "keep.txt",
            }
        )
        {
            File.WriteAllText(Path.Combine(callgrind, name), "");
        }

        ValgrindWrapping.ForgetProcesses(node);
        ValgrindWrapping.ForgetProcesses(Path.Combine(folder, "no-such-node"));

        Assert.Equal(["keep.txt"], Directory.EnumerateFiles(callgrind).Select(Path.GetFileName));
    }

    public void Dispose() => Directory.Delete(folder, recursive: true);

    private void Write(string name, string text) => File.WriteAllText(Path.Combine(folder, name), text);
}
