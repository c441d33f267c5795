using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Network;

/// <summary>Where each container of a topology writes its log, the end of it as evidence, and copies kept with the results.</summary>
internal sealed class NodeLogs(TopologySpec topology, RunLayout layout, NodeKindCatalog kinds, DockerEngine engine)
{
    private const int TailLines = 20;

    /// <summary>
    /// The end of a node's log: its own log file in the run folder (complete up to its death), else what the engine
    /// kept of its output.
    /// </summary>
    public async Task<string> TailAsync(string node, string containerId, CancellationToken ct = default)
    {
        var file = FileOf(node);
        var tail = File.Exists(file) ? LogTail.Read(file, TailLines) : "";
        if (tail.Length == 0)
        {
            tail = (await engine.GetLogsAsync(containerId, TailLines, ct)).TrimEnd();
        }
        return tail.Length > 0 ? tail : "(its log is empty)";
    }

    /// <summary>Copies every log into RESULTS/logs/NODE.log (before teardown removes the run folder).</summary>
    public void Keep(string resultsDirectory)
    {
        var logs = Path.Combine(resultsDirectory, "logs");
        Directory.CreateDirectory(logs);
        foreach (var name in topology.Nodes.Select(n => n.Name).Append(TopologySpec.BitcoindName))
        {
            var source = FileOf(name);
            if (File.Exists(source))
            {
                File.Copy(source, Path.Combine(logs, $"{name}.log"), overwrite: true);
            }
        }
    }

    private string FileOf(string node) =>
        node == TopologySpec.BitcoindName
            ? Path.Combine(layout.NodeDirectory(node), "regtest", "debug.log")
            : kinds.Get(topology.Node(node).Kind).LogFile(layout.NodeDirectory(node));
}
