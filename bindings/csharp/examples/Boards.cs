// Boards.cs -- the C# binding (bindings/csharp/Dealer.cs) in a practice-server loop: load a
// script once, then hand out deals as PBN boards, exactly as examples-c/embed.c prints them.
//
//   Boards.exe [SEED [COUNT [SCRIPT_FILE]]]   defaults: seed 42, 4 boards, the 1NT script below
//   Boards.exe --capture SEED                 a whole run ("produce 3 / action printoneline",
//                                             glibc generator) captured through SetOutput, then
//                                             "report: generated=G produced=P seed=S"
// Errors print "Boards: <step>: <libdealer's message>" on stderr; the exit status is 1.
//
// Build and run from the top of the repository (after `make`):
//   mcs -out:Boards.exe bindings/csharp/examples/Boards.cs bindings/csharp/Dealer.cs
//   LD_LIBRARY_PATH=target/lib mono Boards.exe 1 6
// (or compile against the packaged assembly: mcs -r:target/nuget/lib/netstandard2.0/Libdealer.dll)

using System;
using System.Globalization;
using System.IO;
using System.Text;
using Libdealer;

internal static class Boards
{
    /// <summary>North opens 1NT: 15-17 points, balanced (the same text as embed.c).</summary>
    private const string OneNotrump =
        "condition hcp(north) >= 15 && hcp(north) <= 17\n" +
        "  && shape(north, any 4333 + any 4432 + any 5332)\n";

    /// <summary>Board vulnerability by (board - 1) % 16, in PBN's words.</summary>
    private static readonly string[] Vulnerable = {
        "None", "NS", "EW", "All", "NS", "EW", "All", "None",
        "EW", "All", "None", "NS", "All", "None", "NS", "EW",
    };

    private static int Main(string[] args)
    {
        var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        string step = "session";
        try
        {
            using (var session = new DealerSession())
            {
                if (args.Length == 2 && args[0] == "--capture")
                {
                    step = "run";
                    session.Seed = Number(args[1]);
                    session.Generator = DealerGenerator.DEALER_GENERATOR_GLIBC;
                    session.LoadScript("produce 3\naction printoneline\n");
                    var captured = new MemoryStream();   // the run's output, byte for byte
                    session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT, captured);
                    RunReport report = session.Run();
                    stdout.Flush();
                    captured.WriteTo(stdout.BaseStream);
                    stdout.Write("report: generated=" + report.Generated + " produced=" + report.Produced
                        + " seed=" + report.Seed + "\n");
                    return 0;
                }
                step = "seed";
                session.Seed = args.Length > 0 ? Number(args[0]) : 42;
                long count = args.Length > 1 ? Number(args[1]) : 4;
                step = "script";
                if (args.Length > 2) session.LoadScriptFile(args[2]); else session.LoadScript(OneNotrump);
                step = "next deal";
                for (long board = 1; board <= count; board++)
                {
                    Deal deal = session.NextDeal();   // null when the script's limits are reached
                    if (deal == null) break;
                    stdout.Write("[Board \"" + board + "\"]\n[Dealer \"" + "NESW"[(int)((board - 1) % 4)]
                        + "\"]\n[Vulnerable \"" + Vulnerable[(board - 1) % 16] + "\"]\n[Deal \""
                        + deal.ToPbn() + "\"]\n\n");
                }
                return 0;
            }
        }
        catch (DealerException e)
        {
            stdout.Flush();
            Console.Error.Write("Boards: " + step + ": " + e.FullText + "\n");
            return 1;
        }
        finally
        {
            stdout.Flush();
        }
    }

    /// <summary>A decimal number of the command line.</summary>
    private static long Number(string text)
    {
        return long.Parse(text, CultureInfo.InvariantCulture);
    }
}
