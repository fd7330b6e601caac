{ test_dealer.pas -- tests of the Dealer unit (run by tests/bindings_pascal.sh).

  Usage: test_dealer LAYOUT_FILE SCRIPT_FILE SEED CAPTURE_OUT [BBO_SCRIPT]
    LAYOUT_FILE  lines "name value" from a C program: sizeof of each struct, offsetof of
                 each field (name struct.field)
    SCRIPT_FILE  the capture script; its output with seed SEED goes to CAPTURE_OUT
    BBO_SCRIPT   a real BBO script, which CheckScript must find free of errors
  Prints "ok: NAME" / "FAIL: NAME" and "N passed, M failed"; exit status 1 on failure. }
program test_dealer;

{$IFDEF FPC}{$MODE DELPHI}{$H+}{$ENDIF}

uses
  SysUtils, Classes, Dealer;

var
  Passed, Failed: Integer;
  Layout: TStringList;

procedure Check(Cond: Boolean; const Name: string; const Detail: string = '');
begin
  if Cond then
  begin
    WriteLn('ok: ', Name);
    Inc(Passed);
  end
  else
  begin
    if Detail <> '' then
      WriteLn('FAIL: ', Name, ' (', Detail, ')')
    else
      WriteLn('FAIL: ', Name);
    Inc(Failed);
  end;
end;

procedure CheckLayout(const Name: string; Got: NativeUInt);
var
  Want: string;
begin
  Want := Layout.Values[Name];
  Check((Want <> '') and (StrToIntDef(Want, -1) = Integer(Got)),
    'layout ' + Name, Format('Pascal %d, C %s', [Got, Want]));
end;

function Off(Base, Field: Pointer): NativeUInt;
begin
  Result := NativeUInt(Field) - NativeUInt(Base);
end;

procedure TestLayout;
var
  R: TDealerRunReport;
  D: TDealerDdsResults;
  Q: TDealerUserevalQuery;
  H: TDealerHandStats;
  Deal: TDealerDeal;
begin
  CheckLayout('dealer_deal', SizeOf(TDealerDeal));
  CheckLayout('dealer_deal.hands', Off(@Deal, @Deal.hands));
  CheckLayout('dealer_run_report', SizeOf(TDealerRunReport));
  CheckLayout('dealer_run_report.size', Off(@R, @R.size));
  CheckLayout('dealer_run_report.generated', Off(@R, @R.generated));
  CheckLayout('dealer_run_report.produced', Off(@R, @R.produced));
  CheckLayout('dealer_run_report.seed', Off(@R, @R.seed));
  CheckLayout('dealer_run_report.ceiling', Off(@R, @R.ceiling));
  CheckLayout('dealer_dds_results', SizeOf(TDealerDdsResults));
  CheckLayout('dealer_dds_results.size', Off(@D, @D.size));
  CheckLayout('dealer_dds_results.par_vulnerability', Off(@D, @D.par_vulnerability));
  CheckLayout('dealer_dds_results.tricks', Off(@D, @D.tricks));
  CheckLayout('dealer_dds_results.par_score_ns', Off(@D, @D.par_score_ns));
  CheckLayout('dealer_dds_results.par_contract', Off(@D, @D.par_contract));
  CheckLayout('dealer_usereval_query', SizeOf(TDealerUserevalQuery));
  CheckLayout('dealer_usereval_query.index', Off(@Q, @Q.index));
  CheckLayout('dealer_usereval_query.generated', Off(@Q, @Q.generated));
  CheckLayout('dealer_usereval_query.produced', Off(@Q, @Q.produced));
  CheckLayout('dealer_hand_stats', SizeOf(TDealerHandStats));
  CheckLayout('dealer_hand_stats.counts', Off(@H, @H.counts));
  CheckLayout('dealer_hand_stats.total_counts', Off(@H, @H.total_counts));
  CheckLayout('dealer_hand_stats.square_hand', Off(@H, @H.square_hand));
  CheckLayout('dealer_hand_stats.top_cards', Off(@H, @H.top_cards));
  CheckLayout('dealer_hand_stats.has_card', Off(@H, @H.has_card));
end;

procedure TestScriptError;
var
  S: TDealerSession;
  Raised: Boolean;
begin
  S := TDealerSession.Create;
  try
    Raised := False;
    try
      S.LoadScript('generate 10' + #10 + 'condition hcp(north) &&& 3' + #10);
    except
      on E: EDealerError do
      begin
        Raised := True;
        Check(E.Status = DEALER_ERROR_SCRIPT, 'script error status', IntToStr(E.Status));
        Check(E.Line = 2, 'script error line', IntToStr(E.Line));
        Check(E.Column = 24, 'script error column', IntToStr(E.Column));
        Check(Pos('line 2, column 24', E.Message) = 1, 'script error message', E.Message);
        Check(E.Summary <> '', 'script error summary');
      end;
    end;
    Check(Raised, 'script error raises EDealerError');
    Raised := False;
    try
      S.SetOption('no_such_option', '1');
    except
      on E: EDealerError do
        Raised := E.Status = DEALER_ERROR_OPTION;
    end;
    Check(Raised, 'option error raises EDealerError');
  finally
    S.Free;
  end;
end;

{ The bytes of a file as a string (no line-end conversion). }
function ReadFileText(const Path: string): string;
var
  F: TFileStream;
  U: UTF8String;
begin
  F := TFileStream.Create(Path, fmOpenRead or fmShareDenyNone);
  try
    SetLength(U, F.Size);
    if F.Size > 0 then
      F.ReadBuffer(U[1], F.Size);
  finally
    F.Free;
  end;
  Result := string(U);
end;

(* CheckScript (dealer_check_script, DEALER_CHECK_BBO): a real BBO script has no error; a script
   with a '#' not in column 1 and a 'shape{...}' gets both errors at their lines and columns. *)
procedure TestCheckScript(const CleanFile: string);
var
  S: TDealerSession;
  D: TDealerDiagnostics;
  Parsed: TDealerDiagnostic;
begin
  S := TDealerSession.Create;
  try
    if CleanFile <> '' then
    begin
      D := S.CheckScript(ReadFileText(CleanFile));
      Check(ErrorCount(D) = 0, 'CheckScript: a real BBO script has no error',
        Format('%d errors in %s', [ErrorCount(D), CleanFile]));
    end;
    D := S.CheckScript('produce 1 # one deal' + #10 + 'condition shape{north, 5+s}' + #10);
    Check(Length(D) = 2, 'CheckScript: two diagnostics', IntToStr(Length(D)));
    if Length(D) = 2 then
    begin
      Check((D[0].Line = 1) and (D[0].Column = 11) and (D[0].Severity = dcsError),
        'CheckScript: # not in column 1 at 1:11', Format('%d:%d', [D[0].Line, D[0].Column]));
      Check(Pos('`#` not in column 1', D[0].Message) = 1, 'CheckScript: # message', D[0].Message);
      Check((D[1].Line = 2) and (D[1].Column = 11) and (D[1].Severity = dcsError),
        'CheckScript: shape{} at 2:11', Format('%d:%d', [D[1].Line, D[1].Column]));
      Check((Pos('`shape{', D[1].Message) = 1) and (Pos('is DealerV2 only', D[1].Message) > 0),
        'CheckScript: shape{} message', D[1].Message);
    end;
    Check(ErrorCount(D) = 2, 'CheckScript: ErrorCount', IntToStr(ErrorCount(D)));
    D := S.CheckScript('par = hcp(north)' + #10 + 'condition par > 10' + #10);
    Check((Length(D) = 2) and (ErrorCount(D) = 0) and (D[0].Severity = dcsWarning),
      'CheckScript: warnings only', IntToStr(Length(D)));
    D := S.CheckScript('');
    Check(Length(D) = 0, 'CheckScript: an empty script', IntToStr(Length(D)));
    Check(ParseDiagnostic('12:3: warning: a: b', Parsed) and (Parsed.Line = 12) and (Parsed.Column = 3)
      and (Parsed.Severity = dcsWarning) and (Parsed.Message = 'a: b'), 'ParseDiagnostic');
    Check(not ParseDiagnostic('no diagnostic', Parsed), 'ParseDiagnostic refuses other text');
  finally
    S.Free;
  end;
end;

procedure TestCapture(const ScriptFile, Seed, OutFile: string);
var
  S: TDealerSession;
  R: TDealerRunReport;
  F: TFileStream;
  Text: UTF8String;
  Status: Integer;
begin
  S := TDealerSession.Create;
  try
    S.SetOption('seed', Seed);
    S.LoadScriptFile(ScriptFile);
    S.SetOutput(DEALER_STREAM_OUTPUT);
    Check(S.LastSummary = '', 'no summary before a run');
    Status := S.Run(R);
    Check(Status = DEALER_OK, 'run status');
    Check(Pos('{"schema":1,"type":"summary","generated":', S.LastSummary) = 1, 'LastSummary: the run''s JSON summary', S.LastSummary);
    Check((R.produced = 5) and (R.generated >= 5) and (IntToStr(R.seed) = Seed),
      'run report', Format('generated %d produced %d seed %d', [R.generated, R.produced, R.seed]));
    Text := S.OutputText[DEALER_STREAM_OUTPUT];
    Check(Length(Text) > 0, 'captured output');
    F := TFileStream.Create(OutFile, fmCreate);
    try
      if Length(Text) > 0 then
        F.WriteBuffer(Text[1], Length(Text));
    finally
      F.Free;
    end;
  finally
    S.Free;
  end;
end;

procedure TestDeals;
var
  S: TDealerSession;
  Deal, Last: TDealerDeal;
  N, H, I: Integer;
  AllOk, HcpOk: Boolean;
  Mask: UInt64;
  Dds: TDealerDdsResults;
  Id: Cardinal;
begin
  S := TDealerSession.Create;
  try
    S.SetSeed(11);
    S.LoadScript('generate 100' + #10 + 'produce 4' + #10 + 'condition hcp(north) >= 0' + #10);
    S.SetProduce(4);
    N := 0;
    AllOk := True;
    HcpOk := True;
    Id := S.CompileExpression('hcp(south)');
    while S.NextDeal(Deal) do
    begin
      Inc(N);
      Last := Deal;
      Mask := 0;
      for I := 0 to 3 do
      begin
        if (Mask and Deal.hands[I]) <> 0 then
          AllOk := False;
        Mask := Mask or Deal.hands[I];
      end;
      if Mask <> $1FFF1FFF1FFF1FFF then
        AllOk := False;
      H := S.Eval('hcp(north)');
      if (H < 0) or (H > 37) then
        HcpOk := False;
      H := S.EvalCompiled(Id);
      if (H < 0) or (H > 37) then
        HcpOk := False;
      if N > 100 then
        Break;
    end;
    Check(N = 4, 'NextDeal yields 4 deals then DONE', IntToStr(N));
    Check(AllOk, 'deals hold 52 distinct cards');
    Check(HcpOk, 'Eval hcp(north) in 0..37');
    Check(Length(DealToPbn(Last)) > 60, 'DealToPbn', DealToPbn(Last));
    Dds := S.DdsTable(Last, 0);
    AllOk := True;
    N := 0;
    for H := 0 to 3 do
      for I := 0 to 4 do
      begin
        Inc(N);
        if (Dds.tricks[H][I] < 0) or (Dds.tricks[H][I] > 13) then
          AllOk := False;
      end;
    Check((N = 20) and AllOk, 'DD table: 20 values in 0..13');
    for I := 0 to 4 do
      if Dds.tricks[0][I] + Dds.tricks[1][I] <> 13 then
        AllOk := False;
    Check(AllOk, 'DD table: North + East = 13 in each strain');
  finally
    S.Free;
  end;
end;

procedure TestFreeTwice;
var
  S: TDealerSession;
  Raised: Boolean;
begin
  S := TDealerSession.Create;
  S.Close;
  Check(S.Handle = nil, 'Close sets the handle to nil');
  S.Close;
  Raised := False;
  try
    S.Eval('1');
  except
    on E: EDealerError do
      Raised := True;
  end;
  Check(Raised, 'a closed session raises EDealerError');
  S.Free;
  Check(True, 'freeing twice is safe');
  Check(dealer_version_number = DEALER_VERSION_MAJOR * 10000 + DEALER_VERSION_MINOR * 100
    + DEALER_VERSION_PATCH, 'version number matches the unit', DealerVersion);
end;

const
  { A complete deal written out by hand: North (AKQ2.K32.A92.T98) holds 16 points, East 17,
    South 7, West 0. }
  KnownPbn = 'N:AKQ2.K32.A92.T98 JT9.AQ7.KQ3.AJ73 8765.JT98.J54.KQ 43.654.T876.6542';

function SameDeal(const A, B: TDealerDeal): Boolean;
var
  I: Integer;
begin
  Result := True;
  for I := 0 to 3 do
    if A.hands[I] <> B.hands[I] then
      Result := False;
end;

procedure TestPbn;
var
  S: TDealerSession;
  Deal, Back, Known: TDealerDeal;
  N: Integer;
  AllSame, Raised: Boolean;
  Text, Rotated: string;
  Parts: TStringList;
begin
  S := TDealerSession.Create;
  Parts := TStringList.Create;
  try
    S.SetSeed(21);
    S.LoadScript('produce 6' + #10 + 'condition hcp(south) >= 8' + #10);
    N := 0;
    AllSame := True;
    while S.NextDeal(Deal) do
    begin
      Inc(N);
      Text := DealToPbn(Deal);
      Back := S.ParseDeal(Text);
      if not SameDeal(Back, Deal) or (DealToPbn(Back) <> Text) then
        AllSame := False;
      if N = 1 then
      begin
        { The first deal from West's hand, in lower case: four hands clockwise from W. }
        Parts.Delimiter := ' ';
        Parts.StrictDelimiter := True;
        Parts.DelimitedText := Copy(Text, 3, Length(Text));
        Rotated := LowerCase('W:' + Parts[3] + ' ' + Parts[0] + ' ' + Parts[1] + ' ' + Parts[2]);
        Check(SameDeal(S.ParseDeal(Rotated), Deal),
          'PBN: a lower-case deal starting with West reads as the same deal', Rotated);
      end;
    end;
    Check((N = 6) and AllSame, 'PBN round trip: ParseDeal(DealToPbn(deal)) = deal (6 deals)',
      IntToStr(N) + ' deals');
    Known := S.ParseDeal(KnownPbn);
    Check(DealToPbn(Known) = KnownPbn, 'PBN: the hand-written deal reads back to its text',
      DealToPbn(Known));
    { North's spades AKQ2: bits 48 + 12, 48 + 11, 48 + 10 and 48. }
    Check((Known.hands[DEALER_NORTH] shr 48) and $1FFF = (1 shl 12) or (1 shl 11) or (1 shl 10) or 1,
      'PBN: North''s spades are the bits of A K Q 2');
    Raised := False;
    try
      S.ParseDeal('N:AKQX.K32.A92.T98 JT9.AQ7.KQ3.AJ73 8765.JT98.J54.KQ 43.654.T876.6542');
    except
      on E: EDealerError do
      begin
        Raised := True;
        Check((E.Status = DEALER_ERROR_USAGE) and (E.Line = 1) and (E.Column = 6),
          'bad PBN: DEALER_ERROR_USAGE at line 1, column 6 (the X)',
          Format('status %d line %d column %d', [E.Status, E.Line, E.Column]));
        Check((Pos('column 6', E.Message) > 0) and (Pos('bad PBN deal', E.Message) > 0)
          and (Pos('''X''', E.Message) > 0),
          'bad PBN: the message names the column and the character', E.Message);
      end;
    end;
    Check(Raised, 'bad PBN raises EDealerError');
    Raised := False;
    try
      S.ParseDeal('N:AKQ2.K32.A92.T98 JT9.AQ7.KQ3.AJ73 8765.JT98.J54.KQ 43.654.T876.654A');
    except
      on E: EDealerError do
        Raised := (E.Status = DEALER_ERROR_USAGE) and (E.Column = 69)
          and (Pos('the card CA appears twice', E.Message) > 0);
    end;
    Check(Raised, 'bad PBN: a card twice is reported at column 69');
  finally
    Parts.Free;
    S.Free;
  end;
end;

procedure TestSetDeal;
var
  S, Fresh: TDealerSession;
  Known, First, Second, A, B, Partial: TDealerDeal;
  Raised, SameTable: Boolean;
  Current, Direct: TDealerDdsResults;
  D, T: Integer;
begin
  S := TDealerSession.Create;
  Fresh := TDealerSession.Create;
  try
    Known := S.ParseDeal(KnownPbn);
    Raised := False;
    try
      S.SetDeal(Known);
    except
      on E: EDealerError do
        Raised := E.Status = DEALER_ERROR_USAGE;
    end;
    Check(Raised, 'SetDeal without a script: DEALER_ERROR_USAGE');
    S.SetSeed(5);
    S.LoadScript('condition hcp(north) >= 20' + #10);
    S.NextDeal(First);
    S.SetDeal(Known);
    Check((S.Eval('hcp(north)') = 16) and (S.Eval('hcp(east)') = 17) and (S.Eval('hcp(south)') = 7)
      and (S.Eval('hcp(west)') = 0), 'SetDeal, then Eval hcp: 16 17 7 0',
      Format('%d %d %d %d', [S.Eval('hcp(north)'), S.Eval('hcp(east)'), S.Eval('hcp(south)'),
        S.Eval('hcp(west)')]));
    Check(S.EvalCompiled(S.CompileExpression('shape(north, 4333)')) = 1,
      'SetDeal, then EvalCompiled shape(north, 4333) is 1');
    Current := S.DdsTableCurrent;
    Direct := S.DdsTable(Known);
    SameTable := True;
    for D := 0 to 3 do
      for T := 0 to 4 do
        if Current.tricks[D][T] <> Direct.tricks[D][T] then
          SameTable := False;
    Check(SameTable, 'SetDeal, then DdsTableCurrent = DdsTable(deal)');
    Partial := S.ParseDeal('N:AKQ2.K32.A92.T98 - - -');
    Raised := False;
    try
      S.SetDeal(Partial);
    except
      on E: EDealerError do
        Raised := E.Status = DEALER_ERROR_USAGE;
    end;
    Check(Raised, 'SetDeal of an incomplete deal: DEALER_ERROR_USAGE');
    { The dealing goes on where it was. }
    S.NextDeal(Second);
    Fresh.SetSeed(5);
    Fresh.LoadScript('condition hcp(north) >= 20' + #10);
    Fresh.NextDeal(A);
    Fresh.NextDeal(B);
    Check(SameDeal(A, First) and SameDeal(B, Second), 'SetDeal does not advance the dealing');
  finally
    Fresh.Free;
    S.Free;
  end;
end;

procedure TestNextDeals;
const
  Script = 'condition hcp(north) >= 12 && hcp(south) >= 10' + #10;
  Limited = 'generate 300' + #10 + 'condition hcp(north) >= 16' + #10;
  Exprs: array[0..3] of string = ('hcp(north)', 'hcp(south)', 'spades(north) >= 4',
    'hcp(east) - hcp(west)');
var
  Batch, Single: TDealerSession;
  Ids: array[0..3] of Cardinal;
  Deals: TDealerDealArray;
  Values: TDealerValueTable;
  Deal: TDealerDeal;
  N, I, J, Expected: Integer;
  SameDeals, SameValues, Raised: Boolean;
begin
  Batch := TDealerSession.Create;
  Single := TDealerSession.Create;
  try
    Batch.SetSeed(99);
    Single.SetSeed(99);
    Batch.LoadScript(Script);
    Single.LoadScript(Script);
    for J := 0 to 3 do
      Ids[J] := Batch.CompileExpression(Exprs[J]);
    N := Batch.NextDeals(8, Ids, Deals, Values);
    Check((N = 8) and (Length(Deals) = 8) and (Length(Values) = 8) and (Length(Values[0]) = 4),
      'NextDeals(8): 8 deals, 8 x 4 values', IntToStr(N));
    SameDeals := True;
    SameValues := True;
    for I := 0 to N - 1 do
    begin
      if not Single.NextDeal(Deal) or not SameDeal(Deal, Deals[I]) then
        SameDeals := False;
      for J := 0 to 3 do
        if Single.Eval(Exprs[J]) <> Values[I][J] then
          SameValues := False;
    end;
    Check(SameDeals, 'NextDeals = NextDeal one by one (same seed)');
    Check(SameValues, 'NextDeals values = Eval on each deal');
    Check((N = 8) and (Batch.Eval('hcp(north)') = Values[7][0]), 'NextDeals: the last deal is current');
    N := Batch.NextDeals(3, Deals);
    Check((N = 3) and Single.NextDeal(Deal) and SameDeal(Deal, Deals[0]),
      'NextDeals without ids goes on with the dealing');
  finally
    Single.Free;
    Batch.Free;
  end;
  Batch := TDealerSession.Create;
  Single := TDealerSession.Create;
  try
    Batch.SetSeed(4);
    Single.SetSeed(4);
    { Plain dealing: smart dealing would draw North's 16+ hands directly, one per deal generated. }
    Batch.SetOption('smart', 'off');
    Single.SetOption('smart', 'off');
    Batch.LoadScript(Limited);
    Single.LoadScript(Limited);
    N := Batch.NextDeals(50, [Batch.CompileExpression('hcp(north)')], Deals, Values);
    Expected := 0;
    SameDeals := True;
    while Single.NextDeal(Deal) do
    begin
      if (Expected >= N) or not SameDeal(Deal, Deals[Expected]) or (Values[Expected][0] < 16) then
        SameDeals := False;
      Inc(Expected);
    end;
    Check((N > 0) and (N < 50) and (N = Expected) and SameDeals,
      'NextDeals at the generate limit: the deals NextDeal gives until DONE, values >= 16',
      Format('%d vs %d', [N, Expected]));
    Raised := False;
    try
      Batch.NextDeals(2, [12345], Deals, Values);
    except
      on E: EDealerError do
        Raised := E.Status = DEALER_ERROR_USAGE;
    end;
    Check(Raised, 'NextDeals with an unknown id: DEALER_ERROR_USAGE');
  finally
    Single.Free;
    Batch.Free;
  end;
end;

{ A mixed board set of two scenarios: exact count and weight, boards numbered through. }
procedure TestMix;
var
  S: TDealerSession;
  Out: string;
  Raised: Boolean;
begin
  S := TDealerSession.Create;
  try
    S.SetOption('seed', '6');
    S.SetOption('produce', '6');
    S.SetOption('format', 'jsonl');
    S.AddScenario('strong', 'condition hcp(north) >= 20' + #10);
    S.AddScenario('weak2', 'dealer west' + #10 + 'condition spades(west) >= 6' + #10, 0.0, 2);
    Raised := False;
    try
      S.AddScenario('broken', 'condition hcp(north) >');
    except
      on E: EDealerError do Raised := Pos('in scenario broken', E.Message) > 0;
    end;
    Check(Raised, 'AddScenario refuses a script error, naming the scenario');
    S.SetOutput(DEALER_STREAM_OUTPUT);
    S.Run;
    Out := string(S.OutputText[DEALER_STREAM_OUTPUT]);
    Check((Pos('"board":6,', Out) > 0) and (Pos('"board":7,', Out) = 0), 'mixed set: boards 1 to 6', Out);
    Check(Pos('"scenario":"weak2"', Out) > 0, 'mixed set: boards name their scenario', Out);
    S.ClearScenarios;
  finally
    S.Free;
  end;
end;

{ Reading deals: PBN records with their double-dummy tables from memory and from a file, a
  malformed record, an empty input, and dealing again once the input is removed. }
procedure TestInput;
const
  Bad = 'n AKQJ.AKQ.AKQ.AKQ e T987.JT9.JT9.JT9 s 6543.876.876.876 w 2.5432.5432.5432' + #10 +
        'n AKQJ.AKQ.AKQ.AKQ e T987.JT9.JT9.JT9 s 6543.876.876.876 w 2.5432.5432.543X' + #10;
var
  S: TDealerSession;
  Pbn, Expected, Out, Summary, Msg, FileName: string;
  Deal: TDealerDeal;
  R: TDealerRunReport;
  Status: Integer;
  F: TStringList;
begin
  S := TDealerSession.Create;
  try
    { Three deals (seed 12) as PBN records with tables, and dealt one by one. }
    S.SetSeed(12);
    S.SetOption('format', 'pbn');
    S.SetOption('pbn_dd', 'true');
    S.LoadScript('produce 3' + #10);
    S.SetOutput(DEALER_STREAM_OUTPUT);
    S.Run;
    Pbn := string(S.OutputText[DEALER_STREAM_OUTPUT]);
    S.LoadScript('produce 3' + #10);
    Expected := '';
    while S.NextDeal(Deal) do
      Expected := Expected + DealToOneLine(Deal) + #10;
  finally
    S.Free;
  end;
  Check(Pos('[OptimumResultTable ', Pbn) > 0, 'input: PBN records with tables', Pbn);
  FileName := GetTempDir + 'libdealer-pascal-test.pbn';
  S := TDealerSession.Create;
  try
    S.LoadScript('action printoneline, average dds(north, notrump)' + #10);
    S.SetOutput(DEALER_STREAM_OUTPUT);
    S.SetInputData(Pbn);
    R := S.Run;
    Out := string(S.OutputText[DEALER_STREAM_OUTPUT]);
    Check((Pos(Expected, Out) = 1) and (R.produced = 3) and (R.generated = 3),
      'SetInputData: the records'' deals through the script', Out);
    Summary := string(S.LastSummary);
    Check(Pos('"input":{"name":"input data","format":"pbn","records_read":3,"malformed_skipped":0,' +
      '"off_predeal_skipped":0,"dd_read":3,"dd_verified":0}', Summary) > 0,
      'SetInputData: the summary counts the records', Summary);
    Check(Pos('"dd":{"thresholds":0,"exact":0,"tables":0,', Summary) > 0,
      'SetInputData: the tables read, none solved', Summary);
    F := TStringList.Create;
    try
      F.Text := Pbn;
      F.SaveToFile(FileName);
    finally
      F.Free;
    end;
    S.SetInputFile(FileName);
    S.ClearOutput(DEALER_STREAM_OUTPUT);
    S.Run;
    Out := string(S.OutputText[DEALER_STREAM_OUTPUT]);
    Check((Pos(Expected, Out) = 1) and (Pos('libdealer-pascal-test.pbn","format":"pbn"', string(S.LastSummary)) > 0),
      'SetInputFile: the same deals, the file named', string(S.LastSummary));
    S.LoadScript('action printoneline' + #10);
    S.SetInputData(Bad);
    Status := 0;
    Msg := '';
    try
      S.Run;
    except
      on E: EDealerError do
      begin
        Status := E.Status;
        Msg := E.Message;
      end;
    end;
    Check((Status = DEALER_ERROR_IO) and (Pos('input data:2:75: ''X'' is not a card rank', Msg) = 1),
      'a malformed record: DEALER_ERROR_IO naming its line', Msg);
    S.SetOption('input_errors', 'skip');
    S.SetOutput(DEALER_STREAM_DIAGNOSTICS);
    S.Run;
    Check(Pos('"records_read":2,"malformed_skipped":1,', string(S.LastSummary)) > 0,
      'input_errors skip: counted', string(S.LastSummary));
    Check(Pos('skipped a malformed record: input data:2:75: ', string(S.OutputText[DEALER_STREAM_DIAGNOSTICS])) = 1,
      'input_errors skip: a notice on the diagnostics stream', string(S.OutputText[DEALER_STREAM_DIAGNOSTICS]));
    S.SetInputData('');
    R := S.Run;
    Check((R.produced = 0) and (Pos('"records_read":0,', string(S.LastSummary)) > 0),
      'an empty input: no deal', string(S.LastSummary));
    S.ClearInput;
    S.SetSeed(12);
    S.SetProduce(3);
    S.ClearOutput(DEALER_STREAM_OUTPUT);
    S.Run;
    Out := string(S.OutputText[DEALER_STREAM_OUTPUT]);
    Check((Pos(Expected, Out) = 1) and (Pos('"input"', string(S.LastSummary)) = 0),
      'ClearInput: the session deals again', Out);
  finally
    S.Free;
    DeleteFile(FileName);
  end;
end;

begin
  Passed := 0;
  Failed := 0;
  if ParamCount < 4 then
  begin
    WriteLn('usage: test_dealer LAYOUT_FILE SCRIPT_FILE SEED CAPTURE_OUT');
    Halt(2);
  end;
  Layout := TStringList.Create;
  try
    Layout.NameValueSeparator := ' ';
    Layout.LoadFromFile(ParamStr(1));
    try
      TestLayout;
      TestScriptError;
      TestCapture(ParamStr(2), ParamStr(3), ParamStr(4));
      TestDeals;
      TestPbn;
      TestSetDeal;
      TestNextDeals;
      TestFreeTwice;
      TestMix;
      TestInput;
      if ParamCount >= 5 then
        TestCheckScript(ParamStr(5))
      else
        TestCheckScript('');
    except
      on E: Exception do
        Check(False, 'unexpected exception', E.ClassName + ': ' + E.Message);
    end;
  finally
    Layout.Free;
  end;
  WriteLn(Passed, ' passed, ', Failed, ' failed');
  if Failed > 0 then
    Halt(1);
end.
