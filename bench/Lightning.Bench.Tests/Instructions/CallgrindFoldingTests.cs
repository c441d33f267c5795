using Lightning.Bench.Instructions;
using Lightning.Bench.Profiling;

namespace Lightning.Bench.Tests.Instructions;

[Trait("Category", "Unit")]
public class CallgrindFoldingTests
{
    private static long EndingWith(FoldedStacks stacks, string suffix) =>
        Assert.Single(stacks.Counts, s => s.Key.EndsWith(suffix, StringComparison.Ordinal)).Value;

    [Fact]
    public void The_known_program_folds_into_its_exact_stacks_and_total()
    {
        var dump = CallgrindDumpTests.Load("callgrind-known-calls.txt");

        var stacks = CallgrindFolding.ToFolded(dump, floorShare: 0);

        Assert.Equal(180_749, stacks.Total);
        Assert.All(stacks.Counts.Keys, s => Assert.StartsWith("known-calls;", s, StringComparison.Ordinal));
        // Every function from the loader's entry down to c has one caller, so the split is exact.
        Assert.Equal(18_009, EndingWith(stacks, ";main;a"));
        Assert.Equal(1_806, EndingWith(stacks, ";main;a;c"));
        Assert.Equal(30_004, EndingWith(stacks, ";main;b"));
        Assert.Equal(1_204, EndingWith(stacks, ";main;b;c"));
        Assert.StartsWith(
            "known-calls;0x000000000001ab70;",
            Assert.Single(stacks.Counts.Keys, s => s.EndsWith(";main;a", StringComparison.Ordinal)),
            StringComparison.Ordinal
        );
    }

    [Fact]
    public void Each_real_process_keeps_its_dump_total_with_small_stacks_merged()
    {
        var channeld = CallgrindDumpTests.Load("callgrind-channeld-version.txt");
        var lightningd = CallgrindDumpTests.Load("callgrind-lightningd-dump.txt");

        var stacks = CallgrindFolding.ToFolded([channeld, lightningd, lightningd], floorShare: 1e-3);

        var processes = FunctionTable.Processes(stacks).ToDictionary(p => p.Process, p => p.Samples);
        Assert.Equal(355_199, processes["lightning_channeld"]);
        Assert.Equal(2 * 12_091, processes["lightningd"]);
        Assert.True(stacks.Counts.ContainsKey("lightning_channeld;" + FoldedStacks.OtherStacksFrame));
        // No stack below its dump's floor (0.1 % of 355,199 and of 12,091), so at most about 1/floor lines per dump.
        var placed = stacks
            .Counts.Where(s => !s.Key.EndsWith(FoldedStacks.OtherStacksFrame, StringComparison.Ordinal))
            .ToList();
        Assert.All(
            placed,
            s => Assert.True(s.Value >= (s.Key.StartsWith("lightningd;", StringComparison.Ordinal) ? 13 : 356), s.Key)
        );
        Assert.True(stacks.Counts.Count < 1_000);
        // The dump's calls still running (calls=0) lead from the loader's entry to what lightningd was doing; logv and
        // the recursive strftime have one caller each, so their stacks hold their self counts (954 and 1,763) exactly.
        Assert.Equal(
            2 * 954,
            Assert
                .Single(stacks.Counts, s => s.Key.EndsWith(";main;test_subdaemons;log_;logv", StringComparison.Ordinal))
                .Value
        );
        Assert.Equal(
            2 * 1_763,
            Assert
                .Single(
                    stacks.Counts,
                    s =>
                        s.Key.EndsWith(
                            ";log_to_files;strftime;strftime_l;__strftime_internal;__strftime_internal'2",
                            StringComparison.Ordinal
                        )
                )
                .Value
        );
        Assert.StartsWith(
            "lightningd;0x000000000001ab70;(below main) [lightningd];",
            Assert.Single(stacks.Counts.Keys, s => s.EndsWith(";logv", StringComparison.Ordinal)),
            StringComparison.Ordinal
        );
        var svg = FlameGraphSvg.Render(stacks, "Instructions", "callgrind");
        Assert.Contains("logv", svg, StringComparison.Ordinal);
    }

    [Fact]
    public void Instruction_stacks_of_two_builds_draw_a_differential_flame_graph()
    {
        var baseline = CallgrindFolding.ToFolded(CallgrindDumpTests.Load("callgrind-known-calls.txt"));
        var candidate = CallgrindFolding.ToFolded(
            SyntheticDumps.Dump("/tmp/known-calls", [("main", 10), ("a", 50_000)], [("main", "a", 3, 50_000)])
        );

        var svg = DifferentialFlameGraph.Render(
            baseline,
            1,
            FoldedStacks.Merge([baseline, candidate]),
            1,
            samplesPerSecond: 1,
            "Instructions",
            "callgrind"
        );

        var tooltips = System
            .Xml.Linq.XDocument.Parse(svg)
            .Descendants(System.Xml.Linq.XName.Get("title", "http://www.w3.org/2000/svg"))
            .Select(t => t.Value)
            .ToList();
        // The renderer labels counts as CPU milliseconds at samplesPerSecond; here 1 "sample" is one instruction.
        Assert.Contains(
            tooltips,
            t => t.StartsWith("known-calls: baseline 180749000 ms → candidate 230759000 ms", StringComparison.Ordinal)
        );
        Assert.Contains(
            tooltips,
            t => t.StartsWith("a: baseline 0.000 ms → candidate 50000000 ms", StringComparison.Ordinal)
        );
    }

    [Fact]
    public void Recursion_ends_a_path_and_depth_is_bounded_without_losing_instructions()
    {
        var recursive = SyntheticDumps.Dump("/bin/p", [("f", 10), ("g", 5)], [("f", "g", 1, 20), ("g", "f", 1, 15)]);
        var chain = SyntheticDumps.Dump(
            "/bin/deep",
            Enumerable.Range(0, 100).Select(i => ($"f{i:D3}", 10L)),
            Enumerable.Range(0, 99).Select(i => ($"f{i:D3}", $"f{i + 1:D3}", 1L, 10L * (99 - i)))
        );

        var looped = CallgrindFolding.ToFolded(recursive, floorShare: 0);
        var deep = CallgrindFolding.ToFolded(chain, floorShare: 0);

        Assert.Equal(recursive.TotalIr, looped.Total);
        Assert.Equal(1_000, deep.Total);
        Assert.Equal(1 + CallgrindFolding.MaxDepth, deep.Counts.Keys.Max(s => FoldedStacks.Frames(s).Length));
        Assert.Equal(
            1_000 - 10 * (CallgrindFolding.MaxDepth - 1),
            deep.Counts.Single(s => FoldedStacks.Frames(s.Key).Length == 1 + CallgrindFolding.MaxDepth).Value
        );
    }
}
