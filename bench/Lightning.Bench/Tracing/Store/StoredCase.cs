namespace Lightning.Bench.Tracing.Store;

/// <summary>One case in a span store: its folder under cases/ and whether the run wrote its span views.</summary>
internal sealed record StoredCase(string Folder, StoredCaseFlags Flags)
{
    public bool HasViews => Flags.HasFlag(StoredCaseFlags.Views);
}
