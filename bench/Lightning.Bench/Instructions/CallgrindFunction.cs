namespace Lightning.Bench.Instructions;

/// <summary>
/// One function of a callgrind dump: where it lives (object file, source file of its <c>fn=</c> line) and the
/// instructions (Ir) it executed itself and with what it called.
/// </summary>
/// <param name="Key">Its key in <see cref="CallgrindDump.Functions"/>: the name, disambiguated only when needed.</param>
/// <param name="InclusiveIr">Self plus the cost of its calls to other functions, never more than the dump's total.</param>
internal sealed record CallgrindFunction(
    string Key,
    string Name,
    string Object,
    string File,
    long SelfIr,
    long InclusiveIr
)
{
    /// <summary>The object's file name without its directory (<c>libc.so.6</c>, <c>lightningd</c>), as builds install to different paths.</summary>
    public string ObjectName => System.IO.Path.GetFileName(Object) is { Length: > 0 } name ? name : Object;
}
