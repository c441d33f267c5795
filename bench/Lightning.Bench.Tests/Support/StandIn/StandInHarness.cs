using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;

namespace Lightning.Bench.Tests.Support.StandIn;

/// <summary>
/// The harness with the stand-in kind registered, as a process of its own: the test assembly's entry point
/// (`dotnet Lightning.Bench.Tests.dll FRAGMENTS ARGS…`; the test SDK's empty one is turned off), for tests that send
/// it signals or close its terminal, which an in-process run cannot take. The test runner never calls it.
/// </summary>
internal static class StandInHarness
{
    public static int Main(string[] args) =>
        args.Length == 0 ? 2 : Program.Run(args[1..], NodeKindCatalog.Default.With(new StandInKind()), args[0]);

    /// <summary>A fragments folder under <paramref name="directory"/> with bitcoind's and the stand-in kind's fragments, as the in-process tests make it.</summary>
    public static string Fragments(string directory)
    {
        var fragments = Directory.CreateDirectory(Path.Combine(directory, "fragments")).FullName;
        File.Copy(
            Path.Combine(ComposeFragments.DefaultDirectory, ComposeFragments.BitcoindFile),
            Path.Combine(fragments, ComposeFragments.BitcoindFile),
            overwrite: true
        );
        File.Copy(StandInKind.FragmentSource, Path.Combine(fragments, StandInKind.Fragment), overwrite: true);
        return fragments;
    }
}
