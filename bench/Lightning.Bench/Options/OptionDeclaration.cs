namespace Lightning.Bench.Options;

/// <summary>
/// One command-line option, declared once in <see cref="OptionCatalog"/> (or, for agent mode, in
/// <c>AgentOptionCatalog</c>): how it sets the options of its command, its lines in --help and its row of
/// the docs' options table.
/// </summary>
/// <param name="Name">The option, e.g. --iterations.</param>
/// <param name="ValueName">What its value is called in --help (N, LIST, DIR); null for a switch, which refuses a value.</param>
/// <typeparam name="TOptions">The options record the command builds (<see cref="HarnessOptions"/>, or the agent's).</typeparam>
/// <param name="Apply">Reads the option's values (through <see cref="OptionArguments"/>) and returns the options it makes.</param>
/// <param name="Help">Its text in --help; a line break continues it on the next line, under the first.</param>
/// <param name="Docs">Its row of the options table in docs/options.md.</param>
internal sealed record OptionDeclaration<TOptions>(
    string Name,
    string? ValueName,
    Func<TOptions, OptionArguments, TOptions> Apply,
    string Help,
    OptionDocs Docs
)
{
    /// <summary>Other names of the option (-h for --help).</summary>
    public IReadOnlyList<string> Aliases { get; init; } = [];

    /// <summary>May be given with --replay (which takes everything else from the run it replays).</summary>
    public bool KeptByReplay { get; init; }

    public bool IsSwitch => ValueName is null;

    /// <summary>The option with its value's name, as --help shows it.</summary>
    public string Syntax => IsSwitch ? Name : $"{Name} {ValueName}";

    public bool Answers(string name) => name == Name || Aliases.Contains(name);
}
