using System.Xml.Linq;
using Lightning.Bench.Profiling;

namespace Lightning.Bench.Tests;

/// <summary>
/// perf script output folded into stacks, and what is made of them: function tables, per-payment differences, flame
/// graphs. The real capture is of Core Lightning nodes paying each other.
/// </summary>
[Trait("Category", "Unit")]
public class ProfileFoldingTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";

    private static string CapturePath => Path.Combine(AppContext.BaseDirectory, "Profiles", "perf-script-cln.txt");

    private static FoldedStacks FoldCapture()
    {
        using var reader = File.OpenText(CapturePath);
        return PerfScriptFolder.Fold(reader);
    }

    private static FoldedStacks Profile(params (string Stack, long Count)[] stacks) =>
        new(stacks.ToDictionary(s => s.Stack, s => s.Count));

    private static IEnumerable<string[]> FramesOf(FoldedStacks stacks) =>
        stacks.Counts.Keys.Select(FoldedStacks.Frames);

    [Fact]
    public void The_captured_perf_script_folds_one_count_per_sample_under_untruncated_process_names()
    {
        var headers = File.ReadLines(CapturePath).Count(line => line.Length > 0 && !char.IsWhiteSpace(line[0]));

        var folded = FoldCapture();

        Assert.Equal(79, headers);
        Assert.Equal(headers, folded.Total);
        var processes = FunctionTable.Processes(folded).Select(p => p.Process).ToList();
        Assert.Contains("lightningd", processes);
        Assert.Contains("lightning_channeld", processes);
        Assert.Contains("lightning_connectd", processes);
        Assert.Contains("lightning_hsmd", processes);
        Assert.Contains("cln-askrene", processes);
        Assert.DoesNotContain("lightning_chann", processes);
        Assert.DoesNotContain("lightning_conne", processes);
        Assert.Equal(headers, FunctionTable.Processes(folded).Sum(p => p.Samples));
    }

    [Fact]
    public void The_captured_stacks_run_from_process_to_leaf_with_named_kernel_and_unknown_frames()
    {
        var folded = FoldCapture();
        var stacks = FramesOf(folded).ToList();
        var frames = stacks.SelectMany(f => f.Skip(1)).ToHashSet();

        Assert.Contains("io_loop", frames);
        Assert.Contains("main", frames);
        Assert.Contains("plugin_main", frames);
        Assert.Contains("[libsqlite3.so.0.8.6]", frames);
        Assert.Contains("pvm_irq_enable_[k]", frames);
        Assert.Contains("anon_pipe_write_[k]", frames);
        Assert.DoesNotContain("[unknown]", frames);
        Assert.DoesNotContain("pvm_irq_enable", frames);
        Assert.DoesNotContain(
            stacks,
            f => f.Zip(f.Skip(1)).Any(pair => pair.First == "[libsqlite3.so.0.8.6]" && pair.Second == pair.First)
        );

        var lightningd = stacks
            .Where(f => f[0] == "lightningd" && f.Contains("main") && f.Contains("io_loop"))
            .ToList();
        Assert.NotEmpty(lightningd);
        Assert.All(
            lightningd,
            f => Assert.True(Array.IndexOf(f, "main") < Array.IndexOf(f, "io_loop"), string.Join(';', f))
        );
        var started = stacks.Where(f => f.Contains("_start")).ToList();
        Assert.NotEmpty(started);
        Assert.All(started, f => Assert.Equal("_start", f[1]));
        // The kernel frames of a user-space sample are its innermost ones: the sample was taken in a system call.
        Assert.Contains(
            stacks,
            f =>
                f[0] == "lightningd"
                && f[1] == "_start"
                && f[^1] == "pvm_irq_enable_[k]"
                && f.Contains("anon_pipe_write_[k]")
        );
    }

    [Fact]
    public void Folding_handles_spaces_in_comm_offsets_cpp_symbols_runs_of_unknowns_and_samples_without_frames()
    {
        const string script = """
            Web Content 123/124   10101010
            	           1a2b foo+0x1f (/usr/lib/libxul.so)
            	           1a2c std::function<void ()>::operator()() const (/usr/lib/libxul.so)
            	           1a2d [unknown] (/usr/lib/libxul.so)
            	           1a2e [unknown] (/usr/lib/libxul.so)
            	           1a2f a;b (/usr/bin/firefox (deleted))
            	ffffffff8100 [unknown] ([kernel.kallsyms])

            lightning_chann  5/5  10101010
            lightning_chann  6/6  10101010
            	           99 poll (/usr/lib/x86_64-linux-gnu/libc.so.6)
            	           98 daemon_poll (/usr/local/libexec/c-lightning/lightning_channeld)
            	           97 clone3 (/usr/lib/x86_64-linux-gnu/libc.so.6)

            lightning_other  7/7  10101010
            	           99 poll (/usr/lib/x86_64-linux-gnu/libc.so.6)

            :4242  4242/4242  10101010
            	           99 _Fork (/usr/lib/x86_64-linux-gnu/libc.so.6)
            """;

        var folded = PerfScriptFolder.Fold(new StringReader(script));

        Assert.Equal(5, folded.Total);
        Assert.Equal(1, folded.Counts[PerfScriptFolder.UnnamedProcess + ";_Fork"]);
        Assert.Equal(
            1,
            folded.Counts[
                "Web Content;[kernel.kallsyms]_[k];a:b;[libxul.so];std::function<void ()>::operator()() const;foo"
            ]
        );
        Assert.Equal(1, folded.Counts["lightning_chann;" + PerfScriptFolder.NoStackFrame]);
        Assert.Equal(1, folded.Counts["lightning_channeld;clone3;daemon_poll;poll"]);
        Assert.Equal(1, folded.Counts["lightning_other;poll"]);
    }

    [Fact]
    public void A_frame_before_any_sample_header_is_rejected_with_its_line()
    {
        var error = Assert.Throws<InvalidDataException>(() =>
            PerfScriptFolder.Fold(new StringReader("\n\t 1a2b foo (/bin/x)\n"))
        );
        Assert.Contains("Line 2", error.Message);
    }

    [Fact]
    public void Folded_stacks_survive_a_write_and_parse_sorted_by_stack()
    {
        var profile = Profile(("p;main;zeta", 3), ("p;main;alpha beta(int)", 5), ("q;run", 1));
        var text = new StringWriter();

        profile.Write(text);
        var parsed = FoldedStacks.Parse(new StringReader(text.ToString()));

        Assert.Equal("p;main;alpha beta(int) 5\np;main;zeta 3\nq;run 1\n", text.ToString());
        Assert.Equal(
            profile.Counts.OrderBy(c => c.Key, StringComparer.Ordinal),
            parsed.Counts.OrderBy(c => c.Key, StringComparer.Ordinal)
        );
        Assert.Equal(9, parsed.Total);

        var path = Path.Combine(Path.GetTempPath(), $"folded-{Guid.NewGuid():N}.txt");
        try
        {
            profile.WriteFile(path);
            Assert.Equal(
                profile.Counts.OrderBy(c => c.Key, StringComparer.Ordinal),
                FoldedStacks.Read(path).Counts.OrderBy(c => c.Key, StringComparer.Ordinal)
            );
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void Parsing_skips_blank_lines_sums_repeated_stacks_and_names_the_line_of_a_malformed_one()
    {
        var parsed = FoldedStacks.Parse(new StringReader("p;a 2\n\np;a 3\r\n"));
        Assert.Equal(5, parsed.Counts["p;a"]);

        var noCount = Assert.Throws<InvalidDataException>(() => FoldedStacks.Parse(new StringReader("p;a 2\n\np;b\n")));
        Assert.Contains("Line 3", noCount.Message);
        var badCount = Assert.Throws<InvalidDataException>(() =>
            FoldedStacks.Parse(new StringReader("p;a 2\np;b x1\n"))
        );
        Assert.Contains("Line 2", badCount.Message);
        var emptyFrame = Assert.Throws<InvalidDataException>(() => FoldedStacks.Parse(new StringReader("p;;a 2\n")));
        Assert.Contains("Line 1", emptyFrame.Message);
    }

    [Fact]
    public void Merge_sums_profiles_stack_by_stack()
    {
        var merged = FoldedStacks.Merge([
            Profile(("p;a", 2), ("p;b", 1)),
            Profile(("p;a", 3), ("q;c", 4)),
            FoldedStacks.Empty,
        ]);

        Assert.Equal(5, merged.Counts["p;a"]);
        Assert.Equal(1, merged.Counts["p;b"]);
        Assert.Equal(4, merged.Counts["q;c"]);
        Assert.Equal(10, merged.Total);
    }

    [Fact]
    public void Bounded_merges_the_rarest_stacks_per_process_keeping_each_process_total()
    {
        var profile = Profile(
            ("p1;a", 50),
            ("p2;x", 40),
            ("p1;b", 30),
            ("p1;c", 5),
            ("p1;d", 3),
            ("p2;y", 2),
            ("p3;z", 1)
        );

        var bounded = profile.Bounded(5);

        Assert.Equal(5, bounded.Counts.Count);
        Assert.Equal(50, bounded.Counts["p1;a"]);
        Assert.Equal(40, bounded.Counts["p2;x"]);
        Assert.Equal(38, bounded.Counts["p1;" + FoldedStacks.OtherStacksFrame]);
        // A process with one stack left over keeps it: it takes a line either way.
        Assert.Equal(2, bounded.Counts["p2;y"]);
        Assert.Equal(1, bounded.Counts["p3;z"]);
        Assert.Equal(3, bounded.MergedStacks);
        Assert.Equal(38, bounded.MergedSamples);
        Assert.Equal(FunctionTable.Processes(profile), FunctionTable.Processes(bounded));
        Assert.Equal(profile.Total, bounded.Total);

        Assert.Same(profile, profile.Bounded(7));
        Assert.Equal(0, profile.MergedStacks);
        var tight = profile.Bounded(3);
        Assert.Equal(3, tight.Counts.Count);
        Assert.Equal(FunctionTable.Processes(profile), FunctionTable.Processes(tight));
    }

    [Fact]
    public void Function_table_counts_self_at_the_leaf_and_a_recursive_function_once_in_total()
    {
        var profile = Profile(("p;main;f;f;g", 2), ("p;main;f", 3), ("p;main;h", 5), ("q;main", 10));

        var top = FunctionTable.Top(profile, 10);

        Assert.Equal(["main", "h", "f", "g"], top.Select(f => f.Function));
        Assert.Equal(new FunctionShare("main", 10, 20, 0.5, 1.0), top[0]);
        Assert.Equal(new FunctionShare("h", 5, 5, 0.25, 0.25), top[1]);
        Assert.Equal(new FunctionShare("f", 3, 5, 0.15, 0.25), top[2]);
        Assert.Equal(new FunctionShare("g", 2, 2, 0.1, 0.1), top[3]);
        Assert.Equal(2, FunctionTable.Top(profile, 2).Count);
        Assert.Equal([("p", 10L, 0.5), ("q", 10L, 0.5)], FunctionTable.Processes(profile));
    }

    [Fact]
    public void Function_table_markdown_gives_shares_and_milliseconds_per_payment()
    {
        var profile = Profile(("p;main;f;f;g", 2), ("p;main;f", 3), ("p;main;h", 5), ("q;main", 10));

        // 100 samples a second: one sample is 10 ms; over 10 payments, 1 ms per payment.
        var markdown = FunctionTable.Markdown("Alice pays Bob", profile, 100, 10, 3);
        var withoutPayments = FunctionTable.Markdown("Alice pays Bob", profile, 100, 0, 3);

        Assert.StartsWith("## Alice pays Bob\n", markdown);
        Assert.Contains("p 50.0 % (10.0 ms/payment), q 50.0 % (10.0 ms/payment)", markdown);
        Assert.Contains("| Function | Self % | Total % | Self ms/payment | Total ms/payment |", markdown);
        Assert.Contains("| `main` | 50.0 | 100.0 | 10.0 | 20.0 |", markdown);
        Assert.Contains("| `f` | 15.0 | 25.0 | 3.00 | 5.00 |", markdown);
        Assert.DoesNotContain("`g`", markdown);
        Assert.Contains("| `main` | 50.0 | 100.0 | – | – |", withoutPayments);
    }

    [Fact]
    public void Profile_diff_compares_per_payment_and_orders_by_the_size_of_the_self_change()
    {
        // Baseline: 1000 samples over 100 payments; candidate: 3000 over 200 payments, "work" doubled per payment.
        var baseline = Profile(("p;main;work", 400), ("p;main;idle", 500), ("p;main;gone", 100));
        var candidate = Profile(("p;main;work", 1600), ("p;main;idle", 1000), ("p;main;fresh", 400));

        var changes = ProfileDiff.Changes(baseline, 100, candidate, 200, 10);

        Assert.Equal(["work", "fresh", "gone", "idle", "main"], changes.Select(c => c.Function));
        var work = changes[0];
        Assert.Equal(4, work.BaselineSelfPerPayment, 9);
        Assert.Equal(8, work.CandidateSelfPerPayment, 9);
        Assert.Equal(4, work.SelfChange, 9);
        Assert.Equal(1, work.RelativeSelfChange, 9);
        Assert.Equal(0.4, work.BaselineSelfShare, 9);
        Assert.Equal(1600.0 / 3000, work.CandidateSelfShare, 9);
        Assert.Equal(new FunctionChange("fresh", 0, 2, 0, 2, 0, 400.0 / 3000), changes[1]);
        Assert.Equal(new FunctionChange("gone", 1, 0, 1, 0, 0.1, 0), changes[2]);
        Assert.Equal(0, changes[3].SelfChange, 9);
        Assert.Equal(10, changes[4].BaselineTotalPerPayment, 9);
        Assert.Equal(15, changes[4].CandidateTotalPerPayment, 9);
        Assert.Equal(3, ProfileDiff.Changes(baseline, 100, candidate, 200, 3).Count);
    }

    private sealed record DrawnFrame(string Title, double X, double Width, string Fill, string? Label);

    private static (XDocument Svg, List<DrawnFrame> Frames) Drawn(string svg)
    {
        var document = XDocument.Parse(svg);
        var frames = document
            .Descendants(Svg + "g")
            .Where(g => g.Element(Svg + "title") is not null)
            .Select(g =>
            {
                var rect = g.Element(Svg + "rect")!;
                return new DrawnFrame(
                    g.Element(Svg + "title")!.Value,
                    double.Parse((string)rect.Attribute("x")!, System.Globalization.CultureInfo.InvariantCulture),
                    double.Parse((string)rect.Attribute("width")!, System.Globalization.CultureInfo.InvariantCulture),
                    (string)rect.Attribute("fill")!,
                    g.Element(Svg + "text")?.Value
                );
            })
            .ToList();
        return (document, frames);
    }

    private static DrawnFrame Frame(List<DrawnFrame> frames, string name) =>
        Assert.Single(
            frames,
            f =>
                f.Title.StartsWith(name + " (", StringComparison.Ordinal)
                || f.Title.StartsWith(name + ":", StringComparison.Ordinal)
        );

    private static (int R, int G, int B) Rgb(string fill)
    {
        var channels = fill["rgb(".Length..^1].Split(',').Select(int.Parse).ToArray();
        return (channels[0], channels[1], channels[2]);
    }

    private static string Subtitles(XDocument svg) =>
        string.Join('\n', svg.Root!.Elements(Svg + "text").Skip(1).Select(t => t.Value));

    [Fact]
    public void A_flame_graph_draws_each_frame_with_its_samples_and_a_width_in_proportion()
    {
        var longName = new string('b', 60);
        var profile = Profile(("p;a", 75), ($"p;{longName}", 25));

        var svg = FlameGraphSvg.Render(profile, "CPU of p", "99 Hz");
        var (document, frames) = Drawn(svg);

        Assert.Equal("svg", document.Root!.Name.LocalName);
        Assert.Equal("1200", (string?)document.Root.Attribute("width"));
        Assert.NotNull(document.Root.Attribute("height"));
        Assert.StartsWith("0 0 1200 ", (string?)document.Root.Attribute("viewBox"));
        Assert.Equal("CPU of p", document.Root.Elements(Svg + "text").First().Value);
        Assert.Equal(
            [
                "all (100 samples, 100.00 %)",
                "p (100 samples, 100.00 %)",
                "a (75 samples, 75.00 %)",
                $"{longName} (25 samples, 25.00 %)",
            ],
            frames.Select(f => f.Title)
        );
        var all = Frame(frames, "all");
        var a = Frame(frames, "a");
        var b = Frame(frames, longName);
        Assert.Equal(1180, all.Width, 0.1);
        Assert.Equal(3, a.Width / b.Width, 0.01);
        Assert.Equal(a.X + a.Width, b.X, 0.2);
        Assert.Equal("a", a.Label);
        Assert.EndsWith("..", b.Label);
        Assert.StartsWith("bbbb", b.Label);
        Assert.DoesNotContain("frames narrower", Subtitles(document));
    }

    [Fact]
    public void A_flame_graph_escapes_names_and_counts_frames_too_narrow_to_draw()
    {
        var profile = Profile(("p;operator<;x&y", 1_000_000), ("p;tiny", 1), ("p;tiny;deeper", 1));

        var svg = FlameGraphSvg.Render(profile, "a < b & c", "sub");
        var (document, frames) = Drawn(svg);

        Assert.Contains("operator&lt;", svg);
        Assert.Contains("x&amp;y", svg);
        Assert.Single(frames, f => f.Title.StartsWith("operator< (1000000 samples", StringComparison.Ordinal));
        Assert.Single(frames, f => f.Title.StartsWith("x&y (", StringComparison.Ordinal));
        Assert.DoesNotContain(frames, f => f.Title.StartsWith("tiny", StringComparison.Ordinal));
        Assert.Equal("a < b & c", document.Root!.Elements(Svg + "text").First().Value);
        Assert.Contains("sub · 2 frames narrower than 0.1 px not drawn", Subtitles(document));
    }

    [Fact]
    public void A_flame_graph_colours_kernel_frames_orange_unknown_ones_grey()
    {
        var (_, frames) = Drawn(
            FlameGraphSvg.Render(
                Profile(("p;main;[libsqlite3.so.0.8.6]", 5), ("p;main;write;ksys_write_[k]", 5)),
                "t",
                ""
            )
        );

        var (r, g, b) = Rgb(Frame(frames, "ksys_write_[k]").Fill);
        Assert.True(r > g && g > b && b == 0, $"kernel frame rgb({r},{g},{b})");
        var grey = Rgb(Frame(frames, "[libsqlite3.so.0.8.6]").Fill);
        Assert.True(grey.R == grey.G && grey.G == grey.B, $"unknown frame {grey}");
        Assert.NotEqual(Frame(frames, "main").Fill, Frame(frames, "p").Fill);
    }

    [Fact]
    public void The_captured_profile_renders_as_a_flame_graph()
    {
        var svg = FlameGraphSvg.Render(FoldCapture(), "Core Lightning", "perf, 99 Hz");
        var (_, frames) = Drawn(svg);

        Assert.Contains(frames, f => f.Title.StartsWith("io_loop (", StringComparison.Ordinal));
        Assert.Contains(frames, f => f.Title.StartsWith("lightning_channeld (", StringComparison.Ordinal));
        Assert.Equal("all (79 samples, 100.00 %)", frames[0].Title);
    }

    [Fact]
    public void A_differential_flame_graph_colours_frames_by_their_self_change_per_payment()
    {
        // Per payment: grow 1 → 3 samples, shrink 3 → 1, same 2 → 2; both builds cost 6 samples per payment.
        var baseline = Profile(("p;main;grow", 10), ("p;main;shrink", 30), ("p;main;same", 20));
        var candidate = Profile(("p;main;grow", 60), ("p;main;shrink", 20), ("p;main;same", 40));

        var svg = DifferentialFlameGraph.Render(baseline, 10, candidate, 20, 100, "main vs branch", "per payment");
        var (document, frames) = Drawn(svg);

        var grow = Rgb(Frame(frames, "grow").Fill);
        var shrink = Rgb(Frame(frames, "shrink").Fill);
        var same = Rgb(Frame(frames, "same").Fill);
        Assert.True(grow.R > grow.B, $"grow {grow}");
        Assert.True(shrink.B > shrink.R, $"shrink {shrink}");
        Assert.True(same.R >= 250 && same.G >= 250 && same.B >= 250, $"same {same}");
        Assert.Equal(1180, Frame(frames, "all").Width, 0.1);
        // One sample per second is 10 ms at 100 Hz.
        Assert.Equal(
            "grow: baseline 10.0 ms → candidate 30.0 ms per payment total (self Δ +20.0 ms, +200.0 %)",
            Frame(frames, "grow").Title
        );
        Assert.Equal(
            "shrink: baseline 30.0 ms → candidate 10.0 ms per payment total (self Δ -20.0 ms, -66.7 %)",
            Frame(frames, "shrink").Title
        );
        Assert.Contains("per payment", Subtitles(document));
        Assert.DoesNotContain("absent from the candidate", Subtitles(document));
    }

    [Fact]
    public void A_cheaper_candidate_draws_narrower_and_the_baseline_only_share_is_reported()
    {
        // Baseline 4 samples per payment, half of them in stacks the candidate no longer has; candidate 2.
        var baseline = Profile(("p;main;work", 20), ("p;old;gone", 20));
        var candidate = Profile(("p;main;work", 20));

        var svg = DifferentialFlameGraph.Render(baseline, 10, candidate, 10, 99, "main vs branch", "");
        var (document, frames) = Drawn(svg);

        Assert.Equal(590, Frame(frames, "all").Width, 0.1);
        Assert.Equal(Frame(frames, "all").Width, Frame(frames, "work").Width, 0.1);
        Assert.Contains(
            "50.0 % of the baseline's samples per payment are on stacks the candidate has no sample of",
            Subtitles(document)
        );
        Assert.DoesNotContain(frames, f => f.Title.StartsWith("gone", StringComparison.Ordinal));
        var work = Rgb(Frame(frames, "work").Fill);
        Assert.True(work.R >= 250 && work.G >= 250 && work.B >= 250, $"work {work}");
    }
}
