using Mono.Cecil;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// Which top-level folders of the harness use which, read from the compiled assembly: a folder uses another when any
/// of its types (nested and compiler-made ones included: lambdas, async state machines) names one of the other's in a
/// base type, interface, field, property, signature, local, attribute, generic argument or instruction. The compiled
/// code is what counts, so partly qualified names (<c>Swarm.SwarmPlatform</c>) are seen as a <c>using</c> is.
/// </summary>
internal sealed class FolderGraph
{
    private const string Root = "Lightning.Bench";

    private FolderGraph(
        IReadOnlyDictionary<string, IReadOnlyDictionary<string, IReadOnlyList<string>>> edges,
        IReadOnlyDictionary<string, int> types
    )
    {
        Edges = edges;
        TypesPerFolder = types;
    }

    /// <summary>Folder → folder it uses → the using types (full names, a few), for the message of a failing test.</summary>
    public IReadOnlyDictionary<string, IReadOnlyDictionary<string, IReadOnlyList<string>>> Edges { get; }

    public IReadOnlyDictionary<string, int> TypesPerFolder { get; }

    public IEnumerable<string> Folders => TypesPerFolder.Keys.OrderBy(f => f, StringComparer.Ordinal);

    public bool Uses(string from, string to) => Edges.TryGetValue(from, out var targets) && targets.ContainsKey(to);

    /// <summary>Pairs of folders that use each other.</summary>
    public IReadOnlyList<(string A, string B)> MutualPairs() =>
        Edges
            .SelectMany(e =>
                e.Value.Keys.Where(t => string.CompareOrdinal(e.Key, t) < 0 && Uses(t, e.Key)).Select(t => (e.Key, t))
            )
            .ToList();

    /// <summary>The strongly connected components of more than one folder (cycles), largest first (Tarjan).</summary>
    public IReadOnlyList<IReadOnlyList<string>> Cycles()
    {
        var index = new Dictionary<string, int>();
        var low = new Dictionary<string, int>();
        var stack = new Stack<string>();
        var onStack = new HashSet<string>();
        var found = new List<IReadOnlyList<string>>();
        var next = 0;
        foreach (var folder in Folders)
        {
            if (!index.ContainsKey(folder))
            {
                Visit(folder);
            }
        }
        return found.OrderByDescending(c => c.Count).ToList();

        void Visit(string v)
        {
            index[v] = low[v] = next++;
            stack.Push(v);
            onStack.Add(v);
            foreach (var w in Edges.TryGetValue(v, out var t) ? t.Keys : [])
            {
                if (!index.ContainsKey(w))
                {
                    Visit(w);
                    low[v] = Math.Min(low[v], low[w]);
                }
                else if (onStack.Contains(w))
                {
                    low[v] = Math.Min(low[v], index[w]);
                }
            }
            if (low[v] != index[v])
            {
                return;
            }
            var component = new List<string>();
            string x;
            do
            {
                x = stack.Pop();
                onStack.Remove(x);
                component.Add(x);
            } while (x != v);
            if (component.Count > 1)
            {
                found.Add(component.OrderBy(c => c, StringComparer.Ordinal).ToList());
            }
        }
    }

    /// <summary>The folder of a type of the harness (its namespace's first part below the root; "(root)" for Program), or null for another assembly's.</summary>
    public static string? FolderOf(TypeReference type)
    {
        while (type.DeclaringType is not null)
        {
            type = type.DeclaringType;
        }
        var ns = type.Namespace;
        if (ns == Root)
        {
            return "(root)";
        }
        if (!ns.StartsWith(Root + ".", StringComparison.Ordinal))
        {
            return null;
        }
        var rest = ns[(Root.Length + 1)..];
        var dot = rest.IndexOf('.');
        return dot < 0 ? rest : rest[..dot];
    }

    public static FolderGraph Of(string assemblyPath)
    {
        using var module = ModuleDefinition.ReadModule(assemblyPath);
        var edges = new Dictionary<string, Dictionary<string, List<string>>>();
        var types = new Dictionary<string, int>();
        foreach (var type in module.GetTypes())
        {
            if (FolderOf(type) is not { } from)
            {
                continue;
            }
            if (type.DeclaringType is null)
            {
                types[from] = types.GetValueOrDefault(from) + 1;
            }
            foreach (var used in Referenced(type))
            {
                if (FolderOf(used) is { } to && to != from && used.Module == module)
                {
                    var targets = edges.TryGetValue(from, out var t) ? t : edges[from] = [];
                    var users = targets.TryGetValue(to, out var u) ? u : targets[to] = [];
                    var user = Outermost(type).FullName;
                    if (!users.Contains(user))
                    {
                        users.Add(user);
                    }
                }
            }
        }
        return new FolderGraph(
            edges.ToDictionary(
                e => e.Key,
                e =>
                    (IReadOnlyDictionary<string, IReadOnlyList<string>>)
                        e.Value.ToDictionary(t => t.Key, t => (IReadOnlyList<string>)t.Value)
            ),
            types
        );
    }

    private static TypeReference Outermost(TypeReference type)
    {
        while (type.DeclaringType is not null)
        {
            type = type.DeclaringType;
        }
        return type;
    }

    private static IEnumerable<TypeReference> Referenced(TypeDefinition type)
    {
        var all = new List<TypeReference>();
        void Add(TypeReference? t)
        {
            switch (t)
            {
                case null:
                    return;
                case GenericInstanceType generic:
                    Add(generic.ElementType);
                    foreach (var a in generic.GenericArguments)
                    {
                        Add(a);
                    }
                    return;
                case TypeSpecification spec:
                    Add(spec.ElementType);
                    return;
                case GenericParameter:
                    return;
                default:
                    all.Add(t);
                    return;
            }
        }
        void AddAttributes(ICustomAttributeProvider provider)
        {
            foreach (var attribute in provider.CustomAttributes)
            {
                Add(attribute.AttributeType);
                foreach (var argument in attribute.ConstructorArguments)
                {
                    Add(argument.Type);
                    Add(argument.Value as TypeReference);
                }
            }
        }
        void AddMethod(MethodReference m)
        {
            Add(m.DeclaringType);
            Add(m.ReturnType);
            foreach (var p in m.Parameters)
            {
                Add(p.ParameterType);
            }
            if (m is GenericInstanceMethod g)
            {
                foreach (var a in g.GenericArguments)
                {
                    Add(a);
                }
            }
        }

        Add(type.BaseType);
        AddAttributes(type);
        foreach (var i in type.Interfaces)
        {
            Add(i.InterfaceType);
        }
        foreach (var g in type.GenericParameters)
        {
            foreach (var c in g.Constraints)
            {
                Add(c.ConstraintType);
            }
        }
        foreach (var f in type.Fields)
        {
            Add(f.FieldType);
            AddAttributes(f);
        }
        foreach (var p in type.Properties)
        {
            Add(p.PropertyType);
            AddAttributes(p);
        }
        foreach (var e in type.Events)
        {
            Add(e.EventType);
        }
        foreach (var m in type.Methods)
        {
            AddMethod(m);
            AddAttributes(m);
            foreach (var p in m.Parameters)
            {
                AddAttributes(p);
            }
            if (!m.HasBody)
            {
                continue;
            }
            foreach (var v in m.Body.Variables)
            {
                Add(v.VariableType);
            }
            foreach (var instruction in m.Body.Instructions)
            {
                switch (instruction.Operand)
                {
                    case TypeReference t:
                        Add(t);
                        break;
                    case MethodReference mr:
                        AddMethod(mr);
                        break;
                    case FieldReference fr:
                        Add(fr.DeclaringType);
                        Add(fr.FieldType);
                        break;
                }
            }
        }
        return all;
    }
}
