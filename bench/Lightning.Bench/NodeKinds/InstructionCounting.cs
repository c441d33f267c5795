namespace Lightning.Bench.NodeKinds;

/// <summary>How a kind's nodes run under Valgrind for <c>--instructions</c>.</summary>
/// <param name="SkippedChildren">Programs a node starts that are not counted (Valgrind's --trace-children-skip patterns):
/// what is not the node's own code (bitcoin-cli, interpreters) or too slow to start under Valgrind.</param>
/// <param name="Arguments">Added to the node's command line (checks that cannot pass under Valgrind switched off).</param>
/// <param name="Environment">Added to the node's environment.</param>
/// <param name="RetryLoops">Calls its code repeats a random number of times by design, counted at their mean (see <see cref="RetryLoop"/>).</param>
/// <param name="ForkedWork">Functions a child forked without exec runs its work in (Core Lightning's askrene routes in a
/// forked child since v26.04: run_child). A forked child starts with its parent's counts; Valgrind zeroes them when it
/// enters one of these (--zero-before), and a child born and ended within a window whose counts hold one is counted.</param>
internal sealed record InstructionCounting(
    IReadOnlyList<string> SkippedChildren,
    IReadOnlyList<string> Arguments,
    IReadOnlyDictionary<string, string> Environment,
    IReadOnlyList<RetryLoop>? RetryLoops = null,
    IReadOnlyList<string>? ForkedWork = null
);
