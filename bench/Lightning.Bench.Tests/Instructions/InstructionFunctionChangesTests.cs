using Lightning.Bench.Instructions;

namespace Lightning.Bench.Tests.Instructions;

[Trait("Category", "Unit")]
public class InstructionFunctionChangesTests
{
    private const int Payments = 30;
    private const long AddedPerPayment = 41_200;

    /// <summary>
    /// One topology's per-payment profile of a node: lightningd with 20 functions of about a million instructions per
    /// payment each and hsmd with one, each varying by <paramref name="noise"/> (a share) from topology to topology,
    /// plus json_invoice at <paramref name="invoiceSelf"/> per payment, called by json_dispatch.
    /// </summary>
    private static InstructionProfile Topology(Random random, double noise, long invoiceSelf)
    {
        long Noisy(long level) => (long)Math.Round(level * (1 + noise * (2 * random.NextDouble() - 1)));
        var functions = Enumerable
            .Range(0, 20)
            .Select(i => ($"fn{i:D2}", Noisy(1_000_000 + 10_000 * i) * Payments))
            .ToList();
        var invoice = (Noisy(1_234) + invoiceSelf) * Payments;
        functions.Add(("json_invoice", invoice));
        functions.Add(("json_dispatch", 500 * Payments));
        var lightningd = SyntheticDumps.Dump(
            "/usr/local/bin/lightningd --network=regtest",
            functions,
            [("json_dispatch", "json_invoice", Payments, invoice)]
        );
        var hsmd = SyntheticDumps.Dump(
            "/usr/local/libexec/c-lightning/lightning_hsmd",
            [("sign", Noisy(15_000_000) * Payments)]
        );
        return InstructionProfile.FromDumps([lightningd, hsmd]).PerPayment(Payments);
    }

    private static (List<InstructionProfile> Baseline, List<InstructionProfile> Candidate) Pairs(
        int seed,
        int pairs,
        double noise,
        long added
    )
    {
        var random = new Random(seed);
        var baseline = new List<InstructionProfile>();
        var candidate = new List<InstructionProfile>();
        for (var i = 0; i < pairs; i++)
        {
            baseline.Add(Topology(random, noise, 0));
            candidate.Add(Topology(random, noise, added));
        }
        return (baseline, candidate);
    }

    [Fact]
    public void A_function_only_the_candidate_has_is_named_by_its_inclusive_change_though_its_own_code_is_small()
    {
        static InstructionProfile Node(bool patched)
        {
            // The candidate's json_invoice calls a new fixed_work, which spends its instructions in sha256's Transform.
            List<(string, long)> functions =
            [
                ("json_invoice", 1_000 * Payments),
                ("Transform", (patched ? 1_900_000 : 10_000) * Payments),
                ("main", 30_000_000L * Payments),
            ];
            List<(string, string, long, long)> calls = [("json_invoice", "Transform", Payments, 10_000 * Payments)];
            if (patched)
            {
                functions.Add(("fixed_work", 26 * Payments));
                calls =
                [
                    ("json_invoice", "fixed_work", Payments, 1_890_026L * Payments),
                    ("fixed_work", "Transform", Payments, 1_890_000L * Payments),
                    ("json_invoice", "Transform", Payments, 10_000 * Payments),
                ];
            }
            return InstructionProfile
                .FromDumps([SyntheticDumps.Dump("/usr/local/bin/lightningd", functions, calls)])
                .PerPayment(Payments);
        }

        var changes = InstructionFunctionChanges.Compare(
            [Node(false), Node(false)],
            [Node(true), Node(true)],
            thresholdPercent: 0.5
        );
        var markdown = changes.Markdown("bob");

        Assert.Equal("Transform (lightningd)", changes.Changes[0].Label);
        Assert.Contains(
            "Functions only one build has, by inclusive change: `fixed_work (lightningd)` +1,890,026",
            markdown
        );
        Assert.Contains("(candidate only), called from `json_invoice (lightningd)`", markdown);
    }

    [Fact]
    public void A_function_given_a_fixed_amount_of_work_is_called_grew_with_an_interval_covering_it()
    {
        var (baseline, candidate) = Pairs(seed: 7, pairs: 5, noise: 0.001, AddedPerPayment);

        var changes = InstructionFunctionChanges.Compare(baseline, candidate, thresholdPercent: 0.5);

        var top = changes.Changes[0];
        Assert.Equal("json_invoice (lightningd)", top.Label);
        Assert.Equal(FunctionCall.Grew, top.Call);
        Assert.InRange(AddedPerPayment, top.SelfLow, top.SelfHigh);
        Assert.True(top.SelfHigh - top.SelfLow < 20, $"{top.SelfLow} … {top.SelfHigh}");
        Assert.InRange(AddedPerPayment, top.InclusiveLow, top.InclusiveHigh);
        Assert.Equal("json_dispatch (lightningd)", Assert.Single(top.TopCallers).Caller);
        Assert.InRange(Assert.Single(top.TopCallers).Change, AddedPerPayment - 50, AddedPerPayment + 50);
        Assert.Single(changes.Changes, c => c.Call != FunctionCall.None);
        // 0.1 % of the node's 37 M instructions per payment: the 20 large functions, hsmd's sign, and json_invoice in
        // the candidate (42,434) reach it; json_invoice's baseline level and json_dispatch do not.
        Assert.Equal(0.001 * baseline.Average(p => p.Total), changes.MinimumChange, 6);
        Assert.Equal(22, changes.Judged);
        var markdown = changes.Markdown("alice: instructions per payment by function", count: 5);
        var row = Assert.Single(markdown.Split('\n'), l => l.Contains("json_invoice", StringComparison.Ordinal));
        Assert.Matches(
            @"^\| `json_invoice \(lightningd\)` \| 1,2\d\d \| 42,4\d\d \| \+41,\d{3} \(\+41,\d{3} … \+41,\d{3}\) \| \+41,\d{3} \(\+41,\d{3} … \+41,\d{3}\) \| `json_dispatch \(lightningd\)` \(\+41,\d{3}\) \| grew \|$",
            row
        );
        Assert.Equal(5, markdown.Split('\n').Count(l => l.StartsWith("| `", StringComparison.Ordinal)));
    }

    [Fact]
    public void Noise_between_topologies_of_one_build_is_not_called()
    {
        // 2 % noise per function: single differences larger than the minimum change occur, intervals catch them.
        var (baseline, candidate) = Pairs(seed: 11, pairs: 5, noise: 0.02, added: 0);

        var changes = InstructionFunctionChanges.Compare(baseline, candidate, thresholdPercent: 0.5);

        Assert.Contains(changes.Changes, c => Math.Abs(c.SelfChange) >= changes.MinimumChange);
        Assert.All(changes.Changes, c => Assert.Equal(FunctionCall.None, c.Call));
        Assert.DoesNotContain("| grew |", changes.Markdown("A/A"), StringComparison.Ordinal);
        Assert.DoesNotContain("| shrank |", changes.Markdown("A/A"), StringComparison.Ordinal);
    }

    [Fact]
    public void The_same_real_dumps_in_both_arms_make_no_call()
    {
        var profile = InstructionProfile
            .FromDumps([
                CallgrindDumpTests.Load("callgrind-channeld-version.txt"),
                CallgrindDumpTests.Load("callgrind-lightningd-dump.txt"),
            ])
            .PerPayment(30);

        var changes = InstructionFunctionChanges.Compare(
            [profile, profile, profile],
            [profile, profile, profile],
            thresholdPercent: 0.5
        );

        Assert.All(changes.Changes, c => Assert.Equal(FunctionCall.None, c.Call));
        Assert.All(changes.Changes, c => Assert.Equal(0, c.SelfChange));
        var markdown = changes.Markdown("bob", count: 10);
        Assert.Equal(10, markdown.Split('\n').Count(l => l.StartsWith("| `", StringComparison.Ordinal)));
        Assert.DoesNotContain("| grew |", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("| shrank |", markdown, StringComparison.Ordinal);
        Assert.All(
            markdown.Split('\n').Where(l => l.StartsWith("| `", StringComparison.Ordinal)),
            l =>
            {
                Assert.Contains(" | 0 (0 … 0) | 0 (0 … 0) | ", l, StringComparison.Ordinal);
                Assert.EndsWith(" | – |", l, StringComparison.Ordinal);
            }
        );
        // libc's strlen and ld.so's in one process are named with their objects.
        Assert.Contains(changes.Changes, c => c.Label == "strlen [libc.so.6] (lightning_channeld)");
    }

    [Fact]
    public void One_pair_gives_no_interval_and_no_call_and_says_so()
    {
        var (baseline, candidate) = Pairs(seed: 3, pairs: 1, noise: 0.001, AddedPerPayment);

        var changes = InstructionFunctionChanges.Compare(baseline, candidate, thresholdPercent: 0.5);

        Assert.Equal("json_invoice (lightningd)", changes.Changes[0].Label);
        Assert.True(double.IsNaN(changes.Changes[0].SelfLow));
        Assert.All(changes.Changes, c => Assert.Equal(FunctionCall.None, c.Call));
        var markdown = changes.Markdown("alice");
        Assert.Contains("One topology pair: no interval and no call", markdown, StringComparison.Ordinal);
        Assert.Contains(" | +41,", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("…", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void Arms_of_different_sizes_are_refused()
    {
        var (baseline, candidate) = Pairs(seed: 1, pairs: 2, noise: 0, 0);

        Assert.Throws<ArgumentException>(() =>
            InstructionFunctionChanges.Compare(baseline, candidate.Take(1).ToList(), 0.5)
        );
        Assert.Throws<ArgumentOutOfRangeException>(() => InstructionFunctionChanges.Compare(baseline, candidate, 0));
    }
}
