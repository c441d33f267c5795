namespace Lightning.Bench.Instructions;

/// <summary>
/// All calls of one function to another in a callgrind dump, summed over call sites: how many (callgrind writes 0
/// for a call still running when the dump was taken) and the instructions executed inside them (inclusive).
/// </summary>
/// <param name="Caller">The caller's key in <see cref="CallgrindDump.Functions"/>.</param>
/// <param name="Callee">The callee's key; equal to <paramref name="Caller"/> for a direct recursion.</param>
internal sealed record CallgrindCall(string Caller, string Callee, long Calls, long InclusiveIr);
