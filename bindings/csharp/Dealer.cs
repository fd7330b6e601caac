// Dealer.cs -- a C# binding of libdealer's C API (include/dealer.h), namespace Libdealer.
//
// Drop this one file into a project (it needs no other package). The native library is loaded
// by the name "dealer": libdealer.so on Linux (Mono/.NET find it through LD_LIBRARY_PATH or
// beside the program), dealer.dll on Windows, libdealer.dylib on macOS.
//
// Layers:
//   * Native: one [DllImport] per dealer_* function of the header, the records as sequential
//     structs (Marshal.SizeOf of each equals the C sizeof: see tests/bindings_csharp.sh) and the
//     callback delegates;
//   * DealerStatus and friends: every DEALER_* constant;
//   * DealerSession (IDisposable, over a SafeHandle), Deal, RunReport, DdsResult,
//     DealerInterrupter and DealerException: the typed API.
//
// Thread safety: a DealerSession is used by one thread at a time (the library's rule for a
// dealer_session); different sessions may run on different threads at once. Only
// DealerInterrupter.Interrupt may be called from any thread while a session runs.

using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;

namespace Libdealer
{
    /// <summary>Status codes returned by the C API (DEALER_OK, DEALER_DONE, DEALER_ERROR_*…).</summary>
    public static class DealerStatus
    {
        public const int DEALER_OK = 0;
        public const int DEALER_DONE = 1;
        public const int DEALER_TIMED_OUT = 2;
        public const int DEALER_CEILING_REACHED = 3;
        public const int DEALER_ERROR_SCRIPT = -1;
        public const int DEALER_ERROR_OPTION = -2;
        public const int DEALER_ERROR_IO = -3;
        public const int DEALER_ERROR_NOT_AVAILABLE = -4;
        public const int DEALER_ERROR_RUN = -5;
        public const int DEALER_ERROR_USAGE = -6;
        public const int DEALER_ERROR_NULL = -7;
        public const int DEALER_ERROR_UTF8 = -8;
        public const int DEALER_ERROR_INTERNAL = -9;
        public const int DEALER_INTERRUPTED = -10;
        public const int DEALER_ERROR_NOT_ALLOWED = -11;

        /// <summary>The constant's name for a status code, e.g. "DEALER_ERROR_SCRIPT".</summary>
        public static string Name(int status)
        {
            switch (status)
            {
                case DEALER_OK: return "DEALER_OK";
                case DEALER_DONE: return "DEALER_DONE";
                case DEALER_TIMED_OUT: return "DEALER_TIMED_OUT";
                case DEALER_CEILING_REACHED: return "DEALER_CEILING_REACHED";
                case DEALER_ERROR_SCRIPT: return "DEALER_ERROR_SCRIPT";
                case DEALER_ERROR_OPTION: return "DEALER_ERROR_OPTION";
                case DEALER_ERROR_IO: return "DEALER_ERROR_IO";
                case DEALER_ERROR_NOT_AVAILABLE: return "DEALER_ERROR_NOT_AVAILABLE";
                case DEALER_ERROR_RUN: return "DEALER_ERROR_RUN";
                case DEALER_ERROR_USAGE: return "DEALER_ERROR_USAGE";
                case DEALER_ERROR_NULL: return "DEALER_ERROR_NULL";
                case DEALER_ERROR_UTF8: return "DEALER_ERROR_UTF8";
                case DEALER_ERROR_INTERNAL: return "DEALER_ERROR_INTERNAL";
                case DEALER_INTERRUPTED: return "DEALER_INTERRUPTED";
                case DEALER_ERROR_NOT_ALLOWED: return "DEALER_ERROR_NOT_ALLOWED";
                default: return "status " + status;
            }
        }
    }

    /// <summary>DEALER_CEILING_*: which ceiling stopped a run (RunReport.Ceiling).</summary>
    public static class DealerCeiling
    {
        public const int DEALER_CEILING_NONE = 0;
        public const int DEALER_CEILING_TIME = 1;
        public const int DEALER_CEILING_GENERATE = 2;
        public const int DEALER_CEILING_OUTPUT = 3;
    }

    /// <summary>DEALER_STREAM_*: the output streams of DealerSession.SetOutput.</summary>
    public static class DealerStream
    {
        public const int DEALER_STREAM_OUTPUT = 0;
        public const int DEALER_STREAM_DIAGNOSTICS = 1;
        public const int DEALER_STREAM_CSV = 2;
        public const int DEALER_STREAM_EXPORT = 3;
        public const int DEALER_STREAM_DEALS = 4;
    }

    /// <summary>DEALER_GENERATOR_*: values of DealerSession.Generator.</summary>
    public static class DealerGenerator
    {
        public const int DEALER_GENERATOR_CHACHA = 0;
        public const int DEALER_GENERATOR_DRAND48 = 1;
        public const int DEALER_GENERATOR_GLIBC = 2;
    }

    /// <summary>DEALER_DIALECT_*: values of DealerSession.Dialect.</summary>
    public static class DealerDialect
    {
        public const int DEALER_DIALECT_V2 = 0;
        public const int DEALER_DIALECT_CLASSIC = 1;
    }

    /// <summary>DEALER_CHECK_*: flavours of DealerSession.CheckScript.</summary>
    public static class DealerCheck
    {
        public const int DEALER_CHECK_BBO = 1;
    }

    /// <summary>DEALER_NORTH … DEALER_WEST: seat indexes (Deal.Hands, SetPredeal).</summary>
    public static class DealerSeat
    {
        public const int DEALER_NORTH = 0;
        public const int DEALER_EAST = 1;
        public const int DEALER_SOUTH = 2;
        public const int DEALER_WEST = 3;
    }

    /// <summary>DEALER_VERSION_*: the version of the header this file was written against.</summary>
    public static class DealerVersion
    {
        public const int DEALER_VERSION_MAJOR = 0;
        public const int DEALER_VERSION_MINOR = 1;
        public const int DEALER_VERSION_PATCH = 0;
        /// <summary>major * 10000 + minor * 100 + patch, to compare with Native.dealer_version_number().</summary>
        public const uint Number = DEALER_VERSION_MAJOR * 10000 + DEALER_VERSION_MINOR * 100 + DEALER_VERSION_PATCH;
    }

    /// <summary>dealer_deal: four card masks, North 0 … West 3 (bit 16 * suit + rank).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DealerDealRecord
    {
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 4)]
        public ulong[] hands;
    }

    /// <summary>dealer_run_report; the wrapper sets size.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DealerRunReportRecord
    {
        public uint size;
        public long generated;
        public long produced;
        public ulong seed;
        public int ceiling;
    }

    /// <summary>dealer_dds_results; tricks is [declarer * 5 + strain] (the C tricks[4][5]).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DealerDdsResultsRecord
    {
        public uint size;
        public int par_vulnerability;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 20)]
        public int[] tricks;
        public int par_score_ns;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 32)]
        public byte[] par_contract;
    }

    /// <summary>dealer_usereval_query: one usereval call of the script.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DealerUserevalQuery
    {
        public int tag;
        public int side;
        public int hand_flag;
        public int hand;
        public int suit_flag;
        public int suit;
        public int index;
        public long generated;
        public long produced;
    }

    /// <summary>dealer_hand_stats: one seat's statistics for a usereval metric. Two-dimensional C
    /// arrays are flattened row by row: counts[t * 4 + suit], top_cards[suit * 3 + i],
    /// has_card[suit * 13 + rank].</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DealerHandStats
    {
        public int seat;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 4)] public int[] lengths;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 4)] public int[] hcp;
        public int total_hcp;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 4)] public int[] losers;
        public int total_losers;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 4)] public int[] controls;
        public int total_controls;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 44)] public int[] counts;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 11)] public int[] total_counts;
        public int square_hand;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 4)] public int[] ltc;
        public int total_ltc;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 12)] public int[] top_cards;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 52)] public int[] has_card;
    }

    /// <summary>A dealer_session handle: ReleaseHandle calls dealer_free_session.</summary>
    public sealed class SessionHandle : SafeHandle
    {
        public SessionHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle()
        {
            Native.dealer_free_session(handle);
            return true;
        }
    }

    /// <summary>A dealer_interrupter handle: ReleaseHandle calls dealer_free_interrupter.</summary>
    public sealed class InterrupterHandle : SafeHandle
    {
        public InterrupterHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle()
        {
            Native.dealer_free_interrupter(handle);
            return true;
        }
    }

    /// <summary>The C API, one declaration per function of include/dealer.h.</summary>
    internal static class Native
    {
        private const string Library = "dealer";

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate int dealer_write_fn(IntPtr data, UIntPtr len, IntPtr userdata);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate int dealer_usereval_fn(IntPtr query, IntPtr deal, IntPtr stats, IntPtr results, IntPtr userdata);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_create_session(out SessionHandle session);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern void dealer_free_session(IntPtr session);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_create_interrupter(SessionHandle session, out InterrupterHandle interrupter);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern void dealer_interrupt(InterrupterHandle interrupter);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern void dealer_free_interrupter(IntPtr interrupter);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_option(SessionHandle session, byte[] key, byte[] value);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_untrusted(SessionHandle session, int enabled);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_seed(SessionHandle session, long seed);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_get_seed(SessionHandle session, out long seed);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_generator(SessionHandle session, int generator);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_dialect(SessionHandle session, int dialect);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_generate(SessionHandle session, long limit);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_produce(SessionHandle session, long limit);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_threads(SessionHandle session, uint threads);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_variable(SessionHandle session, uint index, byte[] value);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_predeal(SessionHandle session, int seat, byte[] cards);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_usereval(SessionHandle session, dealer_usereval_fn callback, IntPtr userdata);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_load_script(SessionHandle session, byte[] text, UIntPtr len);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_needs_double_dummy(SessionHandle session);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_load_script_file(SessionHandle session, byte[] path);
        /// <summary>dealer_set_input_data: data null with len 0 removes the input.</summary>
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_input_data(SessionHandle session, byte[] data, UIntPtr len);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_mix_add(SessionHandle session, byte[] name, byte[] text, UIntPtr len, double weight, long count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_mix_clear(SessionHandle session);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_merge_add(SessionHandle session, byte[] path);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_merge_clear(SessionHandle session);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_check_script(SessionHandle session, byte[] text, UIntPtr len, int flavour, dealer_write_fn callback, IntPtr userdata);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_output(SessionHandle session, int stream, dealer_write_fn callback, IntPtr userdata);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_output_fd(SessionHandle session, int stream, int fd);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_run(SessionHandle session, ref DealerRunReportRecord report);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_next_deal(SessionHandle session, out DealerDealRecord deal);
        /// <summary>dealer_next_deals: deals is count dealer_deal records flattened to 4 * count
        /// masks (null: not stored), values count * id_count ints (null when id_count is 0).</summary>
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_next_deals(SessionHandle session, UIntPtr count, [Out] ulong[] deals,
            [In] uint[] ids, uint id_count, [Out] int[] values, out UIntPtr produced);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_dds_table(SessionHandle session, [In] ref DealerDealRecord deal, ref DealerDdsResultsRecord table);
        /// <summary>dealer_dds_table with deal NULL: the session's current deal.</summary>
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, EntryPoint = "dealer_dds_table")]
        public static extern int dealer_dds_table_current(SessionHandle session, IntPtr deal, ref DealerDdsResultsRecord table);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_eval(SessionHandle session, byte[] expression, out int value);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_compile_expression(SessionHandle session, byte[] expression, out uint id);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_eval_compiled(SessionHandle session, uint id, out int value);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_set_deal(SessionHandle session, [In] ref DealerDealRecord deal);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr dealer_last_error(SessionHandle session);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr dealer_last_error_summary(SessionHandle session);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr dealer_last_summary(SessionHandle session);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_last_error_location(SessionHandle session, out uint line, out uint col);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_last_error_exit_code(SessionHandle session);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern UIntPtr dealer_deal_to_pbn([In] ref DealerDealRecord deal, byte[] buffer, UIntPtr size);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern UIntPtr dealer_deal_to_oneline([In] ref DealerDealRecord deal, byte[] buffer, UIntPtr size);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern int dealer_deal_from_pbn(SessionHandle session, byte[] text, out DealerDealRecord deal);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr dealer_version();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        public static extern uint dealer_version_number();

        /// <summary>A string as NUL-terminated UTF-8 bytes (null stays null).</summary>
        public static byte[] Utf8z(string s)
        {
            if (s == null) return null;
            byte[] text = Encoding.UTF8.GetBytes(s);
            byte[] z = new byte[text.Length + 1];
            Buffer.BlockCopy(text, 0, z, 0, text.Length);
            return z;
        }

        /// <summary>A NUL-terminated UTF-8 string owned by the library (never freed here).</summary>
        public static string FromUtf8z(IntPtr p)
        {
            if (p == IntPtr.Zero) return "";
            int len = 0;
            while (Marshal.ReadByte(p, len) != 0) len++;
            byte[] bytes = new byte[len];
            Marshal.Copy(p, bytes, 0, len);
            return Encoding.UTF8.GetString(bytes);
        }
    }

    /// <summary>A failed call: Status is the DEALER_ERROR_* code, Line and Column the script
    /// position (0 when none), Message the one-line summary (dealer_last_error_summary) and
    /// FullText the full message with the script excerpt and caret (dealer_last_error).</summary>
    public class DealerException : Exception
    {
        public int Status { get; private set; }
        public int Line { get; private set; }
        public int Column { get; private set; }
        /// <summary>The one-line message as the peers print it.</summary>
        public string Summary { get; private set; }
        /// <summary>The full message (dealer_last_error).</summary>
        public string FullText { get; private set; }
        /// <summary>The exit status the peers use for this error (dealer_last_error_exit_code).</summary>
        public int ExitCode { get; private set; }

        public DealerException(int status, int line, int column, string summary, string fullText,
            int exitCode, Exception inner)
            : base(string.IsNullOrEmpty(summary) ? (string.IsNullOrEmpty(fullText) ? DealerStatus.Name(status) : fullText) : summary, inner)
        {
            Status = status;
            Line = line;
            Column = column;
            Summary = summary;
            FullText = fullText;
            ExitCode = exitCode;
        }
    }

    /// <summary>A deal: four card masks, North 0, East 1, South 2, West 3; in each, bit
    /// 16 * suit + rank (clubs 0 … spades 3, deuce 0 … ace 12).</summary>
    public sealed class Deal
    {
        private readonly ulong[] hands;

        public Deal(ulong north, ulong east, ulong south, ulong west)
        {
            hands = new[] { north, east, south, west };
        }

        internal Deal(DealerDealRecord record)
        {
            hands = (ulong[])record.hands.Clone();
        }

        /// <summary>A copy of the four masks, North first.</summary>
        public ulong[] Hands { get { return (ulong[])hands.Clone(); } }
        public ulong North { get { return hands[0]; } }
        public ulong East { get { return hands[1]; } }
        public ulong South { get { return hands[2]; } }
        public ulong West { get { return hands[3]; } }
        /// <summary>The mask of a seat (DealerSeat.DEALER_NORTH … DEALER_WEST).</summary>
        public ulong Hand(int seat) { return hands[seat]; }

        internal DealerDealRecord ToRecord()
        {
            return new DealerDealRecord { hands = (ulong[])hands.Clone() };
        }

        private delegate UIntPtr TextFn(ref DealerDealRecord deal, byte[] buffer, UIntPtr size);

        private string Text(TextFn fn)
        {
            DealerDealRecord record = ToRecord();
            byte[] buffer = new byte[128];
            int len = (int)fn(ref record, buffer, (UIntPtr)buffer.Length);
            if (len >= buffer.Length)
            {
                buffer = new byte[len + 1];
                len = (int)fn(ref record, buffer, (UIntPtr)buffer.Length);
            }
            return Encoding.UTF8.GetString(buffer, 0, len);
        }

        /// <summary>Reads a PBN [Deal] value such as "N:AKQ2.K32.A92.T98 JT9.AQ7.KQ3.AJ73 …" (the
        /// first hand's seat, then four hands clockwise, "-" for an empty one); the same as
        /// session.ParseDeal(text), which see.</summary>
        public static Deal FromPbn(DealerSession session, string text)
        {
            if (session == null) throw new ArgumentNullException("session");
            return session.ParseDeal(text);
        }

        /// <summary>The PBN [Deal] value, "N:AKQ.… …" (dealer_deal_to_pbn).</summary>
        public string ToPbn() { return Text(Native.dealer_deal_to_pbn); }

        /// <summary>The printoneline text without the line end (dealer_deal_to_oneline).</summary>
        public string ToOneLine() { return Text(Native.dealer_deal_to_oneline); }

        public override string ToString() { return ToPbn(); }
    }

    /// <summary>The counters of a finished DealerSession.Run.</summary>
    public sealed class RunReport
    {
        /// <summary>The status of the run: DEALER_OK, DEALER_TIMED_OUT, DEALER_CEILING_REACHED or DEALER_INTERRUPTED.</summary>
        public int Status { get; internal set; }
        public long Generated { get; internal set; }
        public long Produced { get; internal set; }
        public ulong Seed { get; internal set; }
        /// <summary>DealerCeiling.DEALER_CEILING_*: the ceiling that stopped the run, NONE if none did.</summary>
        public int Ceiling { get; internal set; }
    }

    /// <summary>The deals of one DealerSession.NextDeals call and the values of its expressions.</summary>
    public sealed class DealBatch
    {
        /// <summary>The deals, in the order NextDeal would have returned them; fewer than asked
        /// for when the script's limits ended the dealing (then Done is true).</summary>
        public Deal[] Deals { get; internal set; }
        /// <summary>Values[i, j]: expression j (the ids passed, in order) on deal i; true is 1.
        /// Its first dimension is Deals.Length.</summary>
        public int[,] Values { get; internal set; }
        /// <summary>True when the generate/produce limit ended the dealing (DEALER_DONE).</summary>
        public bool Done { get; internal set; }
    }

    /// <summary>The double-dummy results of a deal.</summary>
    public sealed class DdsResult
    {
        /// <summary>Tricks[declarer, strain] in the header's order: declarer 0 North, 1 East,
        /// 2 South, 3 West; strain 0 clubs, 1 diamonds, 2 hearts, 3 spades, 4 notrump (a 4×5
        /// array); the lead comes from the declarer's left.</summary>
        public int[,] Tricks { get; internal set; }
        /// <summary>The par vulnerability asked for, -1 for none.</summary>
        public int ParVulnerability { get; internal set; }
        /// <summary>The par score for North–South (0 when no par was asked for).</summary>
        public int ParScoreNs { get; internal set; }
        /// <summary>DealerV2's par-contract text, e.g. " 4H  by NS both" (empty when no par).</summary>
        public string ParContract { get; internal set; }
    }

    /// <summary>Stops a session's run from any thread (dealer_interrupt). Disposing it frees the
    /// native interrupter; it stays valid after its session is disposed.</summary>
    public sealed class DealerInterrupter : IDisposable
    {
        private readonly InterrupterHandle handle;
        internal DealerInterrupter(InterrupterHandle handle) { this.handle = handle; }

        /// <summary>Stops the run in progress, or the next one, at the next deal. Safe from any thread.</summary>
        public void Interrupt()
        {
            if (handle.IsClosed) throw new ObjectDisposedException("DealerInterrupter");
            Native.dealer_interrupt(handle);
        }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>A usereval metric: fill results (128 slots) for query.side from the deal and the
    /// four seats' statistics (North first) and return true, or false to stop the run with
    /// DEALER_ERROR_RUN.</summary>
    public delegate bool UserevalMetric(DealerUserevalQuery query, Deal deal, DealerHandStats[] stats, int[] results);

    /// <summary>A libdealer session: options, a script, runs, deal iteration, evaluation and
    /// double dummy.</summary>
    /// <remarks>Not thread-safe: a session is used by one thread at a time (different sessions
    /// may be used on different threads at once); only a DealerInterrupter may act on it from
    /// another thread. Callbacks (SetOutput, SetUsereval) run on the thread that calls Run,
    /// Deals or the like, and must not call the session. Every failing call throws
    /// DealerException; any call after Dispose throws ObjectDisposedException. Dispose may be
    /// called more than once.</remarks>
    public sealed class DealerSession : IDisposable
    {
        private readonly SessionHandle handle;
        // Delegates handed to native code, kept here so that the GC does not collect them while
        // the session may call them (one per output stream, and the usereval callback).
        private readonly Native.dealer_write_fn[] outputCallbacks = new Native.dealer_write_fn[4];
        private Native.dealer_usereval_fn userevalCallback;
        /// <summary>True while a managed usereval metric is set.</summary>
        public bool HasUsereval { get { return userevalCallback != null; } }
        // An exception thrown by a managed callback, rethrown (as the inner exception) after the
        // native call returns.
        private Exception callbackException;
        private int generator = DealerGenerator.DEALER_GENERATOR_CHACHA;
        private int dialect = DealerDialect.DEALER_DIALECT_V2;
        private uint threads;
        private long produce;
        private long generate;

        /// <summary>Creates a session with default options (ChaCha generator, DealerV2 dialect).</summary>
        public DealerSession()
        {
            SessionHandle h;
            int status = Native.dealer_create_session(out h);
            if (status != DealerStatus.DEALER_OK || h == null || h.IsInvalid)
                throw new DealerException(status, 0, 0, "dealer_create_session failed", "", 2, null);
            handle = h;
        }

        /// <summary>The native handle (for calls through Native).</summary>
        public SessionHandle Handle { get { CheckDisposed(); return handle; } }

        /// <summary>The library version, e.g. "0.1.0".</summary>
        public static string LibraryVersion { get { return Native.FromUtf8z(Native.dealer_version()); } }

        /// <summary>The library version as major * 10000 + minor * 100 + patch.</summary>
        public static uint LibraryVersionNumber { get { return Native.dealer_version_number(); } }

        private void CheckDisposed()
        {
            if (handle.IsClosed) throw new ObjectDisposedException("DealerSession");
        }

        private int Check(int status)
        {
            Exception pending = callbackException;
            callbackException = null;
            if (status >= 0) return status;
            uint line, col;
            Native.dealer_last_error_location(handle, out line, out col);
            string full = Native.FromUtf8z(Native.dealer_last_error(handle));
            string summary = Native.FromUtf8z(Native.dealer_last_error_summary(handle));
            int exit = Native.dealer_last_error_exit_code(handle);
            throw new DealerException(status, (int)line, (int)col, summary, full, exit, pending);
        }

        /// <summary>The seed (dealer_set_seed / dealer_get_seed): get gives the last job's seed
        /// (or the next job's); 0 means a random seed.</summary>
        public long Seed
        {
            get { CheckDisposed(); long s; Check(Native.dealer_get_seed(handle, out s)); return s; }
            set { CheckDisposed(); Check(Native.dealer_set_seed(handle, value)); }
        }

        /// <summary>DealerGenerator.DEALER_GENERATOR_*; set before loading the script. Get returns the
        /// value last set through this property (the default ChaCha).</summary>
        public int Generator
        {
            get { CheckDisposed(); return generator; }
            set { CheckDisposed(); Check(Native.dealer_set_generator(handle, value)); generator = value; }
        }

        /// <summary>DealerDialect.DEALER_DIALECT_*; set before loading the script. Get returns the
        /// value last set through this property.</summary>
        public int Dialect
        {
            get { CheckDisposed(); return dialect; }
            set { CheckDisposed(); Check(Native.dealer_set_dialect(handle, value)); dialect = value; }
        }

        /// <summary>Threads for dealing and double dummy, 0 (one per core) to 64.</summary>
        public uint Threads
        {
            get { CheckDisposed(); return threads; }
            set { CheckDisposed(); Check(Native.dealer_set_threads(handle, value)); threads = value; }
        }

        /// <summary>The most deals a run produces (0: the script's produce).</summary>
        public long Produce
        {
            get { CheckDisposed(); return produce; }
            set { CheckDisposed(); Check(Native.dealer_set_produce(handle, value)); produce = value; }
        }

        /// <summary>The most deals a run generates (0: the script's generate).</summary>
        public long Generate
        {
            get { CheckDisposed(); return generate; }
            set { CheckDisposed(); Check(Native.dealer_set_generate(handle, value)); generate = value; }
        }

        /// <summary>Sets an option by key and value (see dealer_set_option in dealer.h).</summary>
        public void SetOption(string key, string value)
        {
            CheckDisposed();
            if (key == null) throw new ArgumentNullException("key");
            if (value == null) throw new ArgumentNullException("value");
            Check(Native.dealer_set_option(handle, Native.Utf8z(key), Native.Utf8z(value)));
        }

        /// <summary>Turns the untrusted mode on or off (dealer_set_untrusted).</summary>
        public void SetUntrusted(bool enabled)
        {
            CheckDisposed();
            Check(Native.dealer_set_untrusted(handle, enabled ? 1 : 0));
        }

        /// <summary>Sets script variable $index (0..9); call before loading the script.</summary>
        public void SetVariable(int index, string value)
        {
            CheckDisposed();
            if (value == null) throw new ArgumentNullException("value");
            if (index < 0) throw new ArgumentOutOfRangeException("index");
            Check(Native.dealer_set_variable(handle, (uint)index, Native.Utf8z(value)));
        }

        /// <summary>Predeals cards such as "SAKQ,HJ" to a seat (DealerSeat.*); null or "" removes them.</summary>
        public void SetPredeal(int seat, string cards)
        {
            CheckDisposed();
            Check(Native.dealer_set_predeal(handle, seat, Native.Utf8z(cards)));
        }

        /// <summary>Loads a script from text (replacing the previous one).</summary>
        public void LoadScript(string script)
        {
            CheckDisposed();
            if (script == null) throw new ArgumentNullException("script");
            byte[] text = Encoding.UTF8.GetBytes(script);
            Check(Native.dealer_load_script(handle, text, (UIntPtr)text.Length));
        }

        /// <summary>Checks a script as BBO's dealer (classic dealer) reads it, without loading it
        /// (DEALER_CHECK_BBO): returns the diagnostics, one "line:col: warning|error: message" line
        /// each; <paramref name="errors"/> is the number of errors (0: BBO accepts the script).</summary>
        public string[] CheckScript(string script, out int errors)
        {
            CheckDisposed();
            if (script == null) throw new ArgumentNullException("script");
            byte[] text = Encoding.UTF8.GetBytes(script);
            var lines = new List<string>();
            Native.dealer_write_fn callback = (data, len, userdata) =>
            {
                byte[] bytes = new byte[(int)len];
                if (bytes.Length > 0) Marshal.Copy(data, bytes, 0, bytes.Length);
                lines.Add(Encoding.UTF8.GetString(bytes).TrimEnd('\n'));
                return 0;
            };
            int status = Native.dealer_check_script(handle, text, (UIntPtr)text.Length, DealerCheck.DEALER_CHECK_BBO, callback, IntPtr.Zero);
            GC.KeepAlive(callback);
            Check(status);
            errors = status;
            return lines.ToArray();
        }

        /// <summary>Loads a script from a file; the path becomes printpbn's input name.</summary>
        public void LoadScriptFile(string path)
        {
            CheckDisposed();
            if (path == null) throw new ArgumentNullException("path");
            Check(Native.dealer_load_script_file(handle, Native.Utf8z(path)));
        }

        /// <summary>Reads the deals from board records in memory instead of dealing them
        /// (dealer_set_input_data): PBN, LIN, one-line, DL52, JSON Lines or ZRD bytes, copied into
        /// the session (the input_format option names the format; by default it is found from the
        /// first bytes). Run, NextDeal and Deals take each record's deal through the script, its
        /// board number, dealer, vulnerability and tags kept in printpbn, printlin and printjson
        /// output, and the double-dummy table it carries answers dds() without solving; every
        /// run reads the records from the start. A malformed record makes Run throw
        /// DealerException (DEALER_ERROR_IO, the message naming "input data" and the line) unless
        /// the input_errors option is "skip"; LastSummary counts the records in "input". An
        /// empty array is an input without records; null removes the input (ClearInput).</summary>
        public void SetInputData(byte[] data)
        {
            CheckDisposed();
            if (data == null)
            {
                Check(Native.dealer_set_input_data(handle, null, UIntPtr.Zero));
                return;
            }
            // A one-byte array for no bytes: the library takes a NULL pointer as "no input".
            byte[] bytes = data.Length > 0 ? data : new byte[1];
            Check(Native.dealer_set_input_data(handle, bytes, (UIntPtr)data.Length));
        }

        /// <summary>SetInputData with record text (PBN, LIN, one-line or JSON Lines), as UTF-8;
        /// null removes the input. The text is records, never a path: see SetInputFile.</summary>
        public void SetInputData(string records)
        {
            SetInputData(records == null ? null : Encoding.UTF8.GetBytes(records));
        }

        /// <summary>Reads the deals from a file of board records (the input option; "-" for
        /// standard input), opened when a run starts; a missing file makes Run throw
        /// DealerException (DEALER_ERROR_IO). Replaces SetInputData's records.</summary>
        public void SetInputFile(string path)
        {
            if (path == null) throw new ArgumentNullException("path");
            SetOption("input", path);
        }

        /// <summary>Removes the input of SetInputData or SetInputFile: the session deals again.</summary>
        public void ClearInput()
        {
            SetInputData((byte[])null);
        }

        /// <summary>Adds a scenario to the board set Run() mixes (dealer_mix_add): its name (what
        /// its boards are labelled with), its script, and exactly <paramref name="count"/> boards,
        /// or with a null count a share of what the counts leave of the produce limit in
        /// proportion to <paramref name="weight"/>.</summary>
        public void AddScenario(string name, string script, double weight = 1.0, long? count = null)
        {
            CheckDisposed();
            if (name == null) throw new ArgumentNullException("name");
            if (script == null) throw new ArgumentNullException("script");
            byte[] text = Encoding.UTF8.GetBytes(script);
            Check(Native.dealer_mix_add(handle, Native.Utf8z(name), text, (UIntPtr)text.Length, weight, count ?? -1));
        }

        /// <summary>Forgets the scenarios AddScenario added (dealer_mix_clear).</summary>
        public void ClearScenarios()
        {
            CheckDisposed();
            Check(Native.dealer_mix_clear(handle));
        }

        /// <summary>Adds a part file (written by a run with the part or deals option and
        /// part_file) to those Run() merges into exactly what one run of the job prints
        /// (dealer_merge_add).</summary>
        public void AddPart(string path)
        {
            CheckDisposed();
            if (path == null) throw new ArgumentNullException("path");
            Check(Native.dealer_merge_add(handle, Native.Utf8z(path)));
        }

        /// <summary>Forgets the part files AddPart added (dealer_merge_clear).</summary>
        public void ClearParts()
        {
            CheckDisposed();
            Check(Native.dealer_merge_clear(handle));
        }

        /// <summary>Runs the whole job of the loaded script (deals, actions, end-of-run report) to
        /// the output streams. Returns the counters and the status (DEALER_OK, DEALER_TIMED_OUT
        /// or DEALER_CEILING_REACHED); errors, and a run stopped by an interrupter
        /// (DEALER_INTERRUPTED), throw DealerException.</summary>
        public RunReport Run()
        {
            CheckDisposed();
            var record = new DealerRunReportRecord();
            record.size = (uint)Marshal.SizeOf(typeof(DealerRunReportRecord));
            int status = Check(Native.dealer_run(handle, ref record));
            return new RunReport
            {
                Status = status,
                Generated = record.generated,
                Produced = record.produced,
                Seed = record.seed,
                Ceiling = record.ceiling,
            };
        }

        /// <summary>The last Run's JSON summary object, one line (dealer_last_summary): deals, seed,
        /// every statistic with its standard error and 95 % interval ("statistics"), the tables of
        /// leads actions ("leads"), the precision reached, the double-dummy solves ("dd"). Empty
        /// before a run and after one that failed.</summary>
        public string LastSummary
        {
            get
            {
                CheckDisposed();
                return Native.FromUtf8z(Native.dealer_last_summary(handle));
            }
        }

        /// <summary>Deals until a deal satisfies the condition; null when the limits are reached
        /// (DEALER_DONE). The deal becomes the current deal for Eval and DdsTable().</summary>
        public Deal NextDeal()
        {
            CheckDisposed();
            DealerDealRecord record;
            int status = Native.dealer_next_deal(handle, out record);
            if (status == DealerStatus.DEALER_DONE) { callbackException = null; return null; }
            Check(status);
            return new Deal(record);
        }

        /// <summary>The deals satisfying the condition (dealer_next_deal until DEALER_DONE); no
        /// actions run. Each deal is the current deal while the loop body runs. A run stopped
        /// by an interrupter throws DealerException with Status DEALER_INTERRUPTED.</summary>
        public IEnumerable<Deal> Deals()
        {
            CheckDisposed();
            return DealsIterator();
        }

        private IEnumerable<Deal> DealsIterator()
        {
            while (true)
            {
                Deal deal = NextDeal();
                if (deal == null) yield break;
                yield return deal;
            }
        }

        /// <summary>Deals up to count deals satisfying the condition, as count calls of NextDeal
        /// would (dealer_next_deals), and evaluates the compiled expressions ids (from
        /// CompileExpression) on each: Values[i, j] is ids[j] on deal i. The last deal becomes
        /// the current deal. An error throws DealerException (the deals dealt before the
        /// failing one are not returned; the last of them is the current deal).</summary>
        public DealBatch NextDeals(int count, params uint[] ids)
        {
            CheckDisposed();
            if (count < 0) throw new ArgumentOutOfRangeException("count");
            if (ids == null) ids = new uint[0];
            ulong[] masks = new ulong[4 * count];
            int[] values = ids.Length == 0 ? null : new int[count * ids.Length];
            UIntPtr produced;
            int status = Native.dealer_next_deals(handle, (UIntPtr)count, count == 0 ? null : masks,
                ids.Length == 0 ? null : ids, (uint)ids.Length, values, out produced);
            Check(status);
            int n = (int)produced;
            var deals = new Deal[n];
            var table = new int[n, ids.Length];
            for (int i = 0; i < n; i++)
            {
                deals[i] = new Deal(masks[4 * i], masks[4 * i + 1], masks[4 * i + 2], masks[4 * i + 3]);
                for (int j = 0; j < ids.Length; j++) table[i, j] = values[i * ids.Length + j];
            }
            return new DealBatch { Deals = deals, Values = table, Done = status == DealerStatus.DEALER_DONE };
        }

        /// <summary>Reads a PBN [Deal] value such as "N:AKQ2.K32.A92.T98 JT9.AQ7.KQ3.AJ73 …"
        /// (dealer_deal_from_pbn): the seat of the first hand (N, E, S or W), a colon, then four
        /// hands clockwise from it, each S.H.D.C with ranks AKQJT98765432 in any case, "-" for an
        /// empty hand. The deal may be incomplete. Text that is not such a deal throws
        /// DealerException with Status DEALER_ERROR_USAGE, Line 1 and the Column of the fault.</summary>
        public Deal ParseDeal(string text)
        {
            CheckDisposed();
            if (text == null) throw new ArgumentNullException("text");
            DealerDealRecord record;
            Check(Native.dealer_deal_from_pbn(handle, Native.Utf8z(text), out record));
            return new Deal(record);
        }

        /// <summary>Makes a complete deal the current deal for Eval, EvalCompiled and DdsTable()
        /// (dealer_set_deal), without dealing: the next NextDeal goes on where the dealing was.
        /// Needs a loaded script; an incomplete deal throws DealerException (DEALER_ERROR_USAGE).</summary>
        public void SetDeal(Deal deal)
        {
            CheckDisposed();
            if (deal == null) throw new ArgumentNullException("deal");
            DealerDealRecord record = deal.ToRecord();
            Check(Native.dealer_set_deal(handle, ref record));
        }

        /// <summary>Evaluates an expression (e.g. "hcp(north)") on the current deal; true is 1.</summary>
        public int Eval(string expression)
        {
            CheckDisposed();
            if (expression == null) throw new ArgumentNullException("expression");
            int value;
            Check(Native.dealer_eval(handle, Native.Utf8z(expression), out value));
            return value;
        }

        /// <summary>Compiles an expression once, for EvalCompiled on every deal.</summary>
        public uint CompileExpression(string expression)
        {
            CheckDisposed();
            if (expression == null) throw new ArgumentNullException("expression");
            uint id;
            Check(Native.dealer_compile_expression(handle, Native.Utf8z(expression), out id));
            return id;
        }

        /// <summary>Evaluates a compiled expression on the current deal.</summary>
        public int EvalCompiled(uint id)
        {
            CheckDisposed();
            int value;
            Check(Native.dealer_eval_compiled(handle, id, out value));
            return value;
        }

        /// <summary>The double-dummy table of a deal (or of the current deal when deal is null),
        /// and the par result for parVulnerability (0 none, 1 NS, 2 EW, 3 both) unless it is -1.
        /// DdsResult.Tricks is [declarer, strain], 4×5, as the header orders it.</summary>
        public DdsResult DdsTable(Deal deal, int parVulnerability = -1)
        {
            CheckDisposed();
            var table = new DealerDdsResultsRecord();
            table.size = (uint)Marshal.SizeOf(typeof(DealerDdsResultsRecord));
            table.par_vulnerability = parVulnerability;
            table.tricks = new int[20];
            table.par_contract = new byte[32];
            if (deal == null)
            {
                Check(Native.dealer_dds_table_current(handle, IntPtr.Zero, ref table));
            }
            else
            {
                DealerDealRecord record = deal.ToRecord();
                Check(Native.dealer_dds_table(handle, ref record, ref table));
            }
            var tricks = new int[4, 5];
            for (int d = 0; d < 4; d++)
                for (int s = 0; s < 5; s++)
                    tricks[d, s] = table.tricks[d * 5 + s];
            int len = Array.IndexOf(table.par_contract, (byte)0);
            if (len < 0) len = table.par_contract.Length;
            return new DdsResult
            {
                Tricks = tricks,
                ParVulnerability = parVulnerability,
                ParScoreNs = table.par_score_ns,
                ParContract = Encoding.UTF8.GetString(table.par_contract, 0, len),
            };
        }

        /// <summary>The double-dummy table of the current deal.</summary>
        public DdsResult DdsTable() { return DdsTable(null); }

        /// <summary>Sends one output stream (DealerStream.*) to a callback receiving raw bytes; null
        /// restores the default. The delegate is kept alive by the session.</summary>
        public void SetOutput(int stream, Action<byte[]> write)
        {
            CheckDisposed();
            if (stream < 0 || stream >= outputCallbacks.Length)
            {
                Check(Native.dealer_set_output(handle, stream, null, IntPtr.Zero));
                return;
            }
            if (write == null)
            {
                Check(Native.dealer_set_output(handle, stream, null, IntPtr.Zero));
                outputCallbacks[stream] = null;
                return;
            }
            Native.dealer_write_fn callback = (data, len, userdata) =>
            {
                try
                {
                    byte[] bytes = new byte[(int)len];
                    if (bytes.Length > 0) Marshal.Copy(data, bytes, 0, bytes.Length);
                    write(bytes);
                    return 0;
                }
                catch (Exception e)
                {
                    if (callbackException == null) callbackException = e;
                    return 1;
                }
            };
            Check(Native.dealer_set_output(handle, stream, callback, IntPtr.Zero));
            outputCallbacks[stream] = callback;
        }

        /// <summary>Sends one output stream to a callback receiving text (UTF-8 decoded; a
        /// character split across pieces is kept until it is whole); null restores the default.</summary>
        public void SetOutput(int stream, Action<string> write)
        {
            if (write == null) { SetOutput(stream, (Action<byte[]>)null); return; }
            Decoder decoder = Encoding.UTF8.GetDecoder();
            SetOutput(stream, (Action<byte[]>)(bytes =>
            {
                char[] chars = new char[decoder.GetCharCount(bytes, 0, bytes.Length, false)];
                int n = decoder.GetChars(bytes, 0, bytes.Length, chars, 0, false);
                if (n > 0) write(new string(chars, 0, n));
            }));
        }

        /// <summary>Sends one output stream to a TextWriter; null restores the default.</summary>
        public void SetOutput(int stream, TextWriter writer)
        {
            if (writer == null) { SetOutput(stream, (Action<byte[]>)null); return; }
            SetOutput(stream, (Action<string>)writer.Write);
        }

        /// <summary>Sends one output stream to a System.IO.Stream (raw bytes); null restores the default.</summary>
        public void SetOutput(int stream, Stream output)
        {
            if (output == null) { SetOutput(stream, (Action<byte[]>)null); return; }
            SetOutput(stream, (Action<byte[]>)(bytes => output.Write(bytes, 0, bytes.Length)));
        }

        /// <summary>Sends one output stream to an open file descriptor (negative: the default).</summary>
        public void SetOutputFd(int stream, int fd)
        {
            CheckDisposed();
            Check(Native.dealer_set_output_fd(handle, stream, fd));
        }

        /// <summary>Answers the script's usereval queries with a managed metric (null: back to the
        /// DealerServer). The delegate is kept alive by the session.</summary>
        public void SetUsereval(UserevalMetric metric)
        {
            CheckDisposed();
            if (metric == null)
            {
                Check(Native.dealer_set_usereval(handle, null, IntPtr.Zero));
                userevalCallback = null;
                return;
            }
            int statsSize = Marshal.SizeOf(typeof(DealerHandStats));
            Native.dealer_usereval_fn callback = (queryPtr, dealPtr, statsPtr, resultsPtr, userdata) =>
            {
                try
                {
                    var query = (DealerUserevalQuery)Marshal.PtrToStructure(queryPtr, typeof(DealerUserevalQuery));
                    var deal = new Deal((DealerDealRecord)Marshal.PtrToStructure(dealPtr, typeof(DealerDealRecord)));
                    var stats = new DealerHandStats[4];
                    for (int i = 0; i < 4; i++)
                        stats[i] = (DealerHandStats)Marshal.PtrToStructure(
                            new IntPtr(statsPtr.ToInt64() + i * statsSize), typeof(DealerHandStats));
                    int[] results = new int[128];
                    Marshal.Copy(resultsPtr, results, 0, 128);
                    if (!metric(query, deal, stats, results)) return 1;
                    Marshal.Copy(results, 0, resultsPtr, 128);
                    return 0;
                }
                catch (Exception e)
                {
                    if (callbackException == null) callbackException = e;
                    return 1;
                }
            };
            Check(Native.dealer_set_usereval(handle, callback, IntPtr.Zero));
            userevalCallback = callback;
        }

        /// <summary>Creates an interrupter that stops this session's runs from any thread.</summary>
        public DealerInterrupter CreateInterrupter()
        {
            CheckDisposed();
            InterrupterHandle h;
            Check(Native.dealer_create_interrupter(handle, out h));
            return new DealerInterrupter(h);
        }

        /// <summary>Frees the native session; safe to call more than once.</summary>
        public void Dispose()
        {
            handle.Dispose();
        }
    }
}
