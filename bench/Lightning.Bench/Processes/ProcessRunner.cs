using System.ComponentModel;
using System.Diagnostics;
using System.Text;

namespace Lightning.Bench.Processes;

/// <summary>The one way this harness runs external tools: arguments as a list, a timeout, cancellation, captured output.</summary>
internal static class ProcessRunner
{
    public static Task<ProcessResult> RunAsync(
        string fileName,
        IReadOnlyList<string> arguments,
        TimeSpan timeout,
        IReadOnlyDictionary<string, string?>? environment = null,
        string? workingDirectory = null,
        CancellationToken ct = default
    ) => RunAsync(fileName, arguments, timeout, readOutput: null, environment, workingDirectory, ct);

    /// <summary>
    /// As <see cref="RunAsync(string, IReadOnlyList{string}, TimeSpan, IReadOnlyDictionary{string, string?}?, string?, CancellationToken)"/>,
    /// with standard output handed to <paramref name="readOutput"/> as it comes instead of kept (for outputs of tens of MB).
    /// </summary>
    public static async Task<ProcessResult> RunAsync(
        string fileName,
        IReadOnlyList<string> arguments,
        TimeSpan timeout,
        Action<StreamReader>? readOutput,
        IReadOnlyDictionary<string, string?>? environment = null,
        string? workingDirectory = null,
        CancellationToken ct = default
    )
    {
        var startInfo = StartInfo(fileName, arguments, environment, workingDirectory);

        using var process = new Process { StartInfo = startInfo };
        var stdout = new StringBuilder();
        var stderr = new StringBuilder();
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (stdout)
                {
                    stdout.AppendLine(e.Data);
                }
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (stderr)
                {
                    stderr.AppendLine(e.Data);
                }
            }
        };
        try
        {
            process.Start();
        }
        catch (Win32Exception e)
        {
            throw new ToolNotFoundException(fileName, e.Message);
        }
        process.StandardInput.Close();
        var reading = Task.CompletedTask;
        if (readOutput is null)
        {
            process.BeginOutputReadLine();
        }
        else
        {
            reading = Task.Run(
                () =>
                {
                    try
                    {
                        readOutput(process.StandardOutput);
                    }
                    catch
                    {
                        // Nobody else reads the pipe: a reader that gave up must not leave the tool blocked on a full one.
                        try
                        {
                            process.Kill(entireProcessTree: true);
                        }
                        catch (InvalidOperationException) { }
                        throw;
                    }
                },
                CancellationToken.None
            );
        }
        process.BeginErrorReadLine();

        using var timeoutCts = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeoutCts.CancelAfter(timeout);
        try
        {
            await process.WaitForExitAsync(timeoutCts.Token);
        }
        catch (OperationCanceledException)
        {
            try
            {
                process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException) { }
            ct.ThrowIfCancellationRequested();
            throw new TimeoutException(
                $"'{fileName} {string.Join(' ', arguments)}' did not finish within {timeout.TotalSeconds:0} s"
            );
        }
        // WaitForExitAsync returns once the process exits; this drains the redirected streams.
        process.WaitForExit();
        await reading;
        return new ProcessResult(fileName, arguments, process.ExitCode, stdout.ToString(), stderr.ToString());
    }

    /// <summary>How every tool is started: arguments as a list (no shell), every stream redirected, the environment adjusted.</summary>
    /// <param name="environment">Variables to set; a null value removes the variable from the child's environment.</param>
    internal static ProcessStartInfo StartInfo(
        string fileName,
        IReadOnlyList<string> arguments,
        IReadOnlyDictionary<string, string?>? environment = null,
        string? workingDirectory = null
    )
    {
        var startInfo = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }
        foreach (var (key, value) in environment ?? new Dictionary<string, string?>())
        {
            if (value is null)
            {
                startInfo.Environment.Remove(key);
            }
            else
            {
                startInfo.Environment[key] = value;
            }
        }
        return startInfo;
    }
}
