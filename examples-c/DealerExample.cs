// DealerExample.cs -- libdealer's C API from C# through P/Invoke.
//
// What it shows:
//   * the session handle kept as an opaque IntPtr, created with dealer_create_session and always
//     freed with dealer_free_session (try/finally);
//   * int32 status codes compared against named constants copied from include/dealer.h;
//   * strings passed as NUL-terminated UTF-8 (UnmanagedType.LPUTF8Str) and the script text as a
//     UTF-8 byte array with an explicit length; the error text of dealer_last_error read back with
//     Marshal.PtrToStringUTF8 (the library owns that string: it is never freed here);
//   * dealer_deal as a sequential struct holding four 64-bit card masks (ByValArray of 4 ulongs);
//   * an output stream redirected to a managed callback with dealer_set_output, and the counters
//     of dealer_run read from a size-stamped dealer_run_report.
//
// Usage (the same arguments and the same output, byte for byte, as examples-c/embed.c):
//   DealerExample.exe [SEED [COUNT [SCRIPT_FILE]]]
//       loads the script once (default: the 1NT-opener script below, seed 42, 4 boards) and
//       prints COUNT boards as PBN tags: [Board], [Dealer], [Vulnerable] and [Deal].
//   DealerExample.exe --capture SEED
//       runs "produce 3 / action printoneline" with classic dealer's glibc generator, collects
//       everything the run writes to DEALER_STREAM_OUTPUT through the callback, prints those
//       bytes unchanged and then "report: generated=G produced=P seed=S".
// Errors print "DealerExample: <what>: <libdealer's message>" on stderr; the exit status is 1.
//
// Build and run (from the top of the repository, after the library is built):
//   mcs -warn:4 -warnaserror+ -out:DealerExample.exe examples-c/DealerExample.cs
//   LD_LIBRARY_PATH=target/lib mono DealerExample.exe 1 6
// Mono maps the library name "dealer" to libdealer.so and finds it through LD_LIBRARY_PATH.

using System;
using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;

/// <summary>The part of libdealer's C API this example uses (see include/dealer.h).</summary>
internal static class Native
{
    private const string Library = "dealer";

    // Status codes (int32_t).
    public const int DEALER_OK = 0;
    public const int DEALER_DONE = 1;
    public const int DEALER_TIMED_OUT = 2;
    public const int DEALER_ERROR_SCRIPT = -1;
    public const int DEALER_ERROR_OPTION = -2;
    public const int DEALER_ERROR_IO = -3;
    public const int DEALER_ERROR_NOT_AVAILABLE = -4;
    public const int DEALER_ERROR_RUN = -5;
    public const int DEALER_ERROR_USAGE = -6;
    public const int DEALER_ERROR_NULL = -7;
    public const int DEALER_ERROR_UTF8 = -8;
    public const int DEALER_ERROR_INTERNAL = -9;

    // Output streams for dealer_set_output.
    public const int DEALER_STREAM_OUTPUT = 0;
    public const int DEALER_STREAM_DIAGNOSTICS = 1;
    public const int DEALER_STREAM_CSV = 2;
    public const int DEALER_STREAM_EXPORT = 3;

    // Random generators for dealer_set_generator.
    public const int DEALER_GENERATOR_CHACHA = 0;
    public const int DEALER_GENERATOR_DRAND48 = 1;
    public const int DEALER_GENERATOR_GLIBC = 2;

    /// <summary>dealer_deal: the hands of North, East, South and West as card bitmasks
    /// (bit 16 * suit + rank; clubs 0 .. spades 3, deuce 0 .. ace 12).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DealerDeal
    {
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 4)]
        public ulong[] Hands;
    }

    /// <summary>dealer_run_report: Size goes in (Marshal.SizeOf of this struct, 32 bytes on
    /// 64-bit Linux with the padding after Size), the counters come out.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DealerRunReport
    {
        public uint Size;
        public long Generated;
        public long Produced;
        public ulong Seed;
    }

    /// <summary>dealer_write_fn: int32_t (*)(const uint8_t *data, uintptr_t len, void *userdata).
    /// Return 0 to go on; anything else stops the run with DEALER_ERROR_IO.</summary>
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    public delegate int DealerWriteFn(IntPtr data, UIntPtr len, IntPtr userdata);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern int dealer_create_session(out IntPtr session);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern void dealer_free_session(IntPtr session);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern int dealer_set_seed(IntPtr session, long seed);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern int dealer_set_generator(IntPtr session, int generator);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern int dealer_load_script(IntPtr session, byte[] text, UIntPtr len);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern int dealer_load_script_file(
        IntPtr session, [MarshalAs(UnmanagedType.LPUTF8Str)] string path);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern int dealer_set_output(
        IntPtr session, int stream, DealerWriteFn callback, IntPtr userdata);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern int dealer_run(IntPtr session, ref DealerRunReport report);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern int dealer_next_deal(IntPtr session, out DealerDeal deal);

    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern UIntPtr dealer_deal_to_pbn([In] ref DealerDeal deal, byte[] buffer, UIntPtr size);

    /// <summary>Returns a NUL-terminated UTF-8 string owned by the session: read it, never free
    /// it.</summary>
    [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
    public static extern IntPtr dealer_last_error(IntPtr session);
}

/// <summary>A failed call: the message is the "what" part of the error line.</summary>
internal sealed class DealerException : Exception
{
    public DealerException(string what) : base(what) { }
}

internal static class DealerExample
{
    private const string Program = "DealerExample";

    /// <summary>North opens 1NT: 15-17 points, balanced (the same text as embed.c).</summary>
    private const string DefaultScript =
        "condition hcp(north) >= 15 && hcp(north) <= 17\n" +
        "  && shape(north, any 4333 + any 4432 + any 5332)\n";

    /// <summary>Board vulnerability by (board - 1) % 16, in PBN's words.</summary>
    private static readonly string[] Vulnerability = {
        "None", "NS", "EW", "All", "NS", "EW", "All", "None",
        "EW", "All", "None", "NS", "All", "None", "NS", "EW",
    };

    private const string Dealers = "NESW";

    /// <summary>UTF-8 without a byte-order mark, for everything written to stdout.</summary>
    private static readonly Encoding Utf8 = new UTF8Encoding(false);

    private static int Main(string[] args)
    {
        IntPtr session;
        if (Native.dealer_create_session(out session) != Native.DEALER_OK)
        {
            Console.Error.Write(Program + ": cannot create a session\n");
            return 1;
        }
        Stream stdout = Console.OpenStandardOutput();
        try
        {
            if (args.Length > 0 && args[0] == "--capture")
            {
                if (args.Length < 2)
                {
                    Console.Error.Write(Program + ": usage: " + Program + " --capture SEED\n");
                    return 1;
                }
                Capture(session, ParseInteger(args[1]), stdout);
            }
            else
            {
                Boards(session, args, stdout);
            }
            return 0;
        }
        catch (DealerException e)
        {
            stdout.Flush();
            Console.Error.Write(Program + ": " + e.Message + ": " + LastError(session) + "\n");
            return 1;
        }
        finally
        {
            stdout.Flush();
            Native.dealer_free_session(session);
        }
    }

    /// <summary>The embed.c mode: load the script once, then print COUNT boards.</summary>
    private static void Boards(IntPtr session, string[] args, Stream stdout)
    {
        long seed = args.Length > 0 ? ParseInteger(args[0]) : 42;
        long count = args.Length > 1 ? ParseInteger(args[1]) : 4;

        Check(Native.dealer_set_seed(session, seed), "seed");
        int status;
        if (args.Length > 2)
        {
            status = Native.dealer_load_script_file(session, args[2]);
        }
        else
        {
            byte[] text = Utf8.GetBytes(DefaultScript);
            status = Native.dealer_load_script(session, text, (UIntPtr)text.Length);
        }
        Check(status, "script");

        byte[] pbn = new byte[80];
        for (long board = 1; board <= count; board++)
        {
            Native.DealerDeal deal;
            status = Native.dealer_next_deal(session, out deal);
            if (status == Native.DEALER_DONE) break;
            Check(status, "next deal");
            ulong length = (ulong)Native.dealer_deal_to_pbn(ref deal, pbn, (UIntPtr)pbn.Length);
            // A full deal is 69 characters; like embed.c, show at most what fits the buffer.
            int shown = (int)Math.Min(length, (ulong)(pbn.Length - 1));
            string text = "[Board \"" + Invariant(board) + "\"]\n"
                + "[Dealer \"" + Dealers[(int)((board - 1) % 4)] + "\"]\n"
                + "[Vulnerable \"" + Vulnerability[(board - 1) % 16] + "\"]\n"
                + "[Deal \"" + Utf8.GetString(pbn, 0, shown) + "\"]\n\n";
            byte[] bytes = Utf8.GetBytes(text);
            stdout.Write(bytes, 0, bytes.Length);
        }
    }

    /// <summary>The --capture mode: a whole dealer_run with its output collected by a managed
    /// callback, then printed together with the run's counters.</summary>
    private static void Capture(IntPtr session, long seed, Stream stdout)
    {
        Check(Native.dealer_set_seed(session, seed), "seed");
        Check(Native.dealer_set_generator(session, Native.DEALER_GENERATOR_GLIBC), "generator");
        byte[] script = Utf8.GetBytes("produce 3\naction printoneline\n");
        Check(Native.dealer_load_script(session, script, (UIntPtr)script.Length), "script");

        MemoryStream captured = new MemoryStream();
        byte[] chunk = new byte[4096];
        // The delegate must stay alive while native code may call it: it is referenced until
        // the GC.KeepAlive below, after the stream is set back to its default.
        Native.DealerWriteFn callback = (data, len, userdata) =>
        {
            try
            {
                ulong remaining = (ulong)len;
                long offset = 0;
                while (remaining > 0)
                {
                    int n = (int)Math.Min(remaining, (ulong)chunk.Length);
                    Marshal.Copy(new IntPtr(data.ToInt64() + offset), chunk, 0, n);
                    captured.Write(chunk, 0, n);
                    offset += n;
                    remaining -= (ulong)n;
                }
                return 0;
            }
            catch (Exception)
            {
                // Never let an exception unwind through libdealer's frames: stop the run.
                return 1;
            }
        };
        Check(Native.dealer_set_output(session, Native.DEALER_STREAM_OUTPUT, callback, IntPtr.Zero),
              "output");

        Native.DealerRunReport report = new Native.DealerRunReport();
        report.Size = (uint)Marshal.SizeOf(typeof(Native.DealerRunReport));
        int status = Native.dealer_run(session, ref report);
        // Restore the default output so the session no longer holds the callback.
        Native.dealer_set_output(session, Native.DEALER_STREAM_OUTPUT, null, IntPtr.Zero);
        GC.KeepAlive(callback);
        if (status != Native.DEALER_OK && status != Native.DEALER_TIMED_OUT)
        {
            throw new DealerException("run");
        }

        byte[] bytes = captured.ToArray();
        stdout.Write(bytes, 0, bytes.Length);
        byte[] line = Utf8.GetBytes("report: generated=" + Invariant(report.Generated)
                                    + " produced=" + Invariant(report.Produced)
                                    + " seed=" + report.Seed.ToString(CultureInfo.InvariantCulture)
                                    + "\n");
        stdout.Write(line, 0, line.Length);
    }

    /// <summary>Turns a status other than DEALER_OK into a DealerException naming the step.</summary>
    private static void Check(int status, string what)
    {
        if (status != Native.DEALER_OK) throw new DealerException(what);
    }

    /// <summary>A number in plain ASCII digits, whatever the user's culture.</summary>
    private static string Invariant(long value)
    {
        return value.ToString(CultureInfo.InvariantCulture);
    }

    /// <summary>The session's last error message (UTF-8, owned by the library).</summary>
    private static string LastError(IntPtr session)
    {
        IntPtr message = Native.dealer_last_error(session);
        return message == IntPtr.Zero ? "" : Marshal.PtrToStringUTF8(message);
    }

    /// <summary>Reads a number the way C's atoll does (strtoll in base 10): leading white
    /// space, an optional sign, then digits up to the first other character; no digits give 0
    /// and values out of range saturate. This keeps "12abc", " 7" or "x" meaning what they mean
    /// to embed.c.</summary>
    private static long ParseInteger(string text)
    {
        int i = 0;
        while (i < text.Length && (text[i] == ' ' || (text[i] >= '\t' && text[i] <= '\r'))) i++;
        bool negative = false;
        if (i < text.Length && (text[i] == '+' || text[i] == '-'))
        {
            negative = text[i] == '-';
            i++;
        }
        // Accumulate as a negative number: its range includes long.MinValue.
        long value = 0;
        bool overflow = false;
        for (; i < text.Length && text[i] >= '0' && text[i] <= '9'; i++)
        {
            int digit = text[i] - '0';
            if (value < (long.MinValue + digit) / 10) overflow = true;
            if (!overflow) value = value * 10 - digit;
        }
        if (overflow) return negative ? long.MinValue : long.MaxValue;
        if (negative) return value;
        return value == long.MinValue ? long.MaxValue : -value;
    }
}
