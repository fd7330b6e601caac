// TestDealer.cs -- a console test of the C# binding (bindings/csharp/Dealer.cs); run by
// tests/bindings_csharp.sh. Prints "ok: NAME" / "FAIL: NAME" per check, then
// "N passed, M failed"; exit status 1 on any failure.
//
// Arguments (all optional; the checks that need one are skipped without it):
//   --size NAME=BYTES       the C sizeof of a record (dealer_deal, dealer_run_report,
//                           dealer_dds_results, dealer_usereval_query, dealer_hand_stats)
//   --script7 FILE          a script "generate 1000 / produce 5 / action printoneline"
//   --cli-output7 FILE      the CLI's stdout for `dealer -s 7 FILE`

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;
using Libdealer;

internal static class TestDealer
{
    private static int passed;
    private static int failed;

    private static void Check(string name, bool condition, string detail = null)
    {
        if (condition)
        {
            Console.WriteLine("ok: " + name);
            passed++;
        }
        else
        {
            Console.WriteLine("FAIL: " + name + (detail == null ? "" : " (" + detail + ")"));
            failed++;
        }
    }

    private static void Test(string name, Action body)
    {
        try
        {
            body();
        }
        catch (Exception e)
        {
            Console.WriteLine("FAIL: " + name + ": exception " + e.GetType().Name + ": " + e.Message);
            failed++;
        }
    }

    private static string MaskTime(string text)
    {
        return Regex.Replace(text, "(?m)^Time needed .*$", "Time needed (masked)");
    }

    private static int Main(string[] args)
    {
        var sizes = new Dictionary<string, int>();
        string script7 = null, cliOutput7 = null;
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "--size" && i + 1 < args.Length)
            {
                string[] kv = args[++i].Split('=');
                sizes[kv[0]] = int.Parse(kv[1]);
            }
            else if (args[i] == "--script7" && i + 1 < args.Length) script7 = args[++i];
            else if (args[i] == "--cli-output7" && i + 1 < args.Length) cliOutput7 = args[++i];
            else
            {
                Console.Error.WriteLine("TestDealer: unknown argument " + args[i]);
                return 2;
            }
        }

        Test("version", () =>
        {
            Check("version number matches DealerVersion",
                DealerSession.LibraryVersionNumber == DealerVersion.Number,
                DealerSession.LibraryVersionNumber + " vs " + DealerVersion.Number);
            Check("version string", DealerSession.LibraryVersion ==
                DealerVersion.DEALER_VERSION_MAJOR + "." + DealerVersion.DEALER_VERSION_MINOR + "." + DealerVersion.DEALER_VERSION_PATCH,
                DealerSession.LibraryVersion);
        });

        // Record sizes against the C compiler's sizeof.
        var records = new Dictionary<string, Type>
        {
            { "dealer_deal", typeof(DealerDealRecord) },
            { "dealer_run_report", typeof(DealerRunReportRecord) },
            { "dealer_dds_results", typeof(DealerDdsResultsRecord) },
            { "dealer_usereval_query", typeof(DealerUserevalQuery) },
            { "dealer_hand_stats", typeof(DealerHandStats) },
        };
        foreach (var record in records)
        {
            int cSize;
            if (!sizes.TryGetValue(record.Key, out cSize))
            {
                Check("sizeof " + record.Key + " given", false, "no --size " + record.Key + "=N argument");
                continue;
            }
            int managed = Marshal.SizeOf(record.Value);
            Check("Marshal.SizeOf(" + record.Value.Name + ") = sizeof(" + record.Key + ") = " + cSize,
                managed == cSize, "managed " + managed);
        }

        Test("script error position", () =>
        {
            using (var session = new DealerSession())
            {
                try
                {
                    session.LoadScript("produce 1\ncondition hcp(north) &&& 3\naction printoneline\n");
                    Check("syntax error on line 2 throws", false, "no exception");
                }
                catch (DealerException e)
                {
                    Check("syntax error: Status DEALER_ERROR_SCRIPT", e.Status == DealerStatus.DEALER_ERROR_SCRIPT,
                        DealerStatus.Name(e.Status));
                    Check("syntax error: Line 2", e.Line == 2, "line " + e.Line);
                    Check("syntax error: Column > 0", e.Column > 0, "column " + e.Column);
                    Check("syntax error: summary names line 2", e.Message.Contains("line 2"), e.Message);
                    Check("syntax error: full text has line and column",
                        e.FullText.StartsWith("line 2, column " + e.Column + ":") && e.FullText.Contains("^"),
                        e.FullText);
                    Check("syntax error: exit code 255", e.ExitCode == 255, "exit code " + e.ExitCode);
                }
            }
        });

        Test("option error", () =>
        {
            using (var session = new DealerSession())
            {
                try
                {
                    session.SetOption("no_such_option", "1");
                    Check("unknown option throws", false, "no exception");
                }
                catch (DealerException e)
                {
                    Check("unknown option: Status DEALER_ERROR_OPTION",
                        e.Status == DealerStatus.DEALER_ERROR_OPTION && e.Message.Length > 0,
                        DealerStatus.Name(e.Status) + " " + e.Message);
                }
            }
        });

        Test("iteration", () =>
        {
            using (var session = new DealerSession())
            {
                session.Seed = 11;
                session.Produce = 5;
                session.LoadScript("condition hcp(north) >= 0\n");
                var deals = session.Deals().ToList();
                Check("Deals() yields 5 deals for produce 5", deals.Count == 5, deals.Count + " deals");
                bool whole = deals.All(d =>
                    (d.North | d.East | d.South | d.West) == 0x1fff1fff1fff1fffUL &&
                    d.Hands.Sum(h => CountBits(h)) == 52);
                Check("each deal has 52 different cards", whole);
                Check("ToPbn starts with N:", deals.Count > 0 && deals[0].ToPbn().StartsWith("N:") &&
                    deals[0].ToPbn().Length == 2 + 52 + 12 + 3, deals.Count > 0 ? deals[0].ToPbn() : "");
                Check("ToOneLine starts with n ", deals.Count > 0 && deals[0].ToOneLine().StartsWith("n ") &&
                    deals[0].ToOneLine().EndsWith(" "), deals.Count > 0 ? deals[0].ToOneLine() : "");
                Check("Seed reads back 11", session.Seed == 11, session.Seed.ToString());
            }
        });

        Test("check bbo", () =>
        {
            using (var session = new DealerSession())
            {
                int errors;
                string[] lines = session.CheckScript("produce 1 # x\ncondition dds(north, spades) > 9\n", out errors);
                Check("CheckScript: two errors", errors == 2, errors.ToString());
                Check("CheckScript: line:col of #", lines.Length == 2 && lines[0].StartsWith("1:11: error: `#` not in column 1"),
                      string.Join("|", lines));
                Check("CheckScript: clean script", session.CheckScript("condition 1\n", out errors).Length == 0 && errors == 0);
            }
        });

        Test("eval", () =>
        {
            using (var session = new DealerSession())
            {
                session.Seed = 3;
                session.LoadScript("produce 1\ncondition hcp(north) > 10\n");
                Deal deal = session.Deals().First();
                int hcp = session.Eval("hcp(north)");
                Check("Eval hcp(north) within 11..37", hcp >= 11 && hcp <= 37, hcp.ToString());
                int total = session.Eval("hcp(north) + hcp(east) + hcp(south) + hcp(west)");
                Check("Eval: the four hcp add up to 40", total == 40, total.ToString());
                uint id = session.CompileExpression("hcp(north)");
                Check("EvalCompiled = Eval", session.EvalCompiled(id) == hcp);
                Check("Eval of a comparison is 1", session.Eval("hcp(north) > 10") == 1);
                try
                {
                    session.Eval("hcp(north) +");
                    Check("bad expression throws", false);
                }
                catch (DealerException e)
                {
                    Check("bad expression: DEALER_ERROR_SCRIPT", e.Status == DealerStatus.DEALER_ERROR_SCRIPT,
                        DealerStatus.Name(e.Status));
                }
                GC.KeepAlive(deal);
            }
        });

        Test("eval without deal", () =>
        {
            using (var session = new DealerSession())
            {
                session.LoadScript("produce 1\n");
                try
                {
                    session.Eval("hcp(north)");
                    Check("Eval before any deal throws", false);
                }
                catch (DealerException e)
                {
                    Check("Eval before any deal: DEALER_ERROR_USAGE", e.Status == DealerStatus.DEALER_ERROR_USAGE,
                        DealerStatus.Name(e.Status));
                }
            }
        });

        Test("dds table", () =>
        {
            using (var session = new DealerSession())
            {
                session.Seed = 7;
                session.Threads = 1;
                session.LoadScript("produce 1\n");
                Deal deal = session.Deals().First();
                DdsResult given = session.DdsTable(deal, 0);
                DdsResult current = session.DdsTable();
                string[] seats = { "north", "east", "south", "west" };
                string[] strains = { "clubs", "diamonds", "hearts", "spades", "notrump" };
                int inRange = 0, sameAsCurrent = 0, sameAsScript = 0;
                var values = new StringBuilder();
                for (int d = 0; d < 4; d++)
                    for (int s = 0; s < 5; s++)
                    {
                        int t = given.Tricks[d, s];
                        values.Append(t).Append(s == 4 ? "; " : " ");
                        if (t >= 0 && t <= 13) inRange++;
                        if (current.Tricks[d, s] == t) sameAsCurrent++;
                        if (session.Eval("dds(" + seats[d] + ", " + strains[s] + ")") == t) sameAsScript++;
                    }
                Check("DD table: 20 values in 0..13 [" + values.ToString().Trim() + "]", inRange == 20);
                Check("DD table of the deal = of the current deal", sameAsCurrent == 20, sameAsCurrent + "/20");
                Check("DD table = script dds(seat, strain) for the 20", sameAsScript == 20, sameAsScript + "/20");
                // Known values for this deal (the CLI's `average dds(north, spades)` on seed 7 gives 2).
                Check("DD table of the seed 7 deal = known values",
                    values.ToString().Trim() == "7 4 5 2 2; 6 9 7 11 10; 7 4 5 2 2; 6 9 7 11 10;",
                    values.ToString());
                Check("DD table: par contract text given", given.ParContract.Contains(" by "), "'" + given.ParContract + "'");
                Check("DD table: par score = script par(ns)", given.ParScoreNs == session.Eval("par(NS, none)"),
                    given.ParScoreNs + " vs " + session.Eval("par(NS, none)"));
                // The deal of seed 7 (ChaCha), known from the CLI: the same for every run.
                Check("seed 7 deal is the CLI's",
                    deal.ToOneLine() == "n KJ.AJT74.T543.75 e AQT8743.KQ.KJ.A9 s 95.82.A7.QJ86432 w 62.9653.Q9862.KT ",
                    deal.ToOneLine());
                Check("DD table: no par asked gives empty text",
                    session.DdsTable(deal).ParContract == "" && session.DdsTable(deal).ParScoreNs == 0);
            }
        });

        Test("mixed board set", () =>
        {
            var text = new StringBuilder();
            using (var session = new DealerSession())
            {
                session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT, (Action<string>)(s => text.Append(s)));
                session.Seed = 6;
                session.SetOption("produce", "6");
                session.SetOption("format", "jsonl");
                session.AddScenario("strong", "condition hcp(north) >= 20\n");
                session.AddScenario("weak2", "dealer west\ncondition spades(west) >= 6\n", 0.0, 2);
                bool refused = false;
                try { session.AddScenario("broken", "condition hcp(north) >"); }
                catch (DealerException e) { refused = e.Message.Contains("in scenario broken"); }
                Check("AddScenario refuses a script error, naming the scenario", refused);
                session.Run();
                session.ClearScenarios();
            }
            string output = text.ToString();
            int weak = output.Split(new[] { "\"scenario\":\"weak2\"" }, StringSplitOptions.None).Length - 1;
            Check("mixed set: 6 boards, 2 of them weak2", output.Contains("\"board\":6,") && !output.Contains("\"board\":7,") && weak == 2, output);
        });

        Test("reading deals", () =>
        {
            // Three deals (seed 12) as PBN records with their double-dummy tables, and dealt one by one.
            var pbn = new StringBuilder();
            var expected = new StringBuilder();
            using (var session = new DealerSession())
            {
                session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT, (Action<string>)(s => pbn.Append(s)));
                session.Seed = 12;
                session.SetOption("format", "pbn");
                session.SetOption("pbn_dd", "true");
                session.LoadScript("produce 3\n");
                session.Run();
                session.LoadScript("produce 3\n");
                foreach (Deal deal in session.Deals()) expected.Append(deal.ToOneLine()).Append('\n');
            }
            Check("reading deals: 3 PBN records with tables",
                Regex.Matches(pbn.ToString(), @"\[OptimumResultTable ").Count == 3 && expected.ToString().Split('\n').Length == 4,
                pbn.ToString());
            string bad = "n AKQJ.AKQ.AKQ.AKQ e T987.JT9.JT9.JT9 s 6543.876.876.876 w 2.5432.5432.5432\n"
                + "n AKQJ.AKQ.AKQ.AKQ e T987.JT9.JT9.JT9 s 6543.876.876.876 w 2.5432.5432.543X\n";
            string path = Path.Combine(Path.GetTempPath(), "libdealer-test-" + System.Diagnostics.Process.GetCurrentProcess().Id + ".pbn");
            try
            {
                File.WriteAllText(path, pbn.ToString());
                var text = new StringBuilder();
                using (var session = new DealerSession())
                {
                    session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT, (Action<string>)(s => text.Append(s)));
                    session.LoadScript("action printoneline, average dds(north, notrump)\n");
                    session.SetInputData(pbn.ToString());
                    RunReport report = session.Run();
                    Check("SetInputData(string): the records' deals through the script",
                        text.ToString().StartsWith(expected.ToString()) && report.Produced == 3 && report.Generated == 3,
                        text.ToString());
                    string summary = session.LastSummary;
                    Check("SetInputData: the summary counts the records and no table is solved",
                        summary.Contains("\"input\":{\"name\":\"input data\",\"format\":\"pbn\",\"records_read\":3,\"malformed_skipped\":0,"
                            + "\"off_predeal_skipped\":0,\"dd_read\":3,\"dd_verified\":0}")
                        && summary.Contains("\"dd\":{\"thresholds\":0,\"exact\":0,\"tables\":0,"), summary);
                    text.Clear();
                    session.SetInputData(Encoding.UTF8.GetBytes(pbn.ToString()));
                    session.Run();
                    Check("SetInputData(byte[]): the same deals", text.ToString().StartsWith(expected.ToString()), text.ToString());
                    text.Clear();
                    session.SetInputFile(path);
                    session.Run();
                    Check("SetInputFile: the same deals, the file named",
                        text.ToString().StartsWith(expected.ToString()) && session.LastSummary.Contains(Path.GetFileName(path) + "\",\"format\":\"pbn\""),
                        session.LastSummary);
                    session.LoadScript("action printoneline\n");
                    session.SetInputData(bad);
                    int status = 0;
                    string message = "";
                    try { session.Run(); }
                    catch (DealerException e) { status = e.Status; message = e.Message; }
                    Check("a malformed record: DEALER_ERROR_IO naming its line",
                        status == DealerStatus.DEALER_ERROR_IO && message.StartsWith("input data:2:75: 'X' is not a card rank"), message);
                    session.SetOption("input_errors", "skip");
                    var notices = new StringBuilder();
                    session.SetOutput(DealerStream.DEALER_STREAM_DIAGNOSTICS, (Action<string>)(s => notices.Append(s)));
                    session.Run();
                    Check("input_errors skip: counted", session.LastSummary.Contains("\"records_read\":2,\"malformed_skipped\":1,"), session.LastSummary);
                    Check("input_errors skip: a notice on the diagnostics stream",
                        notices.ToString().StartsWith("skipped a malformed record: input data:2:75: "), notices.ToString());
                    session.SetInputData(new byte[0]);
                    RunReport none = session.Run();
                    Check("an empty input: no deal", none.Produced == 0 && session.LastSummary.Contains("\"records_read\":0,"), session.LastSummary);
                    session.ClearInput();
                    session.Seed = 12;
                    session.Produce = 3;
                    text.Clear();
                    session.Run();
                    Check("ClearInput: the session deals again",
                        text.ToString().StartsWith(expected.ToString()) && !session.LastSummary.Contains("\"input\""), text.ToString());
                }
            }
            finally
            {
                File.Delete(path);
            }
        });

        Test("output callback", () =>
        {
            if (script7 == null || cliOutput7 == null)
            {
                Check("output callback = CLI (needs --script7 and --cli-output7)", false);
                return;
            }
            var text = new StringBuilder();
            RunReport report;
            using (var session = new DealerSession())
            {
                session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT, (Action<string>)(s => text.Append(s)));
                session.Seed = 7;
                session.LoadScriptFile(script7);
                // Collect garbage while the delegate is held only by the session.
                GC.Collect();
                GC.WaitForPendingFinalizers();
                report = session.Run();
            }
            string expected = File.ReadAllText(cliOutput7);
            Check("SetOutput capture (seed 7) = CLI stdout (time masked)",
                MaskTime(text.ToString()) == MaskTime(expected) && expected.Contains("\nn "),
                "got:\n" + text + "\nexpected:\n" + expected);
            Check("RunReport: generated 5 produced 5 seed 7",
                report.Status == DealerStatus.DEALER_OK && report.Produced == 5 && report.Generated >= 5 && report.Seed == 7,
                "status " + report.Status + " generated " + report.Generated + " produced " + report.Produced + " seed " + report.Seed);
            using (var session = new DealerSession())
            {
                session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT, (Action<string>)(s => { }));
                session.Seed = 3;
                session.LoadScript("generate 2000\naction average hcp(north)\n");
                Check("LastSummary: empty before a run", session.LastSummary == "", session.LastSummary);
                session.Run();
                string summary = session.LastSummary;
                Check("LastSummary: the run's JSON summary with the average's interval",
                    summary.StartsWith("{\"schema\":1,\"type\":\"summary\",\"generated\":2000,")
                    && summary.Contains("\"statistics\":[{\"type\":\"average\",\"label\":null,\"count\":2000,\"mean\":"),
                    summary);
            }
        });

        Test("output to TextWriter and Stream", () =>
        {
            var writer = new StringWriter();
            var stream = new MemoryStream();
            using (var session = new DealerSession())
            {
                session.SetOption("statistics", "false");
                session.Seed = 7;
                session.Generate = 1000;
                session.Produce = 5;
                session.LoadScript("action printoneline\n");
                session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT, writer);
                session.Run();
                session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT, stream);
                session.Run();
            }
            string viaStream = Encoding.UTF8.GetString(stream.ToArray());
            Check("TextWriter output: 5 lines", writer.ToString().Split('\n').Count(l => l.StartsWith("n ")) == 5,
                writer.ToString());
            Check("Stream output = TextWriter output", viaStream == writer.ToString());
        });

        Test("callback exception", () =>
        {
            using (var session = new DealerSession())
            {
                session.Produce = 2;
                session.LoadScript("action printoneline\n");
                session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT,
                    (Action<string>)(s => { throw new InvalidOperationException("boom"); }));
                try
                {
                    session.Run();
                    Check("throwing callback stops the run", false);
                }
                catch (DealerException e)
                {
                    Check("throwing callback: DEALER_ERROR_IO with the callback's exception inside",
                        e.Status == DealerStatus.DEALER_ERROR_IO && e.InnerException is InvalidOperationException,
                        DealerStatus.Name(e.Status) + " " + e.InnerException);
                }
            }
        });

        Test("usereval", () =>
        {
            using (var session = new DealerSession())
            {
                DealerUserevalQuery lastQuery = new DealerUserevalQuery();
                DealerHandStats[] lastStats = null;
                Deal lastDeal = null;
                session.SetUsereval((query, deal, stats, results) =>
                {
                    lastQuery = query;
                    lastStats = stats;
                    lastDeal = deal;
                    // Slot i: the side's hcp times 1000 plus i.
                    int hcp = query.side == 0 ? stats[0].total_hcp + stats[2].total_hcp
                                              : stats[1].total_hcp + stats[3].total_hcp;
                    for (int i = 0; i < results.Length; i++) results[i] = hcp * 1000 + i;
                    return true;
                });
                GC.Collect();
                GC.WaitForPendingFinalizers();
                session.Seed = 5;
                session.LoadScript("produce 1\n");
                Deal first = session.Deals().First();
                int ns = session.Eval("hcp(north) + hcp(south)");
                int v = session.Eval("usereval(7, NS, 3)");
                Check("usereval metric: value from the managed callback", v == ns * 1000 + 3, v + " vs " + (ns * 1000 + 3));
                Check("usereval metric: query tag, side and index", lastQuery.tag == 7 && lastQuery.side == 0 && lastQuery.index == 3,
                    "tag " + lastQuery.tag + " side " + lastQuery.side + " index " + lastQuery.index);
                Check("usereval metric: the deal and seat statistics passed",
                    lastDeal != null && lastDeal.ToPbn() == first.ToPbn() && lastStats != null &&
                    lastStats[0].seat == 0 && lastStats[3].seat == 3 &&
                    lastStats[1].total_hcp == session.Eval("hcp(east)") &&
                    lastStats[2].lengths.Sum() == 13 && lastStats[2].has_card.Sum() == 13);
                session.SetUsereval((query, deal, stats, results) => false);
                try
                {
                    session.Deals().First();
                    session.Eval("usereval(8, EW, 1)");
                    Check("usereval metric returning false: DEALER_ERROR_RUN", false);
                }
                catch (DealerException e)
                {
                    Check("usereval metric returning false: DEALER_ERROR_RUN", e.Status == DealerStatus.DEALER_ERROR_RUN,
                        DealerStatus.Name(e.Status) + " " + e.Message);
                }
            }
        });

        Test("dispose", () =>
        {
            var session = new DealerSession();
            session.LoadScript("produce 1\n");
            session.Dispose();
            session.Dispose();
            Check("Dispose twice is safe", true);
            try
            {
                session.Eval("hcp(north)");
                Check("Eval after Dispose throws ObjectDisposedException", false);
            }
            catch (ObjectDisposedException)
            {
                Check("Eval after Dispose throws ObjectDisposedException", true);
            }
            try
            {
                session.Seed = 1;
                Check("Seed after Dispose throws ObjectDisposedException", false);
            }
            catch (ObjectDisposedException)
            {
                Check("Seed after Dispose throws ObjectDisposedException", true);
            }
            try
            {
                session.Deals();
                Check("Deals after Dispose throws ObjectDisposedException", false);
            }
            catch (ObjectDisposedException)
            {
                Check("Deals after Dispose throws ObjectDisposedException", true);
            }
        });

        Test("interrupter", () =>
        {
            using (var session = new DealerSession())
            using (var interrupter = session.CreateInterrupter())
            {
                session.LoadScript("generate 1000000\nproduce 1000000\ncondition hcp(north) > 5\n");
                interrupter.Interrupt();
                try
                {
                    session.Deals().Count();
                    Check("interrupted Deals() throws", false);
                }
                catch (DealerException e)
                {
                    Check("interrupted Deals(): DEALER_INTERRUPTED", e.Status == DealerStatus.DEALER_INTERRUPTED,
                        DealerStatus.Name(e.Status));
                }
            }
        });

        // A complete deal written out by hand: North AKQ2.K32.A92.T98 holds 16 points, East
        // 17, South 7, West 0.
        const string KnownPbn = "N:AKQ2.K32.A92.T98 JT9.AQ7.KQ3.AJ73 8765.JT98.J54.KQ 43.654.T876.6542";

        Test("pbn round trip", () =>
        {
            using (var session = new DealerSession())
            {
                session.Seed = 21;
                session.Produce = 6;
                session.LoadScript("condition hcp(south) >= 8\n");
                var deals = session.Deals().ToList();
                Check("6 deals to read back", deals.Count == 6, deals.Count.ToString());
                bool same = deals.All(d => session.ParseDeal(d.ToPbn()).Hands.SequenceEqual(d.Hands));
                Check("ParseDeal(ToPbn()) gives the same deal (6 deals)", same);
                bool viaDeal = deals.All(d => Deal.FromPbn(session, d.ToPbn()).ToPbn() == d.ToPbn());
                Check("Deal.FromPbn(session, ToPbn()).ToPbn() is the text", viaDeal);
                // The same deal from West's hand, in lower case: four hands clockwise from W.
                string[] hands = deals[0].ToPbn().Substring(2).Split(' ');
                string fromWest = ("w:" + hands[3] + " " + hands[0] + " " + hands[1] + " " + hands[2]).ToLowerInvariant();
                Check("a lower-case PBN starting with West reads as the same deal",
                    session.ParseDeal(fromWest).Hands.SequenceEqual(deals[0].Hands), fromWest);
                Deal known = session.ParseDeal(KnownPbn);
                Check("the hand-written deal reads back to its text", known.ToPbn() == KnownPbn, known.ToPbn());
                // North's spades AKQ2: ace 12, king 11, queen 10, deuce 0, spades bits 48..63.
                ulong spades = (known.North >> 48) & 0x1fff;
                Check("North's spades are the bits of A K Q 2", spades == ((1UL << 12) | (1UL << 11) | (1UL << 10) | 1UL),
                    Convert.ToString((long)spades, 2));
                Deal partial = session.ParseDeal("N:AKQ2.K32.A92.T98 - - -");
                Check("an incomplete deal: North's 13 cards, the others empty",
                    CountBits(partial.North) == 13 && partial.East == 0 && partial.South == 0 && partial.West == 0);
            }
        });

        Test("bad pbn", () =>
        {
            using (var session = new DealerSession())
            {
                // Columns from 1: the X is the 6th character, the second club ace the 69th.
                var cases = new[]
                {
                    Tuple.Create("N:AKQX.K32.A92.T98 JT9.AQ7.KQ3.AJ73 8765.JT98.J54.KQ 43.654.T876.6542", 6, "unexpected character 'X'"),
                    Tuple.Create("N:AKQ2.K32.A92.T98 JT9.AQ7.KQ3.AJ73 8765.JT98.J54.KQ 43.654.T876.654A", 69, "the card CA appears twice"),
                    Tuple.Create("X:AKQ2.K32.A92.T98 - - -", 1, "seat"),
                };
                foreach (var c in cases)
                {
                    try
                    {
                        session.ParseDeal(c.Item1);
                        Check("bad PBN throws: " + c.Item1, false, "no exception");
                    }
                    catch (DealerException e)
                    {
                        Check("bad PBN column " + c.Item2 + ": DEALER_ERROR_USAGE, line 1, column, message",
                            e.Status == DealerStatus.DEALER_ERROR_USAGE && e.Line == 1 && e.Column == c.Item2 &&
                            e.Message.Contains("bad PBN deal") && e.Message.Contains(c.Item3) &&
                            e.FullText.Contains("column " + c.Item2),
                            DealerStatus.Name(e.Status) + " line " + e.Line + " column " + e.Column + ": " + e.Message);
                    }
                }
            }
        });

        Test("set deal", () =>
        {
            using (var session = new DealerSession())
            {
                Deal known = session.ParseDeal(KnownPbn);
                try
                {
                    session.SetDeal(known);
                    Check("SetDeal without a script throws", false, "no exception");
                }
                catch (DealerException e)
                {
                    Check("SetDeal without a script: DEALER_ERROR_USAGE", e.Status == DealerStatus.DEALER_ERROR_USAGE,
                        DealerStatus.Name(e.Status));
                }
                session.Seed = 5;
                session.LoadScript("condition hcp(north) >= 20\n");
                Deal first = session.NextDeal();
                session.SetDeal(known);
                int[] hcp = { session.Eval("hcp(north)"), session.Eval("hcp(east)"), session.Eval("hcp(south)"), session.Eval("hcp(west)") };
                Check("SetDeal, then Eval hcp: 16 17 7 0", hcp.SequenceEqual(new[] { 16, 17, 7, 0 }), string.Join(" ", hcp));
                uint id = session.CompileExpression("shape(north, 4333)");
                Check("SetDeal, then EvalCompiled shape(north, 4333) is 1", session.EvalCompiled(id) == 1);
                DdsResult current = session.DdsTable();
                DdsResult direct = session.DdsTable(known);
                bool sameTable = true;
                for (int d = 0; d < 4; d++)
                    for (int t = 0; t < 5; t++)
                        sameTable &= current.Tricks[d, t] == direct.Tricks[d, t];
                Check("SetDeal, then DdsTable() = DdsTable(deal)", sameTable);
                try
                {
                    session.SetDeal(session.ParseDeal("N:AKQ2.K32.A92.T98 - - -"));
                    Check("SetDeal of an incomplete deal throws", false, "no exception");
                }
                catch (DealerException e)
                {
                    Check("SetDeal of an incomplete deal: DEALER_ERROR_USAGE", e.Status == DealerStatus.DEALER_ERROR_USAGE,
                        DealerStatus.Name(e.Status));
                }
                // The dealing goes on where it was: the next deal is what a fresh session's
                // second deal is.
                Deal second = session.NextDeal();
                using (var fresh = new DealerSession())
                {
                    fresh.Seed = 5;
                    fresh.LoadScript("condition hcp(north) >= 20\n");
                    Deal a = fresh.NextDeal(), b = fresh.NextDeal();
                    Check("SetDeal does not advance the dealing",
                        a.ToPbn() == first.ToPbn() && b.ToPbn() == second.ToPbn(), b.ToPbn() + " vs " + second.ToPbn());
                }
            }
        });

        Test("next deals", () =>
        {
            const string script = "condition hcp(north) >= 12 && hcp(south) >= 10\n";
            string[] expressions = { "hcp(north)", "hcp(south)", "spades(north) >= 4", "hcp(east) - hcp(west)" };
            using (var batch = new DealerSession())
            using (var single = new DealerSession())
            {
                batch.Seed = single.Seed = 99;
                batch.LoadScript(script);
                single.LoadScript(script);
                uint[] ids = expressions.Select(e => batch.CompileExpression(e)).ToArray();
                DealBatch got = batch.NextDeals(8, ids);
                Check("NextDeals(8): 8 deals, 8 x 4 values, not Done",
                    got.Deals.Length == 8 && got.Values.GetLength(0) == 8 && got.Values.GetLength(1) == 4 && !got.Done,
                    got.Deals.Length + " deals");
                bool sameDeals = true, sameValues = true;
                for (int i = 0; i < got.Deals.Length; i++)
                {
                    Deal one = single.NextDeal();
                    sameDeals &= one != null && one.ToPbn() == got.Deals[i].ToPbn();
                    for (int j = 0; j < expressions.Length; j++)
                        sameValues &= single.Eval(expressions[j]) == got.Values[i, j];
                }
                Check("NextDeals = NextDeal one by one (same seed)", sameDeals);
                Check("NextDeals values = Eval on each deal", sameValues);
                Check("the last deal is the current deal",
                    batch.Eval("hcp(north)") == got.Values[7, 0] && batch.Eval("hcp(south)") == got.Values[7, 1]);
                DealBatch more = batch.NextDeals(3);
                Deal next = single.NextDeal();
                Check("NextDeals without ids goes on with the dealing (no values)",
                    more.Deals.Length == 3 && more.Values.GetLength(1) == 0 && more.Deals[0].ToPbn() == next.ToPbn());
            }
            using (var batch = new DealerSession())
            using (var single = new DealerSession())
            {
                // The generate limit ends the dealing before 50 deals are found (plain dealing:
                // smart dealing would draw North's 16+ hands directly, one per deal generated).
                const string limited = "generate 300\ncondition hcp(north) >= 16\n";
                batch.Seed = single.Seed = 4;
                batch.SetOption("smart", "off");
                single.SetOption("smart", "off");
                batch.LoadScript(limited);
                single.LoadScript(limited);
                DealBatch got = batch.NextDeals(50, batch.CompileExpression("hcp(north)"));
                var expected = single.Deals().ToList();
                Check("NextDeals at the generate limit: Done, the deals NextDeal gives until null",
                    got.Done && got.Deals.Length == expected.Count && expected.Count > 0 && expected.Count < 50 &&
                    got.Deals.Select(d => d.ToPbn()).SequenceEqual(expected.Select(d => d.ToPbn())),
                    got.Deals.Length + " vs " + expected.Count);
                bool inRange = true;
                for (int i = 0; i < got.Deals.Length; i++) inRange &= got.Values[i, 0] >= 16;
                Check("NextDeals values satisfy the condition (hcp(north) >= 16)", inRange);
                try
                {
                    batch.NextDeals(2, 12345u);
                    Check("NextDeals with an unknown id throws", false, "no exception");
                }
                catch (DealerException e)
                {
                    Check("NextDeals with an unknown id: DEALER_ERROR_USAGE", e.Status == DealerStatus.DEALER_ERROR_USAGE,
                        DealerStatus.Name(e.Status));
                }
            }
        });

        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    private static int CountBits(ulong x)
    {
        int n = 0;
        while (x != 0) { x &= x - 1; n++; }
        return n;
    }
}
