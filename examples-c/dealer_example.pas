{ dealer_example.pas -- libdealer's C API from Free Pascal in Delphi mode.

  What it shows:
    * `external 'dealer'` declarations with `cdecl`, using only fixed-size integer types
      (Int32, UInt32, Int64, UInt64, PtrUInt) and pointers, so that every parameter has the
      size and signedness of include/dealer.h;
    * the session as an opaque pointer type, always freed with dealer_free_session;
    * int32 status codes compared against named constants copied from the header;
    * the script text as a UTF8String passed with its byte length, file paths passed as
      PAnsiChar (the bytes of the command line, unchanged, as a C program passes argv), and
      dealer_last_error's UTF-8 message written out as bytes (the library owns it: never freed);
    * dealer_deal and dealer_run_report as records laid out like the C structs
      ($packrecords C: the report is 32 bytes, with padding after its size field);
    * an output stream redirected to a Pascal callback with dealer_set_output.

  Usage (the same arguments and the same output, byte for byte, as examples-c/embed.c and
  examples-c/DealerExample.cs):
    dealer_example [SEED [COUNT [SCRIPT_FILE]]]
        loads the script once (default: the 1NT-opener script below, seed 42, 4 boards) and
        prints COUNT boards as PBN tags: [Board], [Dealer], [Vulnerable] and [Deal].
    dealer_example --capture SEED
        runs "produce 3 / action printoneline" with classic dealer's glibc generator, collects
        everything the run writes to DEALER_STREAM_OUTPUT through the callback, prints those
        bytes unchanged and then "report: generated=G produced=P seed=S".
  Errors print "dealer_example: <what>: <libdealer's message>" on stderr; the exit status is 1.

  Build and run (from the top of the repository, after the library is built):
    mkdir -p /tmp/dealer-example
    fpc -Mdelphi -O2 -Fltarget/lib -FE/tmp/dealer-example -FU/tmp/dealer-example \
        examples-c/dealer_example.pas
    LD_LIBRARY_PATH=target/lib /tmp/dealer-example/dealer_example 1 6
  `external 'dealer'` makes fpc link with -ldealer; -Fl tells the linker where libdealer.so is,
  and the program loads it at run time through LD_LIBRARY_PATH (or an installed copy). }

program dealer_example;

{$mode delphi}
{$H+}
{$packrecords C}
{ The constants below mirror include/dealer.h in full, so some are unused: no hint for those. }
{$warn 5028 off}

uses
  SysUtils;

const
  LibDealer = 'dealer';

  { Status codes (int32_t). }
  DEALER_OK = 0;
  DEALER_DONE = 1;
  DEALER_TIMED_OUT = 2;
  DEALER_ERROR_SCRIPT = -1;
  DEALER_ERROR_OPTION = -2;
  DEALER_ERROR_IO = -3;
  DEALER_ERROR_NOT_AVAILABLE = -4;
  DEALER_ERROR_RUN = -5;
  DEALER_ERROR_USAGE = -6;
  DEALER_ERROR_NULL = -7;
  DEALER_ERROR_UTF8 = -8;
  DEALER_ERROR_INTERNAL = -9;

  { Output streams for dealer_set_output. }
  DEALER_STREAM_OUTPUT = 0;
  DEALER_STREAM_DIAGNOSTICS = 1;
  DEALER_STREAM_CSV = 2;
  DEALER_STREAM_EXPORT = 3;

  { Random generators for dealer_set_generator. }
  DEALER_GENERATOR_CHACHA = 0;
  DEALER_GENERATOR_DRAND48 = 1;
  DEALER_GENERATOR_GLIBC = 2;

type
  { dealer_session: opaque, only ever handled through a pointer. }
  TDealerSession = record end;
  PDealerSession = ^TDealerSession;

  { dealer_deal: the hands of North, East, South and West as card bitmasks
    (bit 16 * suit + rank; clubs 0 .. spades 3, deuce 0 .. ace 12). }
  TDealerDeal = record
    Hands: array[0..3] of UInt64;
  end;
  PDealerDeal = ^TDealerDeal;

  { dealer_run_report: Size goes in (SizeOf of this record), the counters come out. }
  TDealerRunReport = record
    Size: UInt32;
    Generated: Int64;
    Produced: Int64;
    Seed: UInt64;
  end;
  PDealerRunReport = ^TDealerRunReport;

  { dealer_write_fn: int32_t (*)(const uint8_t *data, uintptr_t len, void *userdata).
    Return 0 to go on; anything else stops the run with DEALER_ERROR_IO. }
  TDealerWriteFn = function(Data: PByte; Len: PtrUInt; UserData: Pointer): Int32; cdecl;

  { A failed call; the message is the "what" part of the error line. }
  EDealer = class(Exception);

function dealer_create_session(out Session: PDealerSession): Int32; cdecl; external LibDealer;
procedure dealer_free_session(Session: PDealerSession); cdecl; external LibDealer;
function dealer_set_seed(Session: PDealerSession; Seed: Int64): Int32; cdecl; external LibDealer;
function dealer_set_generator(Session: PDealerSession; Generator: Int32): Int32; cdecl;
  external LibDealer;
function dealer_load_script(Session: PDealerSession; Text: PByte; Len: PtrUInt): Int32; cdecl;
  external LibDealer;
function dealer_load_script_file(Session: PDealerSession; Path: PAnsiChar): Int32; cdecl;
  external LibDealer;
function dealer_set_output(Session: PDealerSession; Stream: Int32; Callback: TDealerWriteFn;
  UserData: Pointer): Int32; cdecl; external LibDealer;
function dealer_run(Session: PDealerSession; Report: PDealerRunReport): Int32; cdecl; external LibDealer;
function dealer_next_deal(Session: PDealerSession; Deal: PDealerDeal): Int32; cdecl;
  external LibDealer;
function dealer_deal_to_pbn(Deal: PDealerDeal; Buffer: PAnsiChar; Size: PtrUInt): PtrUInt; cdecl;
  external LibDealer;
{ A NUL-terminated UTF-8 string owned by the session: read it, never free it. }
function dealer_last_error(Session: PDealerSession): PAnsiChar; cdecl; external LibDealer;

const
  ProgramName = 'dealer_example';

  { North opens 1NT: 15-17 points, balanced (the same text as embed.c). }
  DefaultScript: UTF8String =
    'condition hcp(north) >= 15 && hcp(north) <= 17'#10 +
    '  && shape(north, any 4333 + any 4432 + any 5332)'#10;

  CaptureScript: UTF8String = 'produce 3'#10'action printoneline'#10;

  { Board vulnerability by (board - 1) mod 16, in PBN's words. }
  Vulnerability: array[0..15] of AnsiString = (
    'None', 'NS', 'EW', 'All', 'NS', 'EW', 'All', 'None',
    'EW', 'All', 'None', 'NS', 'All', 'None', 'NS', 'EW');

  Dealers: AnsiString = 'NESW';

{ Writes Count bytes to a file handle (stdout or stderr) exactly as they are: no code page
  conversion and no line-end translation, so the output matches the C program's byte for byte. }
procedure WriteBytes(Handle: THandle; Data: PByte; Count: PtrUInt);
var
  Chunk: Int32;
  Written: Int32;
begin
  while Count > 0 do
  begin
    if Count > $40000000 then Chunk := $40000000 else Chunk := Int32(Count);
    Written := FileWrite(Handle, Data^, Chunk);
    if Written <= 0 then Exit;
    Inc(Data, Written);
    Dec(Count, PtrUInt(Written));
  end;
end;

procedure WriteText(Handle: THandle; const Text: RawByteString);
begin
  if Length(Text) > 0 then
    WriteBytes(Handle, PByte(PAnsiChar(Text)), PtrUInt(Length(Text)));
end;

function SignedText(Value: Int64): RawByteString;
begin
  Str(Value, Result);
end;

function UnsignedText(Value: UInt64): RawByteString;
begin
  Str(Value, Result);
end;

{ Reads a number the way C's atoll does (strtoll in base 10): leading white space, an optional
  sign, then digits up to the first other character; no digits give 0 and values out of range
  saturate. This keeps "12abc", " 7" or "x" meaning what they mean to embed.c. }
function ParseInteger(const Text: RawByteString): Int64;
var
  I: Int32;
  Negative, Overflow: Boolean;
  Digit: Int32;
  Value: Int64;
begin
  I := 1;
  while (I <= Length(Text)) and (Text[I] in [' ', #9..#13]) do Inc(I);
  Negative := False;
  if (I <= Length(Text)) and (Text[I] in ['+', '-']) then
  begin
    Negative := Text[I] = '-';
    Inc(I);
  end;
  { Accumulate as a negative number: its range includes Low(Int64). }
  Value := 0;
  Overflow := False;
  while (I <= Length(Text)) and (Text[I] in ['0'..'9']) do
  begin
    Digit := Ord(Text[I]) - Ord('0');
    { Pascal's div truncates toward zero, as C's / does. }
    if Value < (Low(Int64) + Digit) div 10 then Overflow := True;
    if not Overflow then Value := Value * 10 - Digit;
    Inc(I);
  end;
  if Overflow then
  begin
    if Negative then Result := Low(Int64) else Result := High(Int64);
  end
  else if Negative then
    Result := Value
  else if Value = Low(Int64) then
    Result := High(Int64)
  else
    Result := -Value;
end;

{ Turns a status other than DEALER_OK into an EDealer naming the step. }
procedure Check(Status: Int32; const What: string);
begin
  if Status <> DEALER_OK then raise EDealer.Create(What);
end;

{ The embed.c mode: load the script once, then print COUNT boards. }
procedure Boards(Session: PDealerSession);
var
  Seed, Count, Board: Int64;
  Status: Int32;
  Deal: TDealerDeal;
  Pbn: array[0..79] of AnsiChar;
  PbnLength: PtrUInt;
  Path: RawByteString;
  Text: RawByteString;
begin
  if ParamCount > 0 then Seed := ParseInteger(ParamStr(1)) else Seed := 42;
  if ParamCount > 1 then Count := ParseInteger(ParamStr(2)) else Count := 4;

  Check(dealer_set_seed(Session, Seed), 'seed');
  if ParamCount > 2 then
  begin
    Path := ParamStr(3);
    Status := dealer_load_script_file(Session, PAnsiChar(Path));
  end
  else
    Status := dealer_load_script(Session, PByte(PAnsiChar(DefaultScript)),
      PtrUInt(Length(DefaultScript)));
  Check(Status, 'script');

  Board := 1;
  while Board <= Count do
  begin
    Status := dealer_next_deal(Session, @Deal);
    if Status = DEALER_DONE then Break;
    Check(Status, 'next deal');
    { A full deal is 69 characters; like embed.c, show at most what fits the buffer (the
      library always NUL-terminates it). }
    PbnLength := dealer_deal_to_pbn(@Deal, @Pbn[0], SizeOf(Pbn));
    if PbnLength >= SizeOf(Pbn) then PbnLength := SizeOf(Pbn) - 1;
    SetString(Text, PAnsiChar(@Pbn[0]), PbnLength);
    WriteText(StdOutputHandle,
      '[Board "' + SignedText(Board) + '"]'#10 +
      '[Dealer "' + Dealers[(Board - 1) mod 4 + 1] + '"]'#10 +
      '[Vulnerable "' + Vulnerability[(Board - 1) mod 16] + '"]'#10 +
      '[Deal "' + Text + '"]'#10#10);
    Inc(Board);
  end;
end;

{ dealer_set_output's callback for --capture: appends the bytes to the RawByteString that
  UserData points to. Exceptions must not unwind through libdealer's frames: any failure stops
  the run instead. }
function CaptureOutput(Data: PByte; Len: PtrUInt; UserData: Pointer): Int32; cdecl;
var
  Captured: ^RawByteString;
  Old: PtrUInt;
begin
  try
    Captured := UserData;
    Old := PtrUInt(Length(Captured^));
    SetLength(Captured^, Old + Len);
    if Len > 0 then Move(Data^, Captured^[Old + 1], Len);
    Result := 0;
  except
    Result := 1;
  end;
end;

{ The --capture mode: a whole dealer_run with its output collected by the callback, then printed
  together with the run's counters. }
procedure Capture(Session: PDealerSession; Seed: Int64);
var
  Captured: RawByteString;
  Report: TDealerRunReport;
  Status: Int32;
begin
  Check(dealer_set_seed(Session, Seed), 'seed');
  Check(dealer_set_generator(Session, DEALER_GENERATOR_GLIBC), 'generator');
  Check(dealer_load_script(Session, PByte(PAnsiChar(CaptureScript)),
    PtrUInt(Length(CaptureScript))), 'script');

  Captured := '';
  Check(dealer_set_output(Session, DEALER_STREAM_OUTPUT, CaptureOutput, @Captured), 'output');
  Report := Default(TDealerRunReport);
  Report.Size := SizeOf(Report);
  Status := dealer_run(Session, @Report);
  { Restore the default output: the session must not keep a pointer to the local string. }
  dealer_set_output(Session, DEALER_STREAM_OUTPUT, nil, nil);
  if (Status <> DEALER_OK) and (Status <> DEALER_TIMED_OUT) then raise EDealer.Create('run');

  WriteText(StdOutputHandle, Captured);
  WriteText(StdOutputHandle, 'report: generated=' + SignedText(Report.Generated) +
    ' produced=' + SignedText(Report.Produced) + ' seed=' + UnsignedText(Report.Seed) + #10);
end;

{ Runs one mode on a fresh session and returns the exit status; the session is always freed. }
function Main: Int32;
var
  Session: PDealerSession;
  Message: PAnsiChar;
begin
  Session := nil;
  if dealer_create_session(Session) <> DEALER_OK then
  begin
    WriteText(StdErrorHandle, ProgramName + ': cannot create a session'#10);
    Exit(1);
  end;
  try
    try
      if (ParamCount > 0) and (ParamStr(1) = '--capture') then
      begin
        if ParamCount < 2 then
        begin
          WriteText(StdErrorHandle, ProgramName + ': usage: ' + ProgramName +
            ' --capture SEED'#10);
          Exit(1);
        end;
        Capture(Session, ParseInteger(ParamStr(2)));
      end
      else
        Boards(Session);
      Result := 0;
    except
      on E: EDealer do
      begin
        Message := dealer_last_error(Session);
        WriteText(StdErrorHandle, ProgramName + ': ' + RawByteString(E.Message) + ': ');
        if Message <> nil then WriteBytes(StdErrorHandle, PByte(Message), StrLen(Message));
        WriteText(StdErrorHandle, #10);
        Result := 1;
      end;
    end;
  finally
    dealer_free_session(Session);
  end;
end;

begin
  ExitCode := Main;
end.
