using Lightning.Bench.Progress;

namespace Lightning.Bench.Options;

/// <summary>
/// The command line as the parser walks it: the option at hand (--name or --name=value) and the values it takes,
/// from its inline value or else the arguments after it. A following argument that starts with "--" is never a value.
/// </summary>
internal sealed class OptionArguments(IReadOnlyList<string> args)
{
    private int position = -1;
    private string? inlineValue;

    /// <summary>The option at hand as typed, without its inline value.</summary>
    public string Name { get; private set; } = "";

    public bool HasInlineValue => inlineValue is not null;

    /// <summary>Moves to the next argument; false past the end.</summary>
    public bool MoveNext(out string arg)
    {
        position++;
        arg = position < args.Count ? args[position] : "";
        return position < args.Count;
    }

    /// <summary>Everything after the argument at hand.</summary>
    public IReadOnlyList<string> Rest() => args.Skip(position + 1).ToList();

    /// <summary>Takes the argument at hand as an option, splitting --name=value.</summary>
    public void BeginOption(string arg)
    {
        var eq = arg.IndexOf('=');
        (Name, inlineValue) = eq > 0 ? (arg[..eq], arg[(eq + 1)..]) : (arg, null);
    }

    /// <summary>The option's value: its inline value, else the next argument.</summary>
    public string Value() => inlineValue ?? Next($"{Name} needs a value");

    /// <summary>The option's value, which may itself look like an option (--node-option --dev-keep-nagle): its inline value, else the next argument whatever it is.</summary>
    public string RawValue()
    {
        if (inlineValue is { } inline)
        {
            return inline;
        }
        if (position + 1 >= args.Count)
        {
            throw new UsageException($"{Name} needs a value");
        }
        return args[++position];
    }

    /// <summary>Every following argument up to the next option, as further values of the option at hand.</summary>
    public IReadOnlyList<string> Following()
    {
        var values = new List<string>();
        while (position + 1 < args.Count && !args[position + 1].StartsWith("--", StringComparison.Ordinal))
        {
            values.Add(args[++position]);
        }
        return values;
    }

    /// <summary>The next argument as a further value of the option; <paramref name="missing"/> when there is none.</summary>
    public string Next(string missing)
    {
        if (position + 1 >= args.Count || args[position + 1].StartsWith("--", StringComparison.Ordinal))
        {
            throw new UsageException(missing);
        }
        return args[++position];
    }
}
