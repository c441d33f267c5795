namespace Lightning.Bench.Options;

/// <summary>
/// An option's row of the options table in docs/options.md (markdown, like the file): the default and the meaning.
/// </summary>
/// <param name="Default">The default as the table shows it; empty when there is none to show.</param>
/// <param name="Meaning">What the option does; empty in a row that joins the one before.</param>
internal sealed record OptionDocs(string Default, string Meaning)
{
    /// <summary>How the option is written in the table, when not its --help syntax in code quotes.</summary>
    public string? Syntax { get; init; }

    /// <summary>Shares the row of the option declared before it (--warmups with --iterations): the cells are joined with " / ".</summary>
    public bool JoinsPrevious { get; init; }
}
