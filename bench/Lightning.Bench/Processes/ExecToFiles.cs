using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.InteropServices;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Processes;

/// <summary>
/// `Lightning.Bench exec-to-files --stdout FILE --stderr FILE -- PROGRAM ARGS…`: runs a program with its output in
/// files and exits with its code. A swarm agent's perf runs this way in a helper container of the harness image (which
/// has no shell): the files are in the work volume the agent shares, so it reads a `perf script`'s tens of MB and the
/// end of a recording's errors without the engine's log. SIGTERM and SIGINT are passed on to the program.
/// </summary>
internal static class ExecToFiles
{
    public const string Command = "exec-to-files";

    public const string Usage = "usage: Lightning.Bench exec-to-files --stdout FILE --stderr FILE -- PROGRAM [ARGS…]";

    public static int Run(IReadOnlyList<string> args)
    {
        string? stdout = null,
            stderr = null;
        var i = 0;
        for (; i < args.Count && args[i] != "--"; i++)
        {
            if (args[i] is not ("--stdout" or "--stderr"))
            {
                return HarnessExit.Fail(HarnessExit.Usage, $"exec-to-files: unknown option '{args[i]}'; {Usage}");
            }
            if (i + 1 >= args.Count)
            {
                return HarnessExit.Fail(HarnessExit.Usage, $"{args[i]} needs a value; {Usage}");
            }
            _ = args[i] == "--stdout" ? stdout = args[++i] : stderr = args[++i];
        }
        if (stdout is null || stderr is null || i + 1 >= args.Count)
        {
            return HarnessExit.Fail(
                HarnessExit.Usage,
                $"exec-to-files needs --stdout, --stderr and a program after --; {Usage}"
            );
        }
        var startInfo = new ProcessStartInfo(args[i + 1])
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var argument in args.Skip(i + 2))
        {
            startInfo.ArgumentList.Add(argument);
        }
        // Shared: the agent reads them while the program runs (the end of a recording's errors); .NET locks files it creates otherwise.
        using var output = new FileStream(stdout, FileMode.Create, FileAccess.Write, FileShare.ReadWrite);
        using var errors = new StreamWriter(
            new FileStream(stderr, FileMode.Create, FileAccess.Write, FileShare.ReadWrite)
        )
        {
            AutoFlush = true,
        };
        using var process = new Process { StartInfo = startInfo };
        try
        {
            process.Start();
        }
        catch (Win32Exception e)
        {
            errors.WriteLine($"cannot start {args[i + 1]}: {e.Message}");
            return 127;
        }
        process.StandardInput.Close();
        void PassOn(PosixSignalContext context)
        {
            context.Cancel = true;
            _ = ProcessSignal.Send(
                process.Id,
                context.Signal == PosixSignal.SIGINT ? ProcessSignal.Interrupt : ProcessSignal.Terminate
            );
        }
        using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, PassOn);
        using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, PassOn);
        var copyOutput = process.StandardOutput.BaseStream.CopyToAsync(output);
        var copyErrors = Task.Run(async () =>
        {
            while (await process.StandardError.ReadLineAsync() is { } line)
            {
                await errors.WriteLineAsync(line);
            }
        });
        process.WaitForExit();
        Task.WaitAll(copyOutput, copyErrors);
        output.Flush(flushToDisk: true);
        return process.ExitCode;
    }
}
