{ Dealer.pas -- Delphi / Free Pascal binding of libdealer (include/dealer.h).

  The unit declares every dealer_* function and DEALER_* constant of include/dealer.h with the
  cdecl calling convention, the header's structs as records with the C layout, and
  TDealerSession, a class that owns one dealer_session and raises EDealerError on every
  status other than DEALER_OK (and DEALER_DONE / DEALER_TIMED_OUT / DEALER_CEILING_REACHED /
  DEALER_INTERRUPTED where those are results, see each method).

  Free Pascal: fpc -Mdelphi (or the $MODE switch below). Delphi 10 or later: as it is.
  The library: dealer.dll on Windows, libdealer.so elsewhere, found beside the program or on
  the loader's path. A session is used by one thread at a time. }
unit Dealer;

{$IFDEF FPC}
  {$MODE DELPHI}
  {$H+}
  {$PACKRECORDS C}
{$ELSE}
  {$ALIGN 8}
  {$MINENUMSIZE 4}
{$ENDIF}

interface

uses
  SysUtils, Classes;

const
  DealerLib = {$IFDEF MSWINDOWS} 'dealer.dll' {$ELSE} 'libdealer.so' {$ENDIF};

  { Status codes (int32_t). }
  DEALER_OK = 0;
  DEALER_DONE = 1;
  DEALER_TIMED_OUT = 2;
  DEALER_CEILING_REACHED = 3;
  DEALER_ERROR_SCRIPT = -1;
  DEALER_ERROR_OPTION = -2;
  DEALER_ERROR_IO = -3;
  DEALER_ERROR_NOT_AVAILABLE = -4;
  DEALER_ERROR_RUN = -5;
  DEALER_ERROR_USAGE = -6;
  DEALER_ERROR_NULL = -7;
  DEALER_ERROR_UTF8 = -8;
  DEALER_ERROR_INTERNAL = -9;
  DEALER_INTERRUPTED = -10;
  DEALER_ERROR_NOT_ALLOWED = -11;

  { dealer_run_report.ceiling }
  DEALER_CEILING_NONE = 0;
  DEALER_CEILING_TIME = 1;
  DEALER_CEILING_GENERATE = 2;
  DEALER_CEILING_OUTPUT = 3;

  { Output streams (dealer_set_output, dealer_set_output_fd). }
  DEALER_STREAM_OUTPUT = 0;
  DEALER_STREAM_DIAGNOSTICS = 1;
  DEALER_STREAM_CSV = 2;
  DEALER_STREAM_EXPORT = 3;
  DEALER_STREAM_DEALS = 4;

  { dealer_set_generator }
  DEALER_GENERATOR_CHACHA = 0;
  DEALER_GENERATOR_DRAND48 = 1;
  DEALER_GENERATOR_GLIBC = 2;

  { dealer_set_dialect }
  DEALER_DIALECT_V2 = 0;
  DEALER_DIALECT_CLASSIC = 1;

  { dealer_check_script }
  DEALER_CHECK_BBO = 1;

  { Seats (dealer_deal.hands, dealer_set_predeal). }
  DEALER_NORTH = 0;
  DEALER_EAST = 1;
  DEALER_SOUTH = 2;
  DEALER_WEST = 3;

  { The version of the header this unit mirrors (compare with dealer_version_number). }
  DEALER_VERSION_MAJOR = 0;
  DEALER_VERSION_MINOR = 1;
  DEALER_VERSION_PATCH = 0;

type
  { dealer_session, dealer_interrupter: opaque handles. }
  PDealerSessionHandle = Pointer;
  PDealerInterrupter = Pointer;

  { dealer_deal: four hands as card bitmasks (bit 16 * suit + rank), North 0 .. West 3. }
  TDealerDeal = record
    hands: array[0..3] of UInt64;
  end;
  PDealerDeal = ^TDealerDeal;

  { dealer_usereval_query }
  TDealerUserevalQuery = record
    tag: Int32;
    side: Int32;
    hand_flag: Int32;
    hand: Int32;
    suit_flag: Int32;
    suit: Int32;
    index: Int32;
    generated: Int64;
    produced: Int64;
  end;
  PDealerUserevalQuery = ^TDealerUserevalQuery;

  { dealer_hand_stats }
  TDealerHandStats = record
    seat: Int32;
    lengths: array[0..3] of Int32;
    hcp: array[0..3] of Int32;
    total_hcp: Int32;
    losers: array[0..3] of Int32;
    total_losers: Int32;
    controls: array[0..3] of Int32;
    total_controls: Int32;
    counts: array[0..10, 0..3] of Int32;
    total_counts: array[0..10] of Int32;
    square_hand: Int32;
    ltc: array[0..3] of Int32;
    total_ltc: Int32;
    top_cards: array[0..3, 0..2] of Int32;
    has_card: array[0..3, 0..12] of Int32;
  end;
  PDealerHandStats = ^TDealerHandStats;
  { stats[0] North .. stats[3] West }
  TDealerHandStatsArray = array[0..3] of TDealerHandStats;
  PDealerHandStatsArray = ^TDealerHandStatsArray;

  { dealer_run_report: set size to SizeOf(TDealerRunReport) before dealer_run. }
  TDealerRunReport = record
    size: UInt32;
    generated: Int64;
    produced: Int64;
    seed: UInt64;
    ceiling: Int32;
  end;
  PDealerRunReport = ^TDealerRunReport;

  { dealer_dds_results: set size and par_vulnerability before dealer_dds_table. }
  TDealerDdsResults = record
    size: UInt32;
    par_vulnerability: Int32;
    tricks: array[0..3, 0..4] of Int32;
    par_score_ns: Int32;
    par_contract: array[0..31] of AnsiChar;
  end;
  PDealerDdsResults = ^TDealerDdsResults;

  { dealer_usereval_fn: fill results[0..127] for query^.side, return 0 (else the run stops). }
  TDealerUserevalResults = array[0..127] of Int32;
  PDealerUserevalResults = ^TDealerUserevalResults;
  TDealerUserevalFn = function(query: PDealerUserevalQuery; deal: PDealerDeal;
    stats: PDealerHandStatsArray; results: PDealerUserevalResults;
    userdata: Pointer): Int32; cdecl;

  { dealer_write_fn: len bytes at data; return 0 to go on. }
  TDealerWriteFn = function(data: PByte; len: NativeUInt; userdata: Pointer): Int32; cdecl;

{ The C API, one declaration per function of include/dealer.h. }
function dealer_create_session(out session: PDealerSessionHandle): Int32; cdecl; external DealerLib;
procedure dealer_free_session(session: PDealerSessionHandle); cdecl; external DealerLib;
function dealer_create_interrupter(session: PDealerSessionHandle; out interrupter: PDealerInterrupter): Int32; cdecl; external DealerLib;
procedure dealer_interrupt(interrupter: PDealerInterrupter); cdecl; external DealerLib;
procedure dealer_free_interrupter(interrupter: PDealerInterrupter); cdecl; external DealerLib;
function dealer_set_option(session: PDealerSessionHandle; key, value: PAnsiChar): Int32; cdecl; external DealerLib;
function dealer_set_untrusted(session: PDealerSessionHandle; enabled: Int32): Int32; cdecl; external DealerLib;
function dealer_set_seed(session: PDealerSessionHandle; seed: Int64): Int32; cdecl; external DealerLib;
function dealer_get_seed(session: PDealerSessionHandle; out seed: Int64): Int32; cdecl; external DealerLib;
function dealer_set_generator(session: PDealerSessionHandle; generator: Int32): Int32; cdecl; external DealerLib;
function dealer_set_dialect(session: PDealerSessionHandle; dialect: Int32): Int32; cdecl; external DealerLib;
function dealer_set_generate(session: PDealerSessionHandle; limit: Int64): Int32; cdecl; external DealerLib;
function dealer_set_produce(session: PDealerSessionHandle; limit: Int64): Int32; cdecl; external DealerLib;
function dealer_set_threads(session: PDealerSessionHandle; threads: UInt32): Int32; cdecl; external DealerLib;
function dealer_set_variable(session: PDealerSessionHandle; index: UInt32; value: PAnsiChar): Int32; cdecl; external DealerLib;
function dealer_set_predeal(session: PDealerSessionHandle; seat: Int32; cards: PAnsiChar): Int32; cdecl; external DealerLib;
function dealer_set_usereval(session: PDealerSessionHandle; callback: TDealerUserevalFn; userdata: Pointer): Int32; cdecl; external DealerLib;
function dealer_load_script(session: PDealerSessionHandle; text: PByte; len: NativeUInt): Int32; cdecl; external DealerLib;
function dealer_needs_double_dummy(session: PDealerSessionHandle): Int32; cdecl; external DealerLib;
function dealer_load_script_file(session: PDealerSessionHandle; path: PAnsiChar): Int32; cdecl; external DealerLib;
{ dealer_set_input_data: data nil with len 0 removes the input. }
function dealer_set_input_data(session: PDealerSessionHandle; data: PByte; len: NativeUInt): Int32; cdecl; external DealerLib;
function dealer_mix_add(session: PDealerSessionHandle; name: PAnsiChar; text: PByte; len: NativeUInt; weight: Double; count: Int64): Int32; cdecl; external DealerLib;
function dealer_mix_clear(session: PDealerSessionHandle): Int32; cdecl; external DealerLib;
function dealer_merge_add(session: PDealerSessionHandle; path: PAnsiChar): Int32; cdecl; external DealerLib;
function dealer_merge_clear(session: PDealerSessionHandle): Int32; cdecl; external DealerLib;
function dealer_check_script(session: PDealerSessionHandle; text: PByte; len: NativeUInt; flavour: Int32; callback: TDealerWriteFn; userdata: Pointer): Int32; cdecl; external DealerLib;
function dealer_set_output(session: PDealerSessionHandle; stream: Int32; callback: TDealerWriteFn; userdata: Pointer): Int32; cdecl; external DealerLib;
function dealer_set_output_fd(session: PDealerSessionHandle; stream: Int32; fd: Int32): Int32; cdecl; external DealerLib;
function dealer_run(session: PDealerSessionHandle; report: PDealerRunReport): Int32; cdecl; external DealerLib;
function dealer_next_deal(session: PDealerSessionHandle; deal: PDealerDeal): Int32; cdecl; external DealerLib;
{ dealer_next_deals: deals points to count records (nil: not stored), ids to id_count ids,
  values to count * id_count Int32 (ids and values nil when id_count is 0). }
function dealer_next_deals(session: PDealerSessionHandle; count: NativeUInt; deals: PDealerDeal; ids: PCardinal; id_count: UInt32; values: PInteger; out produced: NativeUInt): Int32; cdecl; external DealerLib;
function dealer_dds_table(session: PDealerSessionHandle; deal: PDealerDeal; table: PDealerDdsResults): Int32; cdecl; external DealerLib;
function dealer_eval(session: PDealerSessionHandle; expression: PAnsiChar; out value: Int32): Int32; cdecl; external DealerLib;
function dealer_compile_expression(session: PDealerSessionHandle; expression: PAnsiChar; out id: UInt32): Int32; cdecl; external DealerLib;
function dealer_eval_compiled(session: PDealerSessionHandle; id: UInt32; out value: Int32): Int32; cdecl; external DealerLib;
function dealer_set_deal(session: PDealerSessionHandle; deal: PDealerDeal): Int32; cdecl; external DealerLib;
function dealer_last_error(session: PDealerSessionHandle): PAnsiChar; cdecl; external DealerLib;
function dealer_last_error_summary(session: PDealerSessionHandle): PAnsiChar; cdecl; external DealerLib;
function dealer_last_summary(session: PDealerSessionHandle): PAnsiChar; cdecl; external DealerLib;
function dealer_last_error_location(session: PDealerSessionHandle; line, col: PCardinal): Int32; cdecl; external DealerLib;
function dealer_last_error_exit_code(session: PDealerSessionHandle): Int32; cdecl; external DealerLib;
function dealer_deal_to_pbn(deal: PDealerDeal; buffer: PAnsiChar; size: NativeUInt): NativeUInt; cdecl; external DealerLib;
function dealer_deal_to_oneline(deal: PDealerDeal; buffer: PAnsiChar; size: NativeUInt): NativeUInt; cdecl; external DealerLib;
function dealer_deal_from_pbn(session: PDealerSessionHandle; text: PAnsiChar; deal: PDealerDeal): Int32; cdecl; external DealerLib;
function dealer_version: PAnsiChar; cdecl; external DealerLib;
function dealer_version_number: UInt32; cdecl; external DealerLib;

type
  { Raised for every status a TDealerSession method does not take as a result. }
  EDealerError = class(Exception)
  private
    FStatus: Integer;
    FLine: Integer;
    FColumn: Integer;
    FSummary: string;
  public
    constructor CreateStatus(AStatus: Integer; const AMessage, ASummary: string;
      ALine, AColumn: Integer);
    property Status: Integer read FStatus;
    property Line: Integer read FLine;
    property Column: Integer read FColumn;
    { dealer_last_error_summary: the one-line form the peers print. }
    property Summary: string read FSummary;
  end;

  TDealerTricks = array[0..3, 0..4] of Integer;

  { How serious a diagnostic of TDealerSession.CheckScript is. }
  TDealerCheckSeverity = (dcsWarning, dcsError);

  { One finding of dealer_check_script: 1-based line and byte column, severity, message. }
  TDealerDiagnostic = record
    Line: Integer;
    Column: Integer;
    Severity: TDealerCheckSeverity;
    Message: string;
  end;

  { The diagnostics of TDealerSession.CheckScript, sorted by position. }
  TDealerDiagnostics = array of TDealerDiagnostic;

  { The deals of TDealerSession.NextDeals. }
  TDealerDealArray = array of TDealerDeal;
  { Values[I][J]: expression J (the ids passed, in order) on deal I; true is 1. }
  TDealerValueTable = array of array of Integer;

  { One libdealer session. Not for use by two threads at once. }
  TDealerSession = class
  private
    FHandle: PDealerSessionHandle;
    FOutput: array[0..3] of UTF8String;
    procedure Check(Status: Int32);
    procedure NeedHandle;
    function GetOutputText(Stream: Integer): UTF8String;
  public
    constructor Create;
    destructor Destroy; override;
    { Frees the session; safe to call again (the handle becomes nil). }
    procedure Close;
    property Handle: PDealerSessionHandle read FHandle;

    procedure SetOption(const Key, Value: string);
    procedure SetSeed(Seed: Int64);
    function GetSeed: Int64;
    procedure SetGenerator(Generator: Integer);
    procedure SetDialect(Dialect: Integer);
    procedure SetGenerate(Limit: Int64);
    procedure SetProduce(Limit: Int64);
    procedure SetThreads(Threads: Cardinal);
    procedure SetVariable(Index: Cardinal; const Value: string);
    procedure SetPredeal(Seat: Integer; const Cards: string);
    procedure SetUntrusted(Enabled: Boolean);
    procedure SetUsereval(Callback: TDealerUserevalFn; UserData: Pointer);
    procedure LoadScript(const Text: string);
    procedure LoadScriptBytes(Text: PByte; Len: NativeUInt);
    procedure LoadScriptFile(const Path: string);
    { dealer_set_input_data: reads the deals from Len bytes of board records at Data (PBN, LIN,
      one-line, DL52, JSON Lines or ZRD; the input_format option names the format, by default
      it is found from the first bytes) instead of dealing them. The bytes are copied. Run,
      NextDeal and NextDeals take each record's deal through the script, its board number,
      dealer, vulnerability and tags kept in printpbn, printlin and printjson output, and the
      double-dummy table it carries answers dds() without solving; every run reads the records
      from the start. A malformed record makes Run raise EDealerError (DEALER_ERROR_IO, the
      message naming 'input data' and the line) unless the input_errors option is 'skip';
      LastSummary counts the records in "input". Data nil with Len 0 removes the input. }
    procedure SetInputData(Data: PByte; Len: NativeUInt); overload;
    { SetInputData with record text, as UTF-8 ('' is an input without records). The text is
      records, never a path: see SetInputFile. }
    procedure SetInputData(const Records: string); overload;
    { The input option: reads the deals from a file of board records ('-' standard input),
      opened when a run starts (a missing file: EDealerError, DEALER_ERROR_IO). }
    procedure SetInputFile(const Path: string);
    { Removes the input of SetInputData or SetInputFile: the session deals again. }
    procedure ClearInput;
    { dealer_mix_add: a scenario of the board set Run mixes: Count boards exactly (Count >= 0),
      else (Count = -1) a share of what the counts leave of the produce limit by Weight. }
    procedure AddScenario(const Name, Script: string; Weight: Double = 1.0; Count: Int64 = -1);
    { dealer_mix_clear: forgets the scenarios AddScenario added. }
    procedure ClearScenarios;
    { dealer_merge_add: a part file (written with the part or deals option and part_file) that
      Run merges into exactly what one run of the job prints. }
    procedure AddPart(const Path: string);
    { dealer_merge_clear: forgets the part files AddPart added. }
    procedure ClearParts;
    { dealer_check_script: checks Script as Flavour (DEALER_CHECK_BBO: as Bridge Base Online's
      dealer, classic dealer, reads it) without loading or dealing; returns every diagnostic
      (none: BBO accepts it as it is). ErrorCount counts the errors among them. Raises
      EDealerError for a failed call (not for a script with errors). }
    function CheckScript(const Script: string; Flavour: Integer = DEALER_CHECK_BBO): TDealerDiagnostics;

    { Captures a stream (DEALER_STREAM_*) into OutputText[Stream]; Capture False restores
      the default (standard output / standard error). }
    procedure SetOutput(Stream: Integer; Capture: Boolean = True);
    procedure SetOutputFd(Stream: Integer; Fd: Integer);
    procedure ClearOutput(Stream: Integer);
    { The bytes captured so far (UTF-8). }
    property OutputText[Stream: Integer]: UTF8String read GetOutputText;

    { Runs the job; returns DEALER_OK, DEALER_TIMED_OUT, DEALER_CEILING_REACHED or
      DEALER_INTERRUPTED; raises on errors. }
    function Run(out Report: TDealerRunReport): Integer; overload;
    function Run: TDealerRunReport; overload;
    { The last Run's JSON summary object, one line (dealer_last_summary): deals, seed, every
      statistic with its standard error and 95 % interval, the tables of leads actions, the
      precision reached, the double-dummy solves. Empty before a run and after one that failed. }
    function LastSummary: UTF8String;
    { False at DEALER_DONE. }
    function NextDeal(out Deal: TDealerDeal): Boolean;
    { Up to Count deals satisfying the condition, as Count calls of NextDeal would
      (dealer_next_deals), and Values[I][J] = the compiled expression Ids[J] (from
      CompileExpression) on deal I. Returns the number of deals stored, Length(Deals): fewer
      than Count when the generate/produce limit ended the dealing (DEALER_DONE). The last
      deal becomes the current deal. Raises EDealerError on an error (Deals and Values then
      hold the deals before the failing one). }
    function NextDeals(Count: Integer; const Ids: array of Cardinal; out Deals: TDealerDealArray;
      out Values: TDealerValueTable): Integer; overload;
    { NextDeals without expressions. }
    function NextDeals(Count: Integer; out Deals: TDealerDealArray): Integer; overload;
    { Reads a PBN [Deal] value such as 'N:AKQ2.K32.A92.T98 JT9.AQ7.KQ3.AJ73 ...'
      (dealer_deal_from_pbn): the first hand's seat (N, E, S or W), a colon, then four hands
      clockwise from it, each S.H.D.C with ranks AKQJT98765432 in any case, '-' for an empty
      hand. The deal may be incomplete. Bad text raises EDealerError with Status
      DEALER_ERROR_USAGE, Line 1 and the Column of the fault. }
    function ParseDeal(const Pbn: string): TDealerDeal;
    { Makes a complete deal the current deal for Eval, EvalCompiled and DdsTableCurrent
      (dealer_set_deal) without dealing: the next NextDeal goes on where the dealing was.
      Needs a loaded script; an incomplete deal raises EDealerError (DEALER_ERROR_USAGE). }
    procedure SetDeal(const Deal: TDealerDeal);
    function Eval(const Expr: string): Integer;
    function CompileExpression(const Expr: string): Cardinal;
    function EvalCompiled(Id: Cardinal): Integer;
    { Double dummy of Deal (DdsTableCurrent: of the current deal, from NextDeal, NextDeals or
      SetDeal). Vulnerability -1: no par. }
    function DdsTable(const Deal: TDealerDeal; Vulnerability: Integer = -1): TDealerDdsResults;
    function DdsTableCurrent(Vulnerability: Integer = -1): TDealerDdsResults;
    function CreateInterrupter: PDealerInterrupter;
    function LastError: string;
  end;

function DealToPbn(const Deal: TDealerDeal): string;
function DealToOneLine(const Deal: TDealerDeal): string;
function DealerVersion: string;
{ The number of errors (not warnings) among Diagnostics. }
function ErrorCount(const Diagnostics: TDealerDiagnostics): Integer;
{ Reads one diagnostic line "LINE:COL: warning|error: MESSAGE"; False when it is not one. }
function ParseDiagnostic(const Text: string; out Diagnostic: TDealerDiagnostic): Boolean;

implementation

{ A NUL-terminated UTF-8 text of the library as a string (the bytes copied without any
  code-page conversion, then decoded as UTF-8). }
function FromUtf8(P: PAnsiChar): string;
var
  U: UTF8String;
  N: Integer;
begin
  Result := '';
  if P = nil then
    Exit;
  N := 0;
  while P[N] <> #0 do
    Inc(N);
  SetString(U, P, N);
  Result := string(U);
end;

{ EDealerError }

constructor EDealerError.CreateStatus(AStatus: Integer; const AMessage, ASummary: string;
  ALine, AColumn: Integer);
begin
  inherited Create(AMessage);
  FStatus := AStatus;
  FSummary := ASummary;
  FLine := ALine;
  FColumn := AColumn;
end;

{ TDealerSession }

constructor TDealerSession.Create;
var
  Status: Int32;
begin
  inherited Create;
  Status := dealer_create_session(FHandle);
  if (Status <> DEALER_OK) or (FHandle = nil) then
  begin
    FHandle := nil;
    raise EDealerError.CreateStatus(Status, 'dealer_create_session failed', '', 0, 0);
  end;
end;

destructor TDealerSession.Destroy;
begin
  Close;
  inherited Destroy;
end;

procedure TDealerSession.Close;
var
  H: PDealerSessionHandle;
begin
  H := FHandle;
  FHandle := nil;
  if H <> nil then
    dealer_free_session(H);
end;

procedure TDealerSession.NeedHandle;
begin
  if FHandle = nil then
    raise EDealerError.CreateStatus(DEALER_ERROR_NULL, 'the session is closed', '', 0, 0);
end;

procedure TDealerSession.Check(Status: Int32);
var
  L, C: Cardinal;
  Msg: string;
begin
  if Status = DEALER_OK then
    Exit;
  L := 0;
  C := 0;
  if FHandle <> nil then
  begin
    dealer_last_error_location(FHandle, @L, @C);
    Msg := FromUtf8(dealer_last_error(FHandle));
    if Msg = '' then
      Msg := Format('libdealer status %d', [Status]);
    raise EDealerError.CreateStatus(Status, Msg, FromUtf8(dealer_last_error_summary(FHandle)),
      Integer(L), Integer(C));
  end;
  raise EDealerError.CreateStatus(Status, Format('libdealer status %d', [Status]), '', 0, 0);
end;

function TDealerSession.LastError: string;
begin
  if FHandle = nil then
    Result := ''
  else
    Result := FromUtf8(dealer_last_error(FHandle));
end;

procedure TDealerSession.SetOption(const Key, Value: string);
var
  K, V: UTF8String;
begin
  NeedHandle;
  K := UTF8String(Key);
  V := UTF8String(Value);
  Check(dealer_set_option(FHandle, PAnsiChar(K), PAnsiChar(V)));
end;

procedure TDealerSession.SetSeed(Seed: Int64);
begin
  NeedHandle;
  Check(dealer_set_seed(FHandle, Seed));
end;

function TDealerSession.GetSeed: Int64;
begin
  NeedHandle;
  Result := 0;
  Check(dealer_get_seed(FHandle, Result));
end;

procedure TDealerSession.SetGenerator(Generator: Integer);
begin
  NeedHandle;
  Check(dealer_set_generator(FHandle, Generator));
end;

procedure TDealerSession.SetDialect(Dialect: Integer);
begin
  NeedHandle;
  Check(dealer_set_dialect(FHandle, Dialect));
end;

procedure TDealerSession.SetGenerate(Limit: Int64);
begin
  NeedHandle;
  Check(dealer_set_generate(FHandle, Limit));
end;

procedure TDealerSession.SetProduce(Limit: Int64);
begin
  NeedHandle;
  Check(dealer_set_produce(FHandle, Limit));
end;

procedure TDealerSession.SetThreads(Threads: Cardinal);
begin
  NeedHandle;
  Check(dealer_set_threads(FHandle, Threads));
end;

procedure TDealerSession.SetVariable(Index: Cardinal; const Value: string);
var
  V: UTF8String;
begin
  NeedHandle;
  V := UTF8String(Value);
  Check(dealer_set_variable(FHandle, Index, PAnsiChar(V)));
end;

procedure TDealerSession.SetPredeal(Seat: Integer; const Cards: string);
var
  V: UTF8String;
begin
  NeedHandle;
  V := UTF8String(Cards);
  Check(dealer_set_predeal(FHandle, Seat, PAnsiChar(V)));
end;

procedure TDealerSession.SetUntrusted(Enabled: Boolean);
begin
  NeedHandle;
  Check(dealer_set_untrusted(FHandle, Ord(Enabled)));
end;

procedure TDealerSession.SetUsereval(Callback: TDealerUserevalFn; UserData: Pointer);
begin
  NeedHandle;
  Check(dealer_set_usereval(FHandle, Callback, UserData));
end;

procedure TDealerSession.LoadScript(const Text: string);
var
  U: UTF8String;
begin
  U := UTF8String(Text);
  LoadScriptBytes(PByte(PAnsiChar(U)), Length(U));
end;

procedure TDealerSession.LoadScriptBytes(Text: PByte; Len: NativeUInt);
var
  Empty: Byte;
begin
  NeedHandle;
  if Text = nil then
  begin
    Empty := 0;
    Text := @Empty;
  end;
  Check(dealer_load_script(FHandle, Text, Len));
end;

procedure TDealerSession.LoadScriptFile(const Path: string);
var
  P: UTF8String;
begin
  NeedHandle;
  P := UTF8String(Path);
  Check(dealer_load_script_file(FHandle, PAnsiChar(P)));
end;

procedure TDealerSession.SetInputData(Data: PByte; Len: NativeUInt);
begin
  NeedHandle;
  Check(dealer_set_input_data(FHandle, Data, Len));
end;

procedure TDealerSession.SetInputData(const Records: string);
var
  T: UTF8String;
  Empty: Byte;
begin
  T := UTF8String(Records);
  Empty := 0;
  { Never nil for no bytes: nil with length 0 removes the input. }
  if Length(T) > 0 then
    SetInputData(PByte(PAnsiChar(T)), Length(T))
  else
    SetInputData(@Empty, 0);
end;

procedure TDealerSession.SetInputFile(const Path: string);
begin
  SetOption('input', Path);
end;

procedure TDealerSession.ClearInput;
begin
  SetInputData(nil, 0);
end;

procedure TDealerSession.AddScenario(const Name, Script: string; Weight: Double; Count: Int64);
var
  N, T: UTF8String;
  Empty: Byte;
  Text: PByte;
begin
  NeedHandle;
  N := UTF8String(Name);
  T := UTF8String(Script);
  Empty := 0;
  if Length(T) > 0 then Text := PByte(PAnsiChar(T)) else Text := @Empty;
  Check(dealer_mix_add(FHandle, PAnsiChar(N), Text, Length(T), Weight, Count));
end;

procedure TDealerSession.ClearScenarios;
begin
  NeedHandle;
  Check(dealer_mix_clear(FHandle));
end;

procedure TDealerSession.AddPart(const Path: string);
var
  P: UTF8String;
begin
  NeedHandle;
  P := UTF8String(Path);
  Check(dealer_merge_add(FHandle, PAnsiChar(P)));
end;

procedure TDealerSession.ClearParts;
begin
  NeedHandle;
  Check(dealer_merge_clear(FHandle));
end;

{ The capture callbacks: one per stream, the session object as userdata. }
procedure Append(var S: UTF8String; data: PByte; len: NativeUInt);
var
  Old: NativeUInt;
begin
  if len = 0 then
    Exit;
  Old := Length(S);
  SetLength(S, Old + len);
  Move(data^, S[Old + 1], len);
end;

function WriteStream0(data: PByte; len: NativeUInt; userdata: Pointer): Int32; cdecl;
begin
  Append(TDealerSession(userdata).FOutput[0], data, len);
  Result := 0;
end;

function WriteStream1(data: PByte; len: NativeUInt; userdata: Pointer): Int32; cdecl;
begin
  Append(TDealerSession(userdata).FOutput[1], data, len);
  Result := 0;
end;

function WriteStream2(data: PByte; len: NativeUInt; userdata: Pointer): Int32; cdecl;
begin
  Append(TDealerSession(userdata).FOutput[2], data, len);
  Result := 0;
end;

function WriteStream3(data: PByte; len: NativeUInt; userdata: Pointer): Int32; cdecl;
begin
  Append(TDealerSession(userdata).FOutput[3], data, len);
  Result := 0;
end;

{ dealer_check_script's callback: the diagnostic lines, appended to the UTF8String at userdata. }
function CollectCheck(data: PByte; len: NativeUInt; userdata: Pointer): Int32; cdecl;
begin
  Append(PUTF8String(userdata)^, data, len);
  Result := 0;
end;

function ParseDiagnostic(const Text: string; out Diagnostic: TDealerDiagnostic): Boolean;
var
  Rest, Kind: string;
  P: Integer;
begin
  Result := False;
  Diagnostic.Line := 0;
  Diagnostic.Column := 0;
  Diagnostic.Severity := dcsError;
  Diagnostic.Message := '';
  Rest := Text;
  P := Pos(':', Rest);
  if (P < 2) or not TryStrToInt(Copy(Rest, 1, P - 1), Diagnostic.Line) then
    Exit;
  Delete(Rest, 1, P);
  P := Pos(':', Rest);
  if (P < 2) or not TryStrToInt(Copy(Rest, 1, P - 1), Diagnostic.Column) then
    Exit;
  Delete(Rest, 1, P);
  Rest := TrimLeft(Rest);
  P := Pos(':', Rest);
  if P < 2 then
    Exit;
  Kind := Copy(Rest, 1, P - 1);
  if Kind = 'warning' then
    Diagnostic.Severity := dcsWarning
  else if Kind = 'error' then
    Diagnostic.Severity := dcsError
  else
    Exit;
  Diagnostic.Message := Trim(Copy(Rest, P + 1, Length(Rest) - P));
  Result := True;
end;

function ErrorCount(const Diagnostics: TDealerDiagnostics): Integer;
var
  I: Integer;
begin
  Result := 0;
  for I := 0 to High(Diagnostics) do
    if Diagnostics[I].Severity = dcsError then
      Inc(Result);
end;

function TDealerSession.CheckScript(const Script: string; Flavour: Integer): TDealerDiagnostics;
var
  U, Lines: UTF8String;
  Empty: Byte;
  Text: PByte;
  Status: Int32;
  List: TStringList;
  I, N: Integer;
  D: TDealerDiagnostic;
begin
  Result := nil;
  NeedHandle;
  U := UTF8String(Script);
  Empty := 0;
  if Length(U) = 0 then
    Text := @Empty
  else
    Text := PByte(PAnsiChar(U));
  Lines := '';
  Status := dealer_check_script(FHandle, Text, Length(U), Flavour, CollectCheck, @Lines);
  if Status < 0 then
    Check(Status);
  List := TStringList.Create;
  try
    List.Text := string(Lines);
    SetLength(Result, List.Count);
    N := 0;
    for I := 0 to List.Count - 1 do
      if ParseDiagnostic(List[I], D) then
      begin
        Result[N] := D;
        Inc(N);
      end;
    SetLength(Result, N);
  finally
    List.Free;
  end;
end;

procedure TDealerSession.SetOutput(Stream: Integer; Capture: Boolean);
var
  Fn: TDealerWriteFn;
begin
  NeedHandle;
  if (Stream < 0) or (Stream > 3) then
  begin
    Check(dealer_set_output(FHandle, Stream, nil, nil));
    Exit;
  end;
  if not Capture then
  begin
    Check(dealer_set_output(FHandle, Stream, nil, nil));
    Exit;
  end;
  case Stream of
    0: Fn := WriteStream0;
    1: Fn := WriteStream1;
    2: Fn := WriteStream2;
  else
    Fn := WriteStream3;
  end;
  Check(dealer_set_output(FHandle, Stream, Fn, Pointer(Self)));
end;

procedure TDealerSession.SetOutputFd(Stream: Integer; Fd: Integer);
begin
  NeedHandle;
  Check(dealer_set_output_fd(FHandle, Stream, Fd));
end;

procedure TDealerSession.ClearOutput(Stream: Integer);
begin
  if (Stream >= 0) and (Stream <= 3) then
    FOutput[Stream] := '';
end;

function TDealerSession.GetOutputText(Stream: Integer): UTF8String;
begin
  if (Stream >= 0) and (Stream <= 3) then
    Result := FOutput[Stream]
  else
    Result := '';
end;

function TDealerSession.LastSummary: UTF8String;
begin
  NeedHandle;
  Result := FromUtf8(dealer_last_summary(FHandle));
end;

function TDealerSession.Run(out Report: TDealerRunReport): Integer;
var
  Status: Int32;
begin
  NeedHandle;
  FillChar(Report, SizeOf(Report), 0);
  Report.size := SizeOf(TDealerRunReport);
  Status := dealer_run(FHandle, @Report);
  if (Status = DEALER_OK) or (Status = DEALER_TIMED_OUT) or (Status = DEALER_CEILING_REACHED)
    or (Status = DEALER_INTERRUPTED) then
    Result := Status
  else
  begin
    Check(Status);
    Result := Status;
  end;
end;

function TDealerSession.Run: TDealerRunReport;
begin
  Run(Result);
end;

function TDealerSession.NextDeal(out Deal: TDealerDeal): Boolean;
var
  Status: Int32;
begin
  NeedHandle;
  FillChar(Deal, SizeOf(Deal), 0);
  Status := dealer_next_deal(FHandle, @Deal);
  if Status = DEALER_DONE then
    Result := False
  else
  begin
    Check(Status);
    Result := True;
  end;
end;

function TDealerSession.NextDeals(Count: Integer; const Ids: array of Cardinal;
  out Deals: TDealerDealArray; out Values: TDealerValueTable): Integer;
var
  Flat: array of Integer;
  Produced: NativeUInt;
  Status: Int32;
  IdPtr: PCardinal;
  ValuePtr: PInteger;
  DealPtr: PDealerDeal;
  K, I, J: Integer;
begin
  NeedHandle;
  if Count < 0 then
    raise EDealerError.CreateStatus(DEALER_ERROR_USAGE, 'NextDeals: negative count', '', 0, 0);
  K := Length(Ids);
  SetLength(Deals, Count);
  SetLength(Flat, Count * K);
  IdPtr := nil;
  ValuePtr := nil;
  DealPtr := nil;
  if K > 0 then
    IdPtr := @Ids[0];
  if Length(Flat) > 0 then
    ValuePtr := @Flat[0];
  if Count > 0 then
    DealPtr := @Deals[0];
  Produced := 0;
  Status := dealer_next_deals(FHandle, NativeUInt(Count), DealPtr, IdPtr, UInt32(K), ValuePtr,
    Produced);
  Result := Integer(Produced);
  SetLength(Deals, Result);
  SetLength(Values, Result, K);
  for I := 0 to Result - 1 do
    for J := 0 to K - 1 do
      Values[I][J] := Flat[I * K + J];
  if Status <> DEALER_DONE then
    Check(Status);
end;

function TDealerSession.NextDeals(Count: Integer; out Deals: TDealerDealArray): Integer;
var
  Values: TDealerValueTable;
begin
  Result := NextDeals(Count, [], Deals, Values);
end;

function TDealerSession.ParseDeal(const Pbn: string): TDealerDeal;
var
  U: UTF8String;
begin
  NeedHandle;
  U := UTF8String(Pbn);
  FillChar(Result, SizeOf(Result), 0);
  Check(dealer_deal_from_pbn(FHandle, PAnsiChar(U), @Result));
end;

procedure TDealerSession.SetDeal(const Deal: TDealerDeal);
begin
  NeedHandle;
  Check(dealer_set_deal(FHandle, @Deal));
end;

function TDealerSession.Eval(const Expr: string): Integer;
var
  E: UTF8String;
  V: Int32;
begin
  NeedHandle;
  E := UTF8String(Expr);
  V := 0;
  Check(dealer_eval(FHandle, PAnsiChar(E), V));
  Result := V;
end;

function TDealerSession.CompileExpression(const Expr: string): Cardinal;
var
  E: UTF8String;
  Id: UInt32;
begin
  NeedHandle;
  E := UTF8String(Expr);
  Id := 0;
  Check(dealer_compile_expression(FHandle, PAnsiChar(E), Id));
  Result := Id;
end;

function TDealerSession.EvalCompiled(Id: Cardinal): Integer;
var
  V: Int32;
begin
  NeedHandle;
  V := 0;
  Check(dealer_eval_compiled(FHandle, Id, V));
  Result := V;
end;

function TDealerSession.DdsTable(const Deal: TDealerDeal; Vulnerability: Integer): TDealerDdsResults;
begin
  NeedHandle;
  FillChar(Result, SizeOf(Result), 0);
  Result.size := SizeOf(TDealerDdsResults);
  Result.par_vulnerability := Vulnerability;
  Check(dealer_dds_table(FHandle, @Deal, @Result));
end;

function TDealerSession.DdsTableCurrent(Vulnerability: Integer): TDealerDdsResults;
begin
  NeedHandle;
  FillChar(Result, SizeOf(Result), 0);
  Result.size := SizeOf(TDealerDdsResults);
  Result.par_vulnerability := Vulnerability;
  Check(dealer_dds_table(FHandle, nil, @Result));
end;

function TDealerSession.CreateInterrupter: PDealerInterrupter;
begin
  NeedHandle;
  Result := nil;
  Check(dealer_create_interrupter(FHandle, Result));
end;

function DealText(const Deal: TDealerDeal; OneLine: Boolean): string;
var
  Buf: array[0..255] of AnsiChar;
  N: NativeUInt;
begin
  if OneLine then
    N := dealer_deal_to_oneline(@Deal, @Buf[0], SizeOf(Buf))
  else
    N := dealer_deal_to_pbn(@Deal, @Buf[0], SizeOf(Buf));
  if N >= SizeOf(Buf) then
    Buf[High(Buf)] := #0;
  Result := FromUtf8(@Buf[0]);
end;

function DealToPbn(const Deal: TDealerDeal): string;
begin
  Result := DealText(Deal, False);
end;

function DealToOneLine(const Deal: TDealerDeal): string;
begin
  Result := DealText(Deal, True);
end;

function DealerVersion: string;
begin
  Result := FromUtf8(dealer_version);
end;

end.
