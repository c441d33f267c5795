using System.Text;

namespace Lightning.Bench.Compose;

/// <summary>
/// Compose's variable interpolation, for the compose model started without compose (<see cref="EngineComposeRunner"/>):
/// $$ is a dollar; $VAR and ${VAR} are the variable (empty when unset); ${VAR:-default}, ${VAR-default},
/// ${VAR:+replacement}, ${VAR+replacement}, ${VAR:?error} and ${VAR?error} as in the compose specification.
/// </summary>
internal static class ComposeInterpolation
{
    public static string Apply(string value, Func<string, string?> variable)
    {
        if (!value.Contains('$'))
        {
            return value;
        }
        var output = new StringBuilder(value.Length);
        for (var i = 0; i < value.Length; i++)
        {
            if (value[i] != '$')
            {
                output.Append(value[i]);
                continue;
            }
            if (i + 1 < value.Length && value[i + 1] == '$')
            {
                output.Append('$');
                i++;
                continue;
            }
            if (i + 1 < value.Length && value[i + 1] == '{')
            {
                var close = value.IndexOf('}', i + 2);
                if (close < 0)
                {
                    throw new FormatException(
                        $"invalid interpolation in \"{value}\": '${{' without '}}' (write $$ for a literal dollar)"
                    );
                }
                output.Append(Braced(value[(i + 2)..close], value, variable));
                i = close;
                continue;
            }
            var end = i + 1;
            while (end < value.Length && (char.IsAsciiLetterOrDigit(value[end]) || value[end] == '_'))
            {
                end++;
            }
            if (end == i + 1)
            {
                throw new FormatException(
                    $"invalid interpolation in \"{value}\": a lone '$' (write $$ for a literal dollar)"
                );
            }
            output.Append(variable(value[(i + 1)..end]) ?? "");
            i = end - 1;
        }
        return output.ToString();
    }

    private static string Braced(string expression, string value, Func<string, string?> variable)
    {
        var name = new string(expression.TakeWhile(c => char.IsAsciiLetterOrDigit(c) || c == '_').ToArray());
        if (name.Length == 0)
        {
            throw new FormatException($"invalid interpolation in \"{value}\": ${{{expression}}} names no variable");
        }
        var set = variable(name);
        var rest = expression[name.Length..];
        if (rest.Length == 0)
        {
            return set ?? "";
        }
        var colon = rest[0] == ':';
        var op = colon ? rest[1..] : rest;
        if (op.Length == 0)
        {
            throw new FormatException($"invalid interpolation in \"{value}\": ${{{expression}}}");
        }
        var argument = op[1..];
        if (argument.Contains("${", StringComparison.Ordinal))
        {
            throw new FormatException(
                $"nested interpolation in \"{value}\" is not supported here: start the topology with --with-compose"
            );
        }
        // With a colon, an empty value counts as unset.
        var present = colon ? !string.IsNullOrEmpty(set) : set is not null;
        return op[0] switch
        {
            '-' => present ? set! : argument,
            '+' => present ? argument : "",
            '?' => present
                ? set!
                : throw new FormatException(
                    $"variable {name} is required by the compose fragments: {(argument.Length > 0 ? argument : "set it")}"
                ),
            _ => throw new FormatException($"invalid interpolation in \"{value}\": ${{{expression}}}"),
        };
    }
}
